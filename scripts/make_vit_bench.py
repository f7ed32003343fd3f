#!/usr/bin/python3
"""Write a benchmark folder of small vision transformers (for scripts/bench.py), deterministically.

usage: make_vit_bench.py OUT_DIR

VNN-COMP 2023's vit benchmark (its ibp_3_3_8 and pgd_2_3_16 networks) holds vision transformers
as PyTorch exports them, with LayerNorm replaced by BatchNorm or by a LayerNorm without its
variance. No benchmark beside the project has one, so this one is generated with the same
structure and the same ONNX operators, at a size of its own (random float32 weights):

* the patches: Reshape (1, 3, 8, 8) to (1, 3, 2, 4, 2, 4), Transpose (0, 2, 4, 3, 5, 1),
  Reshape to (1, 4, 48) (einops' Rearrange), then MatMul and Add to 24 features;
* a class token put in front: Shape, Gather, Unsqueeze, Concat, Expand of a constant, Concat;
  then Add of a position embedding;
* blocks of attention (3 heads of 8: MatMul, Reshape, Transpose for Q, K and V; MatMul of Q and
  K transposed, Mul by 8^-1/2, Softmax, MatMul by V, Transpose, Reshape, MatMul, Add; a residual
  Add) and of an MLP (MatMul, Add, Relu, MatMul, Add; a residual Add), each after a norm;
* the class token's features (Gather on axis 1), a norm, Gemm to 10 classes.

Networks: vit_bn (two blocks; each norm a BatchNormalization between Transposes, as ibp_3_3_8)
and vit_nv (one block; each norm x - mean(x) scaled and shifted, as pgd_2_3_16's LayerNormNoVar).

Specs, per network: point_* (the input box one float32 point, unsafe Y_j <= y_j - 0.01, unsat, or
Y_j <= y_j + 0.01, sat; known verdicts), and ball_*: L-inf balls of radii 1/255, 2/255 and 4/255
around four random images in [0, 1], clipped to it, unsafe: another class scores at least the
image's class (unscored, consensus `unknown`; bench.py re-checks every sat).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_models as mm  # noqa: E402
import make_residual_bench as rb  # noqa: E402

import numpy as np  # noqa: E402

CH, IMG, PATCH, DIM, HEADS, DHEAD, MLP, N_OUT = 3, 8, 4, 24, 3, 8, 48, 10
GRID = IMG // PATCH
TOKENS = GRID * GRID + 1


class Builder(rb.Builder):
    def ints(self, name, vals, scalar=False):
        """An int64 initializer (a shape, axes or an index; scalar: of rank 0)."""
        dims = "" if scalar else "    dims: %d\n" % len(vals)
        self.inits.append("  initializer {\n%s    data_type: 7\n    name: \"%s\"\n" % (dims, name)
                          + "".join("    int64_data: %d\n" % v for v in vals) + "  }\n")
        return name

    def matmul(self, name, x, n_in, n_out, bias=True):
        self.tensor(name + "_w", [n_in, n_out], self.gauss(n_in * n_out, (1.0 / n_in) ** 0.5))
        y = self.op("MatMul", name + "_mm" if bias else name, [x, name + "_w"])
        if not bias:
            return y
        self.tensor(name + "_b", [n_out], self.gauss(n_out, 0.1))
        return self.op("Add", name, [y, name + "_b"])

    def norm(self, name, x, style):
        """BatchNorm over the features of (1, tokens, features), or x - mean(x) over its last axis,
        scaled and shifted."""
        if style == "bn":
            t = self.op("Transpose", name + "_t", [x], [("perm", "INTS", [0, 2, 1])])
            t = self.bn(name + "_bn", t, DIM)
            return self.op("Transpose", name, [t], [("perm", "INTS", [0, 2, 1])])
        m = self.op("ReduceMean", name + "_mean", [x], [("axes", "INTS", [-1])])
        c = self.op("Sub", name + "_c", [x, m])
        self.tensor(name + "_g", [DIM], [self.rng.uniform(0.5, 1.5) for _ in range(DIM)])
        self.tensor(name + "_beta", [DIM], self.gauss(DIM, 0.1))
        return self.op("Add", name, [self.op("Mul", name + "_s", [c, name + "_g"]),
                                     name + "_beta"])

    def heads(self, name, x):
        """(1, tokens, heads * dhead) -> (1, heads, tokens, dhead)."""
        r = self.op("Reshape", name + "_r", [x, self.ints(name + "_shape",
                                                         [1, TOKENS, HEADS, DHEAD])])
        return self.op("Transpose", name, [r], [("perm", "INTS", [0, 2, 1, 3])])


def network(style, depth):
    def make(path):
        b = Builder(31)
        x = b.op("Reshape", "patch_r", ["X", b.ints("patch_shape",
                                                    [1, CH, GRID, PATCH, GRID, PATCH])])
        x = b.op("Transpose", "patch_t", [x], [("perm", "INTS", [0, 2, 4, 3, 5, 1])])
        x = b.op("Reshape", "patch_f", [x, b.ints("patch_flat", [1, GRID * GRID,
                                                                 PATCH * PATCH * CH])])
        x = b.matmul("embed", x, PATCH * PATCH * CH, DIM)
        # the class token, repeated for the batch as exports do: Shape, Gather, Unsqueeze, Concat
        shp = b.op("Shape", "cls_shape", [x])
        n = b.op("Gather", "cls_n", [shp, b.ints("zero", [0], scalar=True)], [("axis", "INT", 0)])
        n1 = b.op("Unsqueeze", "cls_n1", [n, b.ints("axes0", [0])])
        tgt = b.op("Concat", "cls_target", [n1, b.ints("cls_rest", [1, DIM])],
                   [("axis", "INT", 0)])
        b.tensor("cls_token", [1, 1, DIM], b.gauss(DIM, 1.0))
        cls = b.op("Expand", "cls", ["cls_token", tgt])
        x = b.op("Concat", "tokens", [cls, x], [("axis", "INT", 1)])
        b.tensor("pos", [TOKENS, DIM], b.gauss(TOKENS * DIM, 0.5))
        x = b.op("Add", "tokens_pos", [x, "pos"])
        for k in range(depth):
            p = "blk%d_" % k
            h = b.norm(p + "n1", x, style)
            q = b.heads(p + "q", b.matmul(p + "wq", h, DIM, HEADS * DHEAD, bias=False))
            kk = b.heads(p + "k", b.matmul(p + "wk", h, DIM, HEADS * DHEAD, bias=False))
            v = b.heads(p + "v", b.matmul(p + "wv", h, DIM, HEADS * DHEAD, bias=False))
            kt = b.op("Transpose", p + "kt", [kk], [("perm", "INTS", [0, 1, 3, 2])])
            b.tensor(p + "scale", [], [DHEAD ** -0.5])
            d = b.op("Mul", p + "dots", [b.op("MatMul", p + "qk", [q, kt]), p + "scale"])
            a = b.op("Softmax", p + "attn", [d], [("axis", "INT", -1)])
            o = b.op("Transpose", p + "o_t", [b.op("MatMul", p + "av", [a, v])],
                     [("perm", "INTS", [0, 2, 1, 3])])
            o = b.op("Reshape", p + "o_r", [o, b.ints(p + "o_shape", [1, TOKENS, HEADS * DHEAD])])
            x = b.op("Add", p + "res1", [b.matmul(p + "wo", o, HEADS * DHEAD, DIM), x])
            h = b.norm(p + "n2", x, style)
            h = b.op("Relu", p + "relu", [b.matmul(p + "fc1", h, DIM, MLP)])
            x = b.op("Add", p + "res2", [b.matmul(p + "fc2", h, MLP, DIM), x])
        x = b.op("Gather", "cls_out", [x, b.ints("zero1", [0], scalar=True)], [("axis", "INT", 1)])
        if style == "bn":   # (1, DIM): a BatchNormalization over its features
            x = b.bn("head_bn", x, DIM)
        else:
            m = b.op("ReduceMean", "head_mean", [x], [("axes", "INTS", [-1])])
            x = b.op("Sub", "head_c", [x, m])
        b.gemm("head", x, DIM, N_OUT, out="Y")
        b.write(path, [1, CH, IMG, IMG], N_OUT)
    return make


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    rows, consensus = [], []
    n_in = CH * IMG * IMG
    for style, depth in (("bn", 2), ("nv", 1)):
        name = "vit_" + style
        onnx, net = rb.build_net(out, name, network(style, depth))
        rng = np.random.default_rng(7)
        for k in range(2):
            x = rng.uniform(0, 1, n_in).astype(np.float32).astype(np.float64)
            y = net.run(x, np.float64)
            rb.add_point_pair(out, rows, consensus, onnx, name, k, x, y, int(rng.integers(len(y))))
        for k in range(4):
            x = rng.uniform(0, 1, n_in).astype(np.float32).astype(np.float64)
            y = net.run(x, np.float64)
            for r in (1, 2, 4):
                eps = r / 255.0
                rb.add_ball(out, rows, consensus, onnx,
                            "vnnlib/%s_ball%d_eps%d_255.vnnlib" % (name, k, r),
                            "%s: L-inf ball of radius %d/255 in [0, 1]" % (name, r),
                            [repr(max(0.0, v - eps)) for v in x],
                            [repr(min(1.0, v + eps)) for v in x], y)
    rb.write_lists(out, rows, consensus)


if __name__ == "__main__":
    main(sys.argv)
