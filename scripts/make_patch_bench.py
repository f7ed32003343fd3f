#!/usr/bin/python3
"""Write a benchmark folder of patch properties on the shared mnist_fc networks (for
scripts/bench.py): specs that fix most of an image and free a small patch of it, as VNN-COMP's
patch, sensor-window and pixel-subset benchmarks do, the fixed pixels written the way Python
writes them, the double nearest k/255 (0.10588235294117647): a decimal that is no float32 value, so
a float32 runtime only ever receives its rounding.

usage: make_patch_bench.py OUT_DIR [SHARED_BENCHMARKS]

SHARED_BENCHMARKS defaults to ../shared/benchmarks beside the project. For each of the networks
256x2 and 256x4 and each of the properties prop_0 .. prop_14 (the images of their _0.03 specs:
each pixel k/255 with k the nearest to the middle of its box), one instance: a patch of s x s
pixels (s = 5) at a position drawn from a stream seeded by the property's
number inside the central 20 x 20 pixels, each patch pixel free in [0, 1]; unsafe: another class
scores at least as high as the image's label (the original spec's output constraint). The patch
is sampled (4,000 points, half of them on the patch's corners, then 200 steps of a local search
from the 8 best), the network run in float32 on the fixed pixels' float32 rounding: where a point
violates the property, consensus.csv says sat (its counterexample, the fixed pixels at their
rounding, is what any float32 runtime sees), else unknown (unscored). Timeouts 30 s.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_cex as cc  # noqa: E402  (the ONNX reader)
import make_residual_bench as mrb  # noqa: E402  (the lists)

import numpy as np  # noqa: E402

SIDE = {"256x2": 5, "256x4": 5}
N_PROPS = 15
TIMEOUT = 30


def dense_layers(path):
    """The (W, b) pairs of an mnist_fc model (Flatten, then MatMul/Gemm + Add + Relu), in float32,
    with a flag for the ReLU after each."""
    pb = cc.load_onnx_pb2()
    m = pb.ModelProto()
    m.ParseFromString(cc.read_maybe_gz(path))
    inits = {t.name: cc.tensor_to_array(t, np.float32) for t in m.graph.initializer}
    layers = []
    for n in m.graph.node:
        a = [inits.get(i) for i in n.input]
        if n.op_type in ("MatMul", "Gemm"):
            at = {x.name: x for x in n.attribute}
            w = a[1].T if n.op_type == "Gemm" and "transB" in at and at["transB"].i else a[1]
            b = a[2] if len(a) > 2 and a[2] is not None else np.zeros(w.shape[1], np.float32)
            layers.append([w.astype(np.float32), b.astype(np.float32), False])
        elif n.op_type == "Add" and layers and a[1] is not None:
            layers[-1][1] = layers[-1][1] + a[1].astype(np.float32)
        elif n.op_type == "Relu":
            layers[-1][2] = True
        elif n.op_type not in ("Flatten", "Reshape", "Constant"):
            raise SystemExit("%s: operator %s is not supported here" % (path, n.op_type))
    return layers


def run(layers, x):
    """The network on the rows of x (float32)."""
    for w, b, relu in layers:
        x = x @ w + b
        if relu:
            x = np.maximum(x, np.float32(0))
    return x


def image_and_label(spec_path):
    """The image of an mnist_fc _0.03 spec (k/255 nearest each box's middle) and its label."""
    text = open(spec_path).read()
    lo, hi = np.zeros(784), np.zeros(784)
    for m in re.finditer(r"\(assert \(<= X_(\d+) ([-0-9.e]+)\)\)", text):
        hi[int(m.group(1))] = float(m.group(2))
    for m in re.finditer(r"\(assert \(>= X_(\d+) ([-0-9.e]+)\)\)", text):
        lo[int(m.group(1))] = float(m.group(2))
    label = int(re.search(r"label: (\d+)", text).group(1))
    return np.round((lo + hi) / 2 * 255) / 255, label


def worst_margin(layers, base, patch, label, rng):
    """The least margin (label's score less the best other's) found on the patch: sampling, then a
    local search from the best points."""
    n = 4000
    u = rng.random((n, len(patch)))
    u[: n // 2] = np.round(u[: n // 2])           # corners
    x = np.tile(base.astype(np.float32), (n, 1))

    def margin(v):
        x[: len(v), patch] = v
        y = run(layers, x[: len(v)])
        other = np.delete(y, label, axis=1).max(axis=1)
        return y[:, label] - other

    m = margin(u.astype(np.float32))
    best = u[np.argsort(m)[:8]]
    bm = np.sort(m)[:8]
    step = 0.25
    for it in range(200):
        cand = np.clip(best + step * rng.standard_normal(best.shape), 0, 1)
        cm = margin(cand.astype(np.float32))
        better = cm < bm
        best[better], bm[better] = cand[better], cm[better]
        if it % 40 == 39:
            step /= 2
    return float(bm.min())


def main(argv):
    shared = argv[2] if len(argv) > 2 else os.path.join(HERE, "..", "..", "shared", "benchmarks")
    out = mrb.out_dir(argv[:2], __doc__)
    src = os.path.join(shared, "mnist_fc")
    rows, consensus = [], []
    for net, side in SIDE.items():
        onnx = "onnx/mnist-net_%s.onnx" % net
        data = cc.read_maybe_gz(os.path.join(src, onnx))
        with open(os.path.join(out, onnx), "wb") as f:
            f.write(data)
        layers = dense_layers(os.path.join(out, onnx))
        for p in range(N_PROPS):
            spec0 = os.path.join(src, "vnnlib", "prop_%d_0.03.vnnlib" % p)
            img, label = image_and_label(spec0)
            rng = np.random.default_rng(1000 + p)
            r0, c0 = rng.integers(4, 24 - side, size=2)
            patch = [int((r0 + i) * 28 + c0 + j) for i in range(side) for j in range(side)]
            x_lo = [repr(float(v)) for v in img]
            x_hi = list(x_lo)
            for i in patch:
                x_lo[i], x_hi[i] = "0", "1"
            m = worst_margin(layers, img, patch, label, rng)
            verdict = "sat" if m <= 0 else "unknown"
            others = ["  (and (>= Y_%d Y_%d))" % (j, label) for j in range(10) if j != label]
            text = mrb.spec_text("mnist_fc %s prop_%d: a %dx%d patch at row %d, column %d free "
                                 "in [0, 1], the other pixels fixed; label %d; the least margin "
                                 "sampled %.4g" % (net, p, side, side, r0, c0, label, m),
                                 x_lo, x_hi, 10, ["(assert (or"] + others + ["))"])
            spec = "vnnlib/patch_%s_prop_%d.vnnlib" % (net, p)
            mrb.add_instance(out, rows, consensus, onnx, spec, text, TIMEOUT, verdict)
            print("%s prop_%d: least margin %.4g: %s" % (net, p, m, verdict))
    mrb.write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
