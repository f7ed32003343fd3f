#!/usr/bin/python3
"""Write a benchmark folder of residual networks (for scripts/bench.py), deterministically.

usage: make_residual_bench.py OUT_DIR

No VNN-COMP benchmark beside the project has a residual network, so this one is generated:

* resnet_conv: input [1,1,16,16]; Conv 3x3 (8 channels) + BatchNormalization + Relu; a block
  Conv-BN-Relu-Conv-BN added to its input (identity skip), Relu; a block with stride 2 (16 channels)
  whose skip is a 1x1 Conv of stride 2 (a projection), Relu; Flatten, Gemm to 10 outputs.
* resnet_mlp: 32 inputs; a block 32 -> 48 -> 32 added to the raw input (a skip whose value changes
  sign: carried past the block's Relu as relu(x), relu(-x)); Gemm 32 -> 48, Relu; two blocks
  48 -> 48 -> 48 added to a Relu's output; Relu; Gemm to 10 outputs.
* gated_mlp: 32 inputs; Gemm 32 -> 48, Relu (h); a gated unit u * relu(v) (u, v Gemms of h: Mul of
  two computed tensors) plus Pow(s, 2) (s a third Gemm of h: a square), added to h; Relu; Gemm to
  10 outputs.
* silu_mlp: 32 inputs; Gemm 32 -> 48, SiLU (h * Sigmoid(h): h read on both sides of the Sigmoid);
  a block Gemm 48 -> 48, SiLU, Gemm 48 -> 48 added to its input; Tanh gate: the sum times
  Tanh(a Gemm of it); Gemm to 10 outputs.

Weights are random (fixed seeds), float32. Specs, per network:

* point_*: the input box is one float32 point x (written with its exact decimal expansion), the
  unsafe set Y_j <= y_j - 0.01 (unsat) or Y_j <= y_j + 0.01 (sat), y = the network at x evaluated
  by scripts/check_cex.py's numpy interpreter in float64. The real-valued network and its float32
  execution are within far less than 0.01 of that value, so these verdicts are known (consensus.csv).
* ball_*: an L-inf ball of radius eps around a random point, unsafe: another class scores at least
  the point's class. Unscored (consensus `unknown`): bench.py still re-checks every sat.
"""

import csv
import decimal
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_cex  # noqa: E402  (the numpy ONNX interpreter)
import make_models as mm  # noqa: E402  (protobuf text writers, protoc encoding)

import numpy as np  # noqa: E402


class Builder:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.inits, self.nodes = [], []

    def tensor(self, name, dims, vals):
        self.inits.append(mm.tensor_text(name, dims, [mm.f32(v) for v in vals], True))

    def gauss(self, n, sd):
        return [self.rng.gauss(0.0, sd) for _ in range(n)]

    def conv(self, name, x, cin, cout, k, pad, stride=1):
        self.tensor(name + "_w", [cout, cin, k, k], self.gauss(cout * cin * k * k, (2.0 / (cin * k * k)) ** 0.5))
        self.tensor(name + "_b", [cout], self.gauss(cout, 0.1))
        self.nodes.append(mm.node_text("Conv", [x, name + "_w", name + "_b"], [name], name,
                                       [("kernel_shape", "INTS", [k, k]), ("pads", "INTS", [pad] * 4),
                                        ("strides", "INTS", [stride, stride])]))
        return name

    def bn(self, name, x, c):
        self.tensor(name + "_s", [c], [self.rng.uniform(0.5, 1.5) for _ in range(c)])
        self.tensor(name + "_bb", [c], self.gauss(c, 0.1))
        self.tensor(name + "_m", [c], self.gauss(c, 0.1))
        self.tensor(name + "_v", [c], [self.rng.uniform(0.5, 2.0) for _ in range(c)])
        self.nodes.append(mm.node_text("BatchNormalization",
                                       [x, name + "_s", name + "_bb", name + "_m", name + "_v"], [name], name))
        return name

    def gemm(self, name, x, n_in, n_out, sd=None, out=None):
        self.tensor(name + "_w", [n_out, n_in], self.gauss(n_in * n_out, sd or (2.0 / n_in) ** 0.5))
        self.tensor(name + "_b", [n_out], self.gauss(n_out, 0.1))
        self.nodes.append(mm.node_text("Gemm", [x, name + "_w", name + "_b"], [out or name], name,
                                       [("transB", "INT", 1)]))
        return out or name

    def op(self, op, name, ins, attrs=()):
        self.nodes.append(mm.node_text(op, ins, [name], name, list(attrs)))
        return name

    def write(self, path, in_dims, n_out):
        s = 'ir_version: 8\nproducer_name: "verify scripts/make_residual_bench.py"\n'
        s += 'opset_import { domain: "" version: 13 }\ngraph {\n  name: "residual"\n'
        s += "".join(self.nodes) + "".join(self.inits)
        s += mm.value_info_text("input", "X", in_dims) + mm.value_info_text("output", "Y", [1, n_out])
        s += "}\n"
        mm.encode_model(s, path)


def resnet_conv(path):
    b = Builder(11)
    c = 8
    h = b.op("Relu", "r0", [b.bn("bn0", b.conv("c0", "X", 1, c, 3, 1), c)])
    a = b.op("Relu", "r1", [b.bn("bn1", b.conv("c1", h, c, c, 3, 1), c)])
    a = b.bn("bn2", b.conv("c2", a, c, c, 3, 1), c)
    h = b.op("Relu", "r2", [b.op("Add", "add1", [a, h])])
    a = b.op("Relu", "r3", [b.bn("bn3", b.conv("c3", h, c, 2 * c, 3, 1, 2), 2 * c)])
    a = b.conv("c4", a, 2 * c, 2 * c, 3, 1)
    p = b.conv("proj", h, c, 2 * c, 1, 0, 2)
    h = b.op("Relu", "r4", [b.op("Add", "add2", [a, p])])
    f = b.op("Flatten", "flat", [h], [("axis", "INT", 1)])
    n_flat = 2 * c * 8 * 8
    b.gemm("fc", f, n_flat, 10, sd=(1.0 / n_flat) ** 0.5, out="Y")
    b.write(path, [1, 1, 16, 16], 10)


def resnet_mlp(path):
    b = Builder(12)
    n, w = 32, 48
    x = b.op("Flatten", "xf", ["X"], [("axis", "INT", 1)])
    a = b.gemm("b0_out", b.op("Relu", "b0_r", [b.gemm("b0_in", x, n, w)]), w, n, sd=0.5 / w ** 0.5)
    h = b.op("Add", "skip0", [x, a])
    h = b.op("Relu", "r1", [b.gemm("fc1", h, n, w)])
    for k in (1, 2):
        a = b.gemm("b%d_out" % k, b.op("Relu", "b%d_r" % k, [b.gemm("b%d_in" % k, h, w, w)]), w, w,
                   sd=0.5 / w ** 0.5)
        h = b.op("Add", "skip%d" % k, [a, h])
    h = b.op("Relu", "r2", [h])
    b.gemm("fc2", h, w, 10, out="Y")
    b.write(path, [1, n], 10)


def gated_mlp(path):
    b = Builder(13)
    n, w = 32, 48
    x = b.op("Flatten", "xf", ["X"], [("axis", "INT", 1)])
    h = b.op("Relu", "r0", [b.gemm("fc0", x, n, w)])
    u = b.gemm("gate_u", h, w, w, sd=1.0 / w ** 0.5)
    v = b.op("Relu", "gate_r", [b.gemm("gate_v", h, w, w, sd=1.0 / w ** 0.5)])
    p = b.op("Mul", "gate", [u, v])
    b.tensor("two", [1], [2.0])
    q = b.op("Pow", "square", [b.gemm("sq_in", h, w, w, sd=0.5 / w ** 0.5), "two"])
    h = b.op("Add", "skip", [b.op("Add", "gate_sum", [p, q]), h])
    h = b.op("Relu", "r1", [h])
    b.gemm("fc1", h, w, 10, out="Y")
    b.write(path, [1, n], 10)


def silu_mlp(path):
    b = Builder(14)
    n, w = 32, 48

    def silu(name, x):
        return b.op("Mul", name, [x, b.op("Sigmoid", name + "_s", [x])])

    x = b.op("Flatten", "xf", ["X"], [("axis", "INT", 1)])
    h = silu("a0", b.gemm("fc0", x, n, w))
    a = b.gemm("b_out", silu("a1", b.gemm("b_in", h, w, w)), w, w, sd=0.5 / w ** 0.5)
    h = b.op("Add", "skip", [a, h])
    h = b.op("Mul", "gate", [h, b.op("Tanh", "gate_t", [b.gemm("gate_in", h, w, w)])])
    b.gemm("fc1", h, w, 10, out="Y")
    b.write(path, [1, n], 10)


def exact(v):
    """The exact decimal value of a double (a float32 value here)."""
    return format(decimal.Decimal(v), "f")


def spec_text(comment, x_lo, x_hi, n_out, asserts):
    lines = ["; " + comment, ""]
    lines += ["(declare-const X_%d Real)" % i for i in range(len(x_lo))]
    lines += ["(declare-const Y_%d Real)" % j for j in range(n_out)]
    for i, (lo, hi) in enumerate(zip(x_lo, x_hi)):
        lines.append("(assert (>= X_%d %s))" % (i, lo))
        lines.append("(assert (<= X_%d %s))" % (i, hi))
    return "\n".join(lines + asserts) + "\n"


def build_net(out, name, make):
    """OUT/onnx/NAME.onnx written by make (OUT/vnnlib made too): its path in OUT and its
    check_cex interpreter."""
    for d in ("onnx", "vnnlib"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    onnx = "onnx/%s.onnx" % name
    make(os.path.join(out, onnx))
    model = check_cex.load_onnx_pb2().ModelProto()
    with open(os.path.join(out, onnx), "rb") as f:
        model.ParseFromString(f.read())
    return onnx, check_cex.Network(model)


def out_dir(argv, usage):
    """OUT_DIR, the one argument of a generator (else its usage), with OUT/onnx and OUT/vnnlib
    made."""
    if len(argv) != 2:
        sys.exit(usage)
    for d in ("onnx", "vnnlib"):
        os.makedirs(os.path.join(argv[1], d), exist_ok=True)
    return argv[1]


def add_instance(out, rows, consensus, onnx, spec, text, timeout, verdict):
    """Write the spec's text to OUT/spec and list the instance with its timeout and verdict."""
    with open(os.path.join(out, spec), "w") as f:
        f.write(text)
    rows.append((onnx, spec, timeout))
    consensus.append((onnx, spec, verdict))


def add_point_pair(out, rows, consensus, onnx, name, k, x, y, j):
    """Two instances of known verdict at the float32 point x (the input box that point), y the
    network's output there: unsafe Y_j <= y_j - 0.01 (unsat) and Y_j <= y_j + 0.01 (sat)."""
    xs = [exact(v) for v in x]
    for verdict, d in (("unsat", -0.01), ("sat", 0.01)):
        spec = "vnnlib/%s_point%d_%s.vnnlib" % (name, k, verdict)
        t = repr(float(y[j]) + d)
        text = spec_text("%s: Y_%d at one point is %.9g; unsafe Y_%d <= %s: expected %s"
                         % (name, j, y[j], j, t, verdict), xs, xs, len(y),
                         ["(assert (<= Y_%d %s))" % (j, t)])
        add_instance(out, rows, consensus, onnx, spec, text, 60, verdict)


def add_ball(out, rows, consensus, onnx, spec, what, lo, hi, y):
    """An unscored instance: the box [lo, hi] (decimal strings), unsafe: a class other than y's
    top one scores at least as high."""
    top = int(np.argmax(y))
    alts = ["  (and (>= Y_%d Y_%d))" % (j, top) for j in range(len(y)) if j != top]
    text = spec_text("%s, unsafe: a class other than %d scores at least as high" % (what, top),
                     lo, hi, len(y), ["(assert (or"] + alts + ["))"])
    add_instance(out, rows, consensus, onnx, spec, text, 60, "unknown")


def write_lists(out, rows, consensus):
    """OUT/instances.csv and OUT/consensus.csv, as scripts/bench.py reads them."""
    with open(os.path.join(out, "instances.csv"), "w", newline="") as f:
        csv.writer(f).writerows(rows)
    with open(os.path.join(out, "consensus.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["onnx", "vnnlib", "resolved"])
        w.writerows(consensus)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    rows, consensus = [], []
    for name, make in (("resnet_conv", resnet_conv), ("resnet_mlp", resnet_mlp),
                       ("gated_mlp", gated_mlp), ("silu_mlp", silu_mlp)):
        onnx, net = build_net(out, name, make)
        n_in = int(np.prod(net.input_shapes[0]))
        rng = np.random.default_rng(7)
        for k in range(4):
            x = rng.uniform(-1, 1, n_in).astype(np.float32).astype(np.float64)
            y = net.run(x, np.float64)
            add_point_pair(out, rows, consensus, onnx, name, k, x, y, int(rng.integers(len(y))))
        radii = (0.03, 0.06, 0.1) if name in ("gated_mlp", "silu_mlp") else (0.002, 0.005, 0.01)
        for k, eps in enumerate(radii + radii):
            x = rng.uniform(-1, 1, n_in).astype(np.float32).astype(np.float64)
            y = net.run(x, np.float64)
            add_ball(out, rows, consensus, onnx, "vnnlib/%s_ball%d_eps%g.vnnlib" % (name, k, eps),
                     "%s: L-inf ball of radius %g" % (name, eps), [repr(v - eps) for v in x],
                     [repr(v + eps) for v in x], y)
    write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
