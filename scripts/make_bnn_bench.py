#!/usr/bin/python3
"""Write a benchmark folder of binarized and Softmax networks (for scripts/bench.py),
deterministically.

usage: make_bnn_bench.py OUT_DIR

No VNN-COMP benchmark beside the project has a Sign or a Softmax inside the graph, so these are
generated (with scripts/make_models.py's ONNX writer):

* bnn: 300 inputs in [0, 1]; Gemm 300 -> 128 with +-1 weights, Sign; Gemm 128 -> 64 with +-1
  weights, Sign; Gemm 64 -> 10; Softmax (the output). A binarized MLP, as VNN-COMP 2023's
  traffic-sign networks are binarized convolutional ones.
* smx: 20 inputs; Gemm 20 -> 16, a Softmax over each group of 4 (inside the graph); Gemm, Relu,
  Gemm, Relu, Gemm to 3 outputs.

Specs: L-inf balls around random points (radius 0.001, 0.01, 0.05 for bnn; 0.01, 0.05, 0.2 for
smx), unsafe: another class scores at least the point's class. Unscored (consensus `unknown`):
bench.py still re-checks every sat.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_models as mm  # noqa: E402


def robust_dnf(n_out, t):
    """Y_j >= Y_t for some j != t, as rows c.y <= 0."""
    return [[([(1.0 if i == t else 0.0) - (1.0 if i == j else 0.0) for i in range(n_out)], 0.0)]
            for j in range(n_out) if j != t]


def bin_dense(rng, ni, no):
    return ("dense", [[rng.choice((-1.0, 1.0)) for _ in range(ni)] for _ in range(no)],
            [mm.f32(rng.uniform(-1, 1)) for _ in range(no)])


def write(out, name, net, n_in, n_out, points, radii, lo_clip, rows):
    mm.encode_model(mm.model_text(net, name, "gemm", True),
                    os.path.join(out, "onnx", name + ".onnx"))
    for k, x in enumerate(points):
        y = net.eval(x)
        t = max(range(n_out), key=lambda j: y[j])
        for r in radii:
            lo = [mm.f32(max(lo_clip[0], v - r)) for v in x]
            hi = [mm.f32(min(lo_clip[1], v + r)) for v in x]
            spec = "%s_%d_eps%g" % (name, k, r)
            with open(os.path.join(out, "vnnlib", spec + ".vnnlib"), "w") as f:
                f.write(mm.spec_text("%s: robustness of class %d around point %d" % (name, t, k),
                                     n_in, n_out, [(lo, hi)], robust_dnf(n_out, t)))
            rows.append(("onnx/%s.onnx" % name, "vnnlib/%s.vnnlib" % spec))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[3])
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
    os.makedirs(os.path.join(out, "vnnlib"), exist_ok=True)
    rows = []
    rng = random.Random(5)
    bnn = mm.Net(300, [bin_dense(rng, 300, 128), ("sign",), bin_dense(rng, 128, 64), ("sign",),
                       ("dense", [[mm.f32(rng.gauss(0, 0.3)) for _ in range(64)]
                                  for _ in range(10)], [0.0] * 10)], softmax=True)
    pts = [[mm.f32(rng.uniform(0, 1)) for _ in range(300)] for _ in range(8)]
    write(out, "bnn", bnn, 300, 10, pts, (0.001, 0.01, 0.05), (0.0, 1.0), rows)
    smx = mm.random_net(4711, [20, 16, 16, 16, 3])
    smx.layers = smx.layers[:1] + [("softmax", 4, 16)] + smx.layers[2:]
    rng = random.Random(3)
    pts = [[mm.f32(rng.uniform(-1, 1)) for _ in range(20)] for _ in range(4)]
    write(out, "smx", smx, 20, 3, pts, (0.01, 0.05, 0.2), (-10.0, 10.0), rows)
    with open(os.path.join(out, "instances.csv"), "w") as f:
        f.writelines("%s,%s,60\n" % r for r in rows)
    with open(os.path.join(out, "consensus.csv"), "w") as f:
        f.write("onnx,vnnlib,resolved\n")
        f.writelines("%s,%s,unknown\n" % r for r in rows)


if __name__ == "__main__":
    main()
