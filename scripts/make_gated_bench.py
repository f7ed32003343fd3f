#!/usr/bin/python3
"""Write a benchmark folder of Gelu and SiLU networks (for scripts/bench.py), deterministically.

usage: make_gated_bench.py OUT_DIR

No VNN-COMP benchmark beside the project has Gelu or SiLU activations (transformers' MLPs and
recent convolutional detectors use them), so this one is generated. Four networks share one set of
random float32 weights, 16 inputs, three hidden layers of 64, 10 outputs:

* gelu_op:  each activation the ONNX Gelu op (opset 20; verify: a GELU layer);
* gelu_erf: each activation as PyTorch exports the exact Gelu before opset 20: Div by
  1.4142135 (float32's sqrt 2), Erf, Add 1, Mul by its input, Mul by 0.5 (verify: an ERFGATE layer
  between scalings; an ERF layer and a product before that fusion). Not quite gelu_op's function:
  the divisor is rounded;
* silu_mul:  each activation x * Sigmoid(x) (verify: fused into a SILU layer);
* swish_op:  each activation the ONNX Swish op (opset 24, alpha 1): silu_mul's function exactly.

Specs, per network: point_* (as make_residual_bench.py: the input box one float32 point, unsafe
Y_j <= y_j - 0.01, unsat, or Y_j <= y_j + 0.01, sat; known verdicts), and ball_*: L-inf balls of
radii 0.02, 0.04, 0.06 and 0.08 around five random points, unsafe: another class scores at least
the point's class (unscored, consensus `unknown`; bench.py re-checks every sat). The same points
and radii for every network, so their answers can be set side by side.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_models as mm  # noqa: E402
import make_residual_bench as rb  # noqa: E402

import numpy as np  # noqa: E402

N_IN, WIDTH, N_OUT, DEPTH = 16, 64, 10, 3


class Builder(rb.Builder):
    def write_opset(self, path, opset):
        s = 'ir_version: 9\nproducer_name: "verify scripts/make_gated_bench.py"\n'
        s += 'opset_import { domain: "" version: %d }\ngraph {\n  name: "gated"\n' % opset
        s += "".join(self.nodes) + "".join(self.inits)
        s += mm.value_info_text("input", "X", [1, N_IN])
        s += mm.value_info_text("output", "Y", [1, N_OUT])
        s += "}\n"
        mm.encode_model(s, path)


def activation(b, style, name, x):
    if style == "gelu_op":
        return b.op("Gelu", name, [x])
    if style == "swish_op":
        return b.op("Swish", name, [x], [("alpha", "FLOAT", 1.0)])
    if style == "silu_mul":
        return b.op("Mul", name, [x, b.op("Sigmoid", name + "_s", [x])])
    b.tensor(name + "_sqrt2", [1], [2.0 ** 0.5])
    b.tensor(name + "_one", [1], [1.0])
    b.tensor(name + "_half", [1], [0.5])
    e = b.op("Erf", name + "_erf", [b.op("Div", name + "_div", [x, name + "_sqrt2"])])
    p = b.op("Mul", name + "_mul", [x, b.op("Add", name + "_add", [e, name + "_one"])])
    return b.op("Mul", name, [p, name + "_half"])


def network(style):
    def make(path):
        b = Builder(21)   # (the same seed for every style: the same weights)
        h = activation(b, style, "a0", b.gemm("fc0", "X", N_IN, WIDTH, sd=2.0 / N_IN ** 0.5))
        for k in range(1, DEPTH):
            h = activation(b, style, "a%d" % k, b.gemm("fc%d" % k, h, WIDTH, WIDTH))
        b.gemm("fc%d" % DEPTH, h, WIDTH, N_OUT, out="Y")
        b.write_opset(path, 24 if style == "swish_op" else 20)
    return make


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    rows, consensus = [], []
    for style in ("gelu_op", "gelu_erf", "silu_mul", "swish_op"):
        onnx, net = rb.build_net(out, style, network(style))
        rng = np.random.default_rng(5)
        for k in range(2):
            x = rng.uniform(-1, 1, N_IN).astype(np.float32).astype(np.float64)
            y = net.run(x, np.float64)
            rb.add_point_pair(out, rows, consensus, onnx, style, k, x, y,
                              int(rng.integers(len(y))))
        for k in range(5):
            x = rng.uniform(-1, 1, N_IN).astype(np.float32).astype(np.float64)
            y = net.run(x, np.float64)
            for eps in (0.02, 0.04, 0.06, 0.08):
                rb.add_ball(out, rows, consensus, onnx,
                            "vnnlib/%s_ball%d_eps%g.vnnlib" % (style, k, eps),
                            "%s: L-inf ball of radius %g" % (style, eps),
                            [repr(v - eps) for v in x], [repr(v + eps) for v in x], y)
    rb.write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
