#!/usr/bin/python3
"""Write a benchmark folder of specs with thousands of input boxes (for scripts/bench.py): the
shape of VNN-COMP's nn4sys learned-index properties, where each key range is a box of its own
with the output's allowed range, so a spec lists thousands of disjuncts, each with its own input
interval.

usage: make_boxes_bench.py OUT_DIR

* abs_boxes_unsat / abs_boxes_sat: models/tiny_relu.onnx (y = relu(x) + relu(-x) = |x|) over
  [-1, 1] cut into 50,000 ranges; unsafe: y below its least value on the range, min(|a|, |b|)
  less 0.001 (a range across 0: y <= -0.001). Exact verdicts: unsat; the sat twin moves one
  range's threshold to its greatest value plus 0.01, which |x| reaches.
* lindex_boxes: a random 1-128-128-128-128-1 ReLU network (make_models.random_net, seed 99) over
  [0, 1] cut into 10,000 ranges, two cases each: y below its least value at nine points of the
  range, or above its greatest, by 5% of their spread plus 0.001. No verdict is known (consensus
  `unknown`, unscored): the time is the measure.

Timeouts 60 s.
"""

import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_models as mm  # noqa: E402  (the random nets and their ONNX writer)
import make_residual_bench as mrb  # noqa: E402  (the lists)

import numpy as np  # noqa: E402


def ranges_text(cases):
    return "\n".join(["(declare-const X_0 Real)", "(declare-const Y_0 Real)", "(assert (or"]
                     + cases + ["))"]) + "\n"


def main(argv):
    out = mrb.out_dir(argv, __doc__)
    rows, consensus = [], []
    shutil.copy(os.path.join(HERE, "..", "models", "tiny_relu.onnx"),
                os.path.join(out, "onnx", "tiny_relu.onnx"))
    n, sat_at = 50000, 31234
    for verdict in ("unsat", "sat"):
        cases = []
        for k in range(n):
            a, b = -1 + 2 * k / n, -1 + 2 * (k + 1) / n
            t = min(abs(a), abs(b)) - 0.001 if a * b > 0 else -0.001
            if verdict == "sat" and k == sat_at:
                t = max(abs(a), abs(b)) + 0.01
            cases.append("(and (>= X_0 %.9f) (<= X_0 %.9f) (<= Y_0 %.9f))" % (a, b, t))
        mrb.add_instance(out, rows, consensus, "onnx/tiny_relu.onnx",
                         "vnnlib/abs_boxes_%s.vnnlib" % verdict, ranges_text(cases), 60, verdict)
    net = mm.random_net(99, [1, 128, 128, 128, 128, 1])
    mm.encode_model(mm.model_text(net, "lindex", "gemm", True),
                    os.path.join(out, "onnx", "lindex.onnx"))
    n, cases = 10000, []
    x = np.linspace(0.0, 1.0, 8 * n + 1)[:, None]   # nine points a range, its ends shared
    for lay in net.layers:                             # (numpy: net.eval point by point is slow)
        x = np.maximum(x, 0.0) if lay == "relu" else x @ np.array(lay[1]).T + np.array(lay[2])
    y = x[:, 0]
    for k in range(n):
        a, b = k / n, (k + 1) / n
        lo, hi = float(y[8 * k:8 * k + 9].min()), float(y[8 * k:8 * k + 9].max())
        eps = 0.05 * (hi - lo) + 1e-3
        cases.append("(and (>= X_0 %.9f) (<= X_0 %.9f) (<= Y_0 %.9f))" % (a, b, lo - eps))
        cases.append("(and (>= X_0 %.9f) (<= X_0 %.9f) (>= Y_0 %.9f))" % (a, b, hi + eps))
    mrb.add_instance(out, rows, consensus, "onnx/lindex.onnx", "vnnlib/lindex_boxes.vnnlib",
                     ranges_text(cases), 60, "unknown")
    mrb.write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
