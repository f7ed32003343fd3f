#!/usr/bin/python3
"""Write a benchmark folder of CIFAR-sized convolutional networks (for scripts/bench.py).

usage: make_wide_conv_bench.py OUT_DIR

The benchmarks beside the project stop at oval21's small CIFAR nets (a few thousand neurons).
VNN-COMP's cifar2020 (ERAN's convBig) and cifar10_resnet are an order of magnitude wider; these
two stand in for their shapes (random weights, fixed seeds, float32), to measure the root's bound
passes and the attack at that size:

* convbig: input [1,3,32,32]; Conv 3x3 (32) Relu, Conv 4x4 stride 2 (32) Relu, Conv 3x3 (64) Relu,
  Conv 4x4 stride 2 (64) Relu; Flatten, Gemm 4096 -> 512 Relu, 512 -> 512 Relu, 512 -> 10
  (62,464 ReLUs, ERAN's convBig geometry).
* resnet4b: input [1,3,32,32]; Conv 3x3 stride 2 (16) + BatchNormalization + Relu; four blocks
  Conv-BN-Relu-Conv-BN added to their input, Relu; Flatten, Gemm 4096 -> 100 Relu, 100 -> 10.

Specs, per network: an L-inf ball of radius eps/255 (eps 0.1, 0.5, 2) around one random image in
[0, 1] (clipped there), unsafe: another class scores at least the image's class. Unscored
(consensus `unknown`: the verdicts of random nets are not known), but bench.py re-checks every
sat. The timeout is 120 s.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_residual_bench as mrb  # noqa: E402  (the graph builder and spec writer)

import numpy as np  # noqa: E402


def convbig(path):
    b = mrb.Builder(21)
    h = b.op("Relu", "r0", [b.conv("c0", "X", 3, 32, 3, 1, 1)])
    h = b.op("Relu", "r1", [b.conv("c1", h, 32, 32, 4, 1, 2)])
    h = b.op("Relu", "r2", [b.conv("c2", h, 32, 64, 3, 1, 1)])
    h = b.op("Relu", "r3", [b.conv("c3", h, 64, 64, 4, 1, 2)])
    f = b.op("Flatten", "flat", [h], [("axis", "INT", 1)])
    h = b.op("Relu", "r4", [b.gemm("fc0", f, 64 * 8 * 8, 512)])
    h = b.op("Relu", "r5", [b.gemm("fc1", h, 512, 512)])
    b.gemm("fc2", h, 512, 10, out="Y")
    b.write(path, [1, 3, 32, 32], 10)


def resnet4b(path):
    b = mrb.Builder(22)
    c = 16
    h = b.op("Relu", "r0", [b.bn("bn0", b.conv("c0", "X", 3, c, 3, 1, 2), c)])
    for k in range(4):
        a = b.op("Relu", "ra%d" % k, [b.bn("bna%d" % k, b.conv("ca%d" % k, h, c, c, 3, 1), c)])
        a = b.bn("bnb%d" % k, b.conv("cb%d" % k, a, c, c, 3, 1), c)
        h = b.op("Relu", "rs%d" % k, [b.op("Add", "add%d" % k, [a, h])])
    f = b.op("Flatten", "flat", [h], [("axis", "INT", 1)])
    h = b.op("Relu", "rf", [b.gemm("fc0", f, c * 16 * 16, 100)])
    b.gemm("fc1", h, 100, 10, out="Y")
    b.write(path, [1, 3, 32, 32], 10)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    rows, consensus = [], []
    for name, make in (("convbig", convbig), ("resnet4b", resnet4b)):
        onnx, net = mrb.build_net(out, name, make)
        rng = np.random.default_rng(3)
        x = rng.uniform(0, 1, 3 * 32 * 32).astype(np.float32).astype(np.float64)
        y = net.run(x, np.float64)
        top = int(np.argmax(y))
        alts = ["  (and (>= Y_%d Y_%d))" % (j, top) for j in range(len(y)) if j != top]
        for eps in (0.1, 0.5, 2.0):
            r = eps / 255
            spec = "vnnlib/%s_eps%g.vnnlib" % (name, eps)
            text = mrb.spec_text("%s: L-inf ball of radius %g/255 in [0, 1], unsafe: a class other "
                                 "than %d scores at least as high" % (name, eps, top),
                                 [repr(max(0.0, v - r)) for v in x],
                                 [repr(min(1.0, v + r)) for v in x], len(y),
                                 ["(assert (or"] + alts + ["))"])
            mrb.add_instance(out, rows, consensus, onnx, spec, text, 120, "unknown")
    mrb.write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
