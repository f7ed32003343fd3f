#!/usr/bin/python3
"""Generate the project's small ONNX models and VNNLIB specs with KNOWN verdicts.

usage: make_models.py [--root DIR]      (normally via scripts/make_models.sh)

Writes DIR/models/*.onnx, DIR/specs/*.vnnlib and DIR/models/EXPECTED.csv (onnx,vnnlib,expected, paths
relative to DIR). Stdlib only: each model is written as protobuf text format and encoded with
`protoc --encode=onnx.ModelProto -I/usr/include/onnx onnx.proto`. Deterministic: fixed seeds, and
every weight is rounded to float32 first so that the float64 reasoning below is about exactly the
weights stored in the file. Re-running reproduces identical files.

How each verdict is known (never by running verify):

* tiny_relu: y = relu(x) + relu(-x) = |x| >= 0 exactly.  Y_0 <= -0.001 is unsat (|x| >= 0);
  Y_0 <= 0.25 on x in [-1,1] is sat (x = 0 gives y = 0).
* abs_split: y = |x0+x1| + |x0-x1| - |x0| - |x1|.  Since |a+b| + |a-b| = 2 max(|a|,|b|),
  y = 2 max(|x0|,|x1|) - |x0| - |x1| = ||x0| - |x1|| >= 0.  On [-1,1]^2 every hidden neuron is
  unstable, so a relaxation of the whole box bounds y from below by about -2 and a verifier must
  split; Y_0 <= -0.05 is unsat (margin 0.05).  Y_0 >= 0.9 is sat (x = (1, 0) gives y = 1).
* rand2_*: random 2-input nets.  The output is evaluated in float64 on a uniform grid of the input
  box with spacing h; every point of the box is within h/2 (per coordinate) of a grid point, and
  ||f(x) - f(g)||_inf <= L ||x - g||_inf with L = product of the layers' inf-norms (max absolute
  row sum; ReLU is 1-Lipschitz).  A constraint c.y <= d has Lipschitz constant ||c||_1 L, and a
  conjunction's violation max_i (c_i.y - d_i) has the largest of those.  Unsat: for every disjunct
  the grid minimum of the violation exceeds L_D h/2 plus a margin.  Sat: some grid point satisfies
  every constraint of a disjunct with a margin (that grid point is a witness).
* rand2_a_tight_unsat and acas_like: interval arithmetic (IBP, float64) on a partition of the
  input box(es) into equal cells gives a sound lower/upper bound of the output on each cell; the
  threshold lies beyond every cell's bound by a margin.  acas_like is a 5-input ACAS-Xu-shaped net
  (input [1,1,1,5], Sub/Div normalisation, Flatten, MatMul+Add, 5 outputs) whose spec's input
  region is the disjunction of two boxes (4^5 cells per box); its sat spec has box 1 proven safe
  that way and a sampled witness in box 2.
* lnsp2: the grid argument of rand2_*, with the LayerNorm's Lipschitz constant bounded on the box
  from the least variance of its input there (computed exactly: a convex quadratic on a 2-D box),
  since its Jacobian scales with 1 / sqrt(variance + eps).
The margins (>= 1e-3 absolute, far above float32 rounding of these tiny nets) make the verdicts
hold for the real-valued network and for its float32 evaluation alike.  The script re-checks
every verdict it claims and fails loudly if an argument does not go through.
"""

import argparse
import itertools
import math
import os
import random
import re
import struct
import subprocess
import sys
import textwrap

ONNX_PROTO = "/usr/include/onnx/onnx.proto"


def f32(v):
    """Round a Python float to the nearest float32 value."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


# ----------------------------------------------------------------------------------------------
# Networks: a list of layers; each ("dense", W, b) with W as out x in (float32 values), or "relu".

class Net:
    def __init__(self, n_in, layers, pre=None, softmax=False):
        self.n_in = n_in
        self.layers = layers
        self.pre = pre  # optional (mean, std) input normalisation x' = (x - mean) / std
        # a Softmax after the last layer (model_text); eval and the analyses stay on its input, the
        # logits: comparisons of two outputs hold of the Softmax's outputs exactly when they hold
        # of the logits (exp is increasing, the denominator shared)
        self.softmax = softmax

    def eval(self, x):
        if self.pre is not None:
            mean, std = self.pre
            x = [(xi - m) / s for xi, m, s in zip(x, mean, std)]
        return eval_layers(self.layers, x)

    def lipschitz(self, box=None):
        """Upper bound on the inf->inf Lipschitz constant (product of the inf-norms); over the box
        (lo, hi) when the net has "mul" layers, whose constant depends on their factors' range."""
        L = 1.0
        if self.pre is not None:
            L *= max(1.0 / s for s in self.pre[1])
        has_mul = any(lay != "relu" and lay[0] in ("mul", "layernorm") for lay in self.layers)
        lo, hi = box if box is not None and has_mul else (None, None)
        assert self.pre is None or lo is None
        return L * lipschitz_layers(self.layers, lo, hi) * (1 + 1e-9)   # cover float64 rounding

    @property
    def n_out(self):
        return len([lay for lay in self.layers if lay != "relu" and lay[0] == "dense"][-1][1])


def eval_layers(layers, x):
    for layer in layers:
        if layer == "relu":
            x = [v if v > 0.0 else 0.0 for v in x]
        elif layer[0] == "maxpool":
            x = [max(x[i] for i in win) for win in pool_windows(*layer[1:])]
        elif layer[0] == "res":   # a residual block: x + block(x)
            x = [a + b for a, b in zip(x, eval_layers(layer[1], x))]
        elif layer[0] == "maxmin":   # max(A x + a, B x + b), then min(A x + a, B x + b)
            u = eval_layers([("dense", layer[1], layer[2])], x)
            v = eval_layers([("dense", layer[3], layer[4])], x)
            x = [max(p, q) for p, q in zip(u, v)] + [min(p, q) for p, q in zip(u, v)]
        elif layer[0] == "redmax":   # groups of k: [max of each, min of each]
            k = layer[1]
            g = [x[i:i + k] for i in range(0, len(x), k)]
            x = [max(v) for v in g] + [min(v) for v in g]
        elif layer[0] == "silu":   # x sigmoid(x), elementwise
            x = [v / (1.0 + math.exp(-v)) for v in x]
        elif layer[0] == "where":   # v where position i < t or i == e, else -v
            x = [v if where_mask(layer, i) else -v for i, v in enumerate(x)]
        elif layer[0] == "sign":   # -1, 0, 1 (a binarized network's step)
            x = [(v > 0) - (v < 0) for v in x]
        elif layer[0] == "softplus":   # log(1 + e^v) = max(v, 0) + log1p(e^-|v|)
            x = [max(v, 0.0) + math.log1p(math.exp(-abs(v))) for v in x]
        elif layer[0] == "layernorm":   # (x - mean) / sqrt(var + eps) gamma + beta, all of x
            gam, bet, eps = layer[1:]
            m = sum(x) / len(x)
            sd = math.sqrt(sum((v - m) ** 2 for v in x) / len(x) + eps)
            x = [(v - m) / sd * g + b for v, g, b in zip(x, gam, bet)]
        elif layer[0] in ("sin", "cos"):
            x = [(math.sin if layer[0] == "sin" else math.cos)(v) for v in x]
        elif layer[0] in ACTS:
            x = [ACTS[layer[0]][0](v) for v in x]
        elif layer[0] == "softmax":   # a Softmax over each group of m consecutive values
            m = layer[1]
            out = []
            for g in range(0, len(x), m):
                top = max(x[g:g + m])
                e = [math.exp(v - top) for v in x[g:g + m]]
                out += [v / sum(e) for v in e]
            x = out
        elif layer[0] == "mul":   # u = A x + a, v = B x + b: [u * v, u * u]
            u = eval_layers([("dense", layer[1], layer[2])], x)
            v = eval_layers([("dense", layer[3], layer[4])], x)
            x = [p * q for p, q in zip(u, v)] + [p * p for p in u]
        else:   # dense, or tconv through its matrix
            W, b = layer[1], layer[2]
            x = [sum(w * v for w, v in zip(row, x)) + bi for row, bi in zip(W, b)]
    return x


def variance_min(W, b, lo, hi):
    """The least of var(W x + b) (the population variance of the vector's entries) over the 2-D
    box [lo, hi]: var = |A x + c|^2 / n with A, c the centred W, b is a convex quadratic, least
    at its stationary point when that lies in the box, else on an edge (a 1-D quadratic, least at
    its clamped vertex)."""
    n = len(W)
    assert len(lo) == 2, "variance_min: 2 inputs"
    A = [[W[i][j] - sum(W[k][j] for k in range(n)) / n for j in range(2)] for i in range(n)]
    c = [b[i] - sum(b) / n for i in range(n)]

    def var(x):
        return sum((A[i][0] * x[0] + A[i][1] * x[1] + c[i]) ** 2 for i in range(n)) / n
    cands = []
    g00 = sum(a[0] * a[0] for a in A)
    g01 = sum(a[0] * a[1] for a in A)
    g11 = sum(a[1] * a[1] for a in A)
    r0 = -sum(a[0] * ci for a, ci in zip(A, c))
    r1 = -sum(a[1] * ci for a, ci in zip(A, c))
    det = g00 * g11 - g01 * g01
    if det > 0:
        x = [(r0 * g11 - r1 * g01) / det, (g00 * r1 - g01 * r0) / det]
        if all(lo[j] <= x[j] <= hi[j] for j in range(2)):
            cands.append(x)
    for i in range(2):   # the edges x_i = lo_i or hi_i
        j = 1 - i
        gjj = sum(a[j] * a[j] for a in A)
        for xi in (lo[i], hi[i]):
            t = -sum(a[j] * (a[i] * xi + ci) for a, ci in zip(A, c)) / gjj
            t = min(max(t, lo[j]), hi[j])
            x = [0.0, 0.0]
            x[i], x[j] = xi, t
            cands.append(x)
    return min(var(x) for x in cands)
# Activations ONNX defines as functions of others, by their ONNX names (default attributes):
# (f, a Lipschitz constant, the point of f's interior minimum or None when f is increasing).
ACTS = {
    "Elu": (lambda v: v if v > 0 else math.expm1(v), 1.0, None),
    # x min(1, max(0, x/6 + 1/2)) (ONNX's 1/6 as float32): slope (2x + 3)/6 in [-1/2, 3/2] on
    # [-3, 3], 0 or 1 outside; its minimum at x = -3/2
    "HardSwish": (lambda v: v * min(1.0, max(0.0, f32(1.0 / 6.0) * v + 0.5)), 1.5, -1.5),
    "Softsign": (lambda v: v / (1.0 + abs(v)), 1.0, None),   # slope 1/(1 + |x|)^2
}


def where_mask(layer, i):
    """A ("where", t, e, n) layer's condition at position i of n: i < t or i == e."""
    return i < layer[1] or i == layer[2]


def _gelu(v, approx):
    """ONNX Gelu as verify's loader reads it: the exact x Phi(x), or the tanh form with its
    constants as float32 holds them."""
    if approx:
        return 0.5 * (v * (1.0 + math.tanh((v + v * v * v * f32(0.044715)) *
                                           f32(math.sqrt(2.0 / math.pi)))))
    return 0.5 * v * math.erfc(-v / math.sqrt(2.0))


def _argmin_unimodal(f, a, b):
    """The minimiser of f on [a, b] where f decreases then increases (golden-section search, to
    1e-12: f there exceeds the true minimum by about f'' 1e-24)."""
    g = (math.sqrt(5.0) - 1.0) / 2.0
    while b - a > 1e-12:
        c, d = b - g * (b - a), a + g * (b - a)
        if f(c) < f(d):
            b = d
        else:
            a = c
    return 0.5 * (a + b)


def _max_slope(f, lo, hi, n):
    """The largest |difference quotient| of f on an n-step grid of [lo, hi] (a check of a claimed
    Lipschitz constant, with the claim well above it)."""
    h = (hi - lo) / n
    return max(abs(f(lo + (i + 1) * h) - f(lo + i * h)) / h for i in range(n))


# erf' = (2/sqrt(pi)) e^(-x^2) <= 1.12838; Gelu' = Phi(x) + x phi(x) has its extremes where
# phi(x) (2 - x^2) = 0, at +-sqrt(2): 1.1290 and -0.1290 (the tanh form within 1e-2 of it, checked
# on a grid below); each Gelu's minimum lies in [-1, -0.5]
ACTS["Erf"] = (math.erf, 1.1284, None)
ACTS["Gelu"] = (lambda v: _gelu(v, False), 1.13,
                _argmin_unimodal(lambda v: _gelu(v, False), -1.0, -0.5))
ACTS["GeluTanh"] = (lambda v: _gelu(v, True), 1.15,
                    _argmin_unimodal(lambda v: _gelu(v, True), -1.0, -0.5))
# Swish(x) = x sigmoid(a x): its slope s (1 + a x (1 - s)), s = sigmoid(a x), is SiLU's slope at
# a x, which lies in [-0.0999, 1.0999] (extremes at a x = -+2.3994; checked on a grid below); each
# minimum lies in [-1.5, -0.5]
def _swish(v, a):
    return v / (1.0 + math.exp(-a * v)) if a * v > -700 else 0.0


ACTS["Swish"] = (lambda v: _swish(v, 1.0), 1.1,
                 _argmin_unimodal(lambda v: _swish(v, 1.0), -1.5, -1.0))
ACTS["Swish15"] = (lambda v: _swish(v, f32(1.5)), 1.1,
                   _argmin_unimodal(lambda v: _swish(v, f32(1.5)), -1.5, -0.5))
assert _max_slope(ACTS["Swish"][0], -30.0, 30.0, 300000) < 1.0999
assert _max_slope(ACTS["Swish15"][0], -30.0, 30.0, 300000) < 1.0999
assert _max_slope(ACTS["Gelu"][0], -8.0, 8.0, 160000) < 1.1291
assert _max_slope(ACTS["GeluTanh"][0], -8.0, 8.0, 160000) < 1.14
# Sigmoid, Tanh, Abs, LeakyRelu (slope 1/8 below 0, exact in float32), HardSigmoid (ONNX's
# defaults, 0.2 x + 0.5 clipped to [0, 1], 0.2 as float32 holds it) and Mish (x tanh(softplus x):
# its slope lies in [-0.1126, 1.0885], its minimum -0.30884 at -1.19243)
def _sigmoid(v):
    return 1.0 / (1.0 + math.exp(-v)) if v > -700 else 0.0


def _mish(v):
    return v * math.tanh(max(v, 0.0) + math.log1p(math.exp(-abs(v))))


ACTS["Sigmoid"] = (_sigmoid, 0.25, None)
ACTS["Tanh"] = (math.tanh, 1.0, None)
ACTS["Abs"] = (abs, 1.0, 0.0)
ACTS["LeakyRelu8"] = (lambda v: v if v > 0 else 0.125 * v, 1.0, None)
ACTS["HardSigmoid"] = (lambda v: min(1.0, max(0.0, f32(0.2) * v + 0.5)), 0.2, None)
ACTS["Mish"] = (_mish, 1.09, _argmin_unimodal(_mish, -1.5, -1.0))
assert _max_slope(ACTS["Mish"][0], -30.0, 30.0, 300000) < 1.0886
# the op and attributes each ACTS entry is written as (its own name, none, when not listed)
ACT_NODES = {"GeluTanh": ("Gelu", [("approximate", "STRING", "tanh")]),
             "Swish15": ("Swish", [("alpha", "FLOAT", f32(1.5))]),
             "LeakyRelu8": ("LeakyRelu", [("alpha", "FLOAT", 0.125)])}


def lipschitz_layers(layers, lo=None, hi=None):
    """lo, hi: the box the constant holds on (needed by "mul" and "layernorm" layers), else
    None."""
    L = 1.0
    prev = None   # the previous layer and the box at its input
    for layer in layers:
        if lo is not None:
            nlo, nhi = ibp_layers([layer], lo, hi)
        if layer[0] == "layernorm":
            # y = C h / s gamma + beta, C = I - 11^T/n, s = sqrt(var(h) + eps), on h = W x + b (the
            # dense layer before it, on the box): dy/dh = (1/s)(C - z z^T / n) diag(gamma) with
            # z = C h / s, |z|_2^2 = n var / (var + eps) < n, |z_i| <= sqrt(n - 1) (the largest
            # centred entry squared is at most (n - 1) var); so its inf-norm is at most
            # (2 (n - 1) / n + sqrt(n - 1)) max|gamma| / s_min, s_min from the least variance of
            # h on the box (variance_min), lowered for its float64 rounding
            assert lo is not None and prev is not None and prev[0][0] == "dense", \
                "a layernorm layer needs the dense layer before it and the box"
            gam, _, eps = layer[1:]
            n = len(gam)
            vmin = variance_min(prev[0][1], prev[0][2], prev[1], prev[2]) * (1 - 1e-9) - 1e-15
            s_min = math.sqrt(max(vmin, 0.0) + eps)
            assert s_min > 0.05, s_min
            L *= (2 * (n - 1) / n + math.sqrt(n - 1)) * max(abs(g) for g in gam) / s_min
        elif layer[0] == "softplus":   # softplus' = sigmoid, in (0, 1)
            pass
        elif layer[0] == "mul":
            # d(u v) = v du + u dv and d(u u) = 2 u du along any segment of the box (convex: u, v
            # stay within their interval bounds there)
            assert lo is not None, "a mul layer's Lipschitz constant needs the box"
            A, a, B, b = layer[1:]
            ulo, uhi = ibp_layers([("dense", A, a)], lo, hi)
            vlo, vhi = ibp_layers([("dense", B, b)], lo, hi)
            L *= max(max(max(abs(vl), abs(vh)) * sum(abs(w) for w in ra) +
                         max(abs(ul), abs(uh)) * sum(abs(w) for w in rb),
                         2 * max(abs(ul), abs(uh)) * sum(abs(w) for w in ra))
                     for ra, rb, ul, uh, vl, vh in zip(A, B, ulo, uhi, vlo, vhi))
        elif layer[0] in ACTS:
            L *= ACTS[layer[0]][1]
        elif layer == "relu" or layer[0] in ("maxpool", "redmax", "sin", "cos", "where"):
            # 1-Lipschitz
            pass
        elif layer[0] == "silu":   # (x s(x))' = s(x) (1 + x (1 - s(x))) lies in [-0.1, 1.1]
            L *= 1.1
        elif layer[0] == "softmax":   # its Jacobian diag(s) - s s^T has row sums 2 s_i (1 - s_i)
            L *= 0.5
        elif layer[0] == "res":
            L *= 1.0 + lipschitz_layers(layer[1], lo, hi)
        elif layer[0] == "maxmin":   # max and min are 1-Lipschitz in inf of their two operands
            L *= max(max(sum(abs(w) for w in row) for row in W) for W in (layer[1], layer[3]))
        else:
            L *= max(sum(abs(w) for w in row) for row in layer[1])
        prev = (layer, lo, hi)
        if lo is not None:
            lo, hi = nlo, nhi
    return L


def pool_windows(c, h, w, k):
    """Windows (flat NCHW indices) of a k x k max pool with stride 1 and no padding on a
    (1, c, h, w) tensor, in the row-major order of its (1, c, h-k+1, w-k+1) output."""
    return [[(ch * h + oy + ky) * w + ox + kx for ky in range(k) for kx in range(k)]
            for ch in range(c) for oy in range(h - k + 1) for ox in range(w - k + 1)]


def tconv_layer(seed, c, h, w, m, k, s):
    """A ConvTranspose (no pads) on a (1, c, h, w) tensor: m output channels, a k x k kernel of
    shape (c, m, k, k), stride s; output (1, m, s (h-1) + k, s (w-1) + k). As a layer
    ("tconv", W, b, geometry) whose W is the same linear map as a matrix (flat NCHW in and out):
    y[oc, iy s + ky, ix s + kx] += x[ic, iy, ix] K[ic, oc, ky, kx], the ONNX definition."""
    rng = random.Random(seed)
    K = [[[[f32(rng.gauss(0.0, 0.5)) for _ in range(k)] for _ in range(k)] for _ in range(m)]
         for _ in range(c)]
    b = [f32(rng.gauss(0.0, 0.1)) for _ in range(m)]
    oh, ow = s * (h - 1) + k, s * (w - 1) + k
    W = [[0.0] * (c * h * w) for _ in range(m * oh * ow)]
    for ic, iy, ix, oc, ky, kx in itertools.product(range(c), range(h), range(w), range(m),
                                                    range(k), range(k)):
        o = (oc * oh + iy * s + ky) * ow + ix * s + kx
        W[o][(ic * h + iy) * w + ix] += K[ic][oc][ky][kx]   # one term per entry (s >= 1)
    return ("tconv", W, [b[o // (oh * ow)] for o in range(m * oh * ow)], (c, h, w, m, k, s, K, b))


def conv_layer(seed, c, h, w, m, k, s, p):
    """A Conv on a (1, c, h, w) tensor: m output channels, a k x k kernel of shape (m, c, k, k),
    stride s, p zeros padded on every side; output (1, m, (h + 2p - k) // s + 1, likewise w). As a
    layer ("conv", W, b, geometry) whose W is the same linear map as a matrix (flat NCHW):
    y[oc, oy, ox] = b[oc] + sum K[oc, ic, ky, kx] x[ic, oy s + ky - p, ox s + kx - p] over the
    positions inside the input, the ONNX definition."""
    rng = random.Random(seed)
    sd = (2.0 / (c * k * k)) ** 0.5
    K = [[[[f32(rng.gauss(0.0, sd)) for _ in range(k)] for _ in range(k)] for _ in range(c)]
         for _ in range(m)]
    b = [f32(rng.gauss(0.0, 0.1)) for _ in range(m)]
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    W = [[0.0] * (c * h * w) for _ in range(m * oh * ow)]
    for oc, oy, ox, ic, ky, kx in itertools.product(range(m), range(oh), range(ow), range(c),
                                                    range(k), range(k)):
        iy, ix = oy * s + ky - p, ox * s + kx - p
        if 0 <= iy < h and 0 <= ix < w:   # one term per entry: (ky, kx) fixes (iy, ix)
            W[(oc * oh + oy) * ow + ox][(ic * h + iy) * w + ix] = K[oc][ic][ky][kx]
    return ("conv", W, [b[o // (oh * ow)] for o in range(m * oh * ow)], (c, h, w, m, k, s, p, K, b))


def resize_layer(c, h, w, f):
    """Resize (mode nearest, the default half_pixel / round_prefer_floor) by an integer factor f
    on a (1, c, h, w) tensor: output (oy, ox) reads input (oy // f, ox // f) (x = (o + 1/2)/f - 1/2
    rounds to floor(o / f), never a tie for f > 1). As a layer ("resize", W, b, geometry), W the
    0/1 selection matrix."""
    oh, ow = h * f, w * f
    W = [[0.0] * (c * h * w) for _ in range(c * oh * ow)]
    for ch, oy, ox in itertools.product(range(c), range(oh), range(ow)):
        W[(ch * oh + oy) * ow + ox][(ch * h + oy // f) * w + ox // f] = 1.0
    return ("resize", W, [0.0] * (c * oh * ow), (c, h, w, f))


def split_layer(sizes, order):
    """Split of a (1, n) tensor along axis 1 into parts of the given sizes (opset 13's input
    split), then Concat of the parts in the given order: a permutation. As a layer ("split", W, b,
    (sizes, order)), W the 0/1 permutation matrix."""
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    src = [starts[p] + q for p in order for q in range(sizes[p])]
    n = sum(sizes)
    W = [[1.0 if c == r else 0.0 for c in range(n)] for r in src]
    return ("split", W, [0.0] * n, (sizes, order))


def random_net(seed, sizes):
    rng = random.Random(seed)
    layers = []
    for i in range(len(sizes) - 1):
        fan_in, fan_out = sizes[i], sizes[i + 1]
        sd = (2.0 / fan_in) ** 0.5
        W = [[f32(rng.gauss(0.0, sd)) for _ in range(fan_in)] for _ in range(fan_out)]
        b = [f32(rng.gauss(0.0, 0.1)) for _ in range(fan_out)]
        layers.append(("dense", W, b))
        if i < len(sizes) - 2:
            layers.append("relu")
    return Net(sizes[0], layers)


# ----------------------------------------------------------------------------------------------
# ONNX writing via protobuf text format

def tf_bytes(data):
    """Escape bytes for a protobuf text-format string literal."""
    out = []
    for c in data:
        if 32 <= c < 127 and c not in (34, 39, 92):
            out.append(chr(c))
        else:
            out.append("\\%03o" % c)
    return '"' + "".join(out) + '"'


def tf_float(v):
    return repr(float(v))


def shape_text(name, dims):
    """An int64 initializer holding a shape (Reshape's second input), in protobuf text format."""
    head = "  initializer {\n    dims: %d\n    data_type: 7\n    name: \"%s\"\n" % (len(dims), name)
    return head + "".join("    int64_data: %d\n" % d for d in dims) + "  }\n"


def tensor_text(name, dims, values, raw):
    s = "  initializer {\n"
    for d in dims:
        s += "    dims: %d\n" % d
    s += "    data_type: 1\n"
    s += '    name: "%s"\n' % name
    if raw:
        s += "    raw_data: %s\n" % tf_bytes(struct.pack("<%df" % len(values), *values))
    else:
        for v in values:
            s += "    float_data: %s\n" % tf_float(v)
    s += "  }\n"
    return s


def node_text(op, inputs, outputs, name, attrs=()):
    s = "  node {\n"
    for i in inputs:
        s += '    input: "%s"\n' % i
    for o in outputs:
        s += '    output: "%s"\n' % o
    s += '    name: "%s"\n    op_type: "%s"\n' % (name, op)
    for aname, kind, val in attrs:
        if kind == "INT":
            s += '    attribute { name: "%s" i: %d type: INT }\n' % (aname, val)
        elif kind == "FLOAT":
            s += '    attribute { name: "%s" f: %s type: FLOAT }\n' % (aname, tf_float(val))
        elif kind == "INTS":
            s += ('    attribute { name: "%s"%s type: INTS }\n'
                  % (aname, "".join(" ints: %d" % v for v in val)))
        elif kind == "STRING":
            s += '    attribute { name: "%s" s: "%s" type: STRING }\n' % (aname, val)
    s += "  }\n"
    return s


def value_info_text(kind, name, dims):
    s = "  %s {\n    name: \"%s\"\n    type { tensor_type { elem_type: 1 shape {" % (kind, name)
    s += "".join(" dim { dim_value: %d }" % d for d in dims)
    s += " } } }\n  }\n"
    return s


def model_text(net, name, style, raw, in_dims=None):
    """style: 'gemm' (Gemm with transB=1, W stored out x in) or 'matmul' (MatMul with W^T + Add)."""
    nodes, inits = [], []
    cur = "X"
    in_dims = in_dims or [1, net.n_in]
    if net.pre is not None:
        mean, std = net.pre
        shp = list(in_dims)
        inits.append(tensor_text("in_mean", shp, [f32(m) for m in mean], raw))
        inits.append(tensor_text("in_std", shp, [f32(s) for s in std], raw))
        nodes.append(node_text("Sub", [cur, "in_mean"], ["x_centered"], "normalise_sub"))
        nodes.append(node_text("Div", ["x_centered", "in_std"], ["x_normalised"], "normalise_div"))
        cur = "x_normalised"
    if len(in_dims) != 2:
        nodes.append(node_text("Flatten", [cur], ["x_flat"], "flatten", [("axis", "INT", 1)]))
        cur = "x_flat"
    k = [0]
    dense_count = len([lay for lay in net.layers if lay != "relu" and lay[0] == "dense"])

    def emit(layers, cur, top):
        for layer in layers:
            if layer == "relu":
                nodes.append(node_text("Relu", [cur], ["relu%d" % k[0]], "relu%d" % k[0]))
                cur = "relu%d" % k[0]
                continue
            if layer[0] == "res":
                # the block on cur, then Add(cur, block(cur)): cur is read on both sides of the block
                emit.res += 1
                j = emit.res
                out = emit(layer[1], cur, False)
                nodes.append(node_text("Add", [cur, out], ["res%d" % j], "residual%d" % j))
                cur = "res%d" % j
                continue
            if layer[0] == "tconv":
                # Reshape the vector to (1, c, h, w), ConvTranspose, flatten back
                j = k[0] = k[0] + 1
                c, h, w, m, kk, s, K, bb = layer[3]
                inits.append("  initializer {\n    dims: 4\n    data_type: 7\n"
                             "    name: \"tshape%d\"\n" % j
                             + "".join("    int64_data: %d\n" % d for d in (1, c, h, w))
                             + "  }\n")
                inits.append(tensor_text("TK%d" % j, [c, m, kk, kk],
                                         [v for a in K for b2 in a for r in b2 for v in r], raw))
                inits.append(tensor_text("TB%d" % j, [m], bb, raw))
                nodes.append(node_text("Reshape", [cur, "tshape%d" % j], ["timg%d" % j],
                                       "treshape%d" % j))
                nodes.append(node_text("ConvTranspose", ["timg%d" % j, "TK%d" % j, "TB%d" % j],
                                       ["tconv%d" % j], "convtranspose%d" % j,
                                       [("strides", "INTS", [s, s])]))
                nodes.append(node_text("Flatten", ["tconv%d" % j], ["tflat%d" % j],
                                       "flatten_t%d" % j, [("axis", "INT", 1)]))
                cur = "tflat%d" % j
                continue
            if layer[0] == "conv":
                # Reshape the vector to (1, c, h, w), Conv, flatten back
                j = k[0] = k[0] + 1
                c, h, w, m, kk, st, pd, K, bb = layer[3]
                inits.append(shape_text("cshape%d" % j, (1, c, h, w)))
                inits.append(tensor_text("CK%d" % j, [m, c, kk, kk],
                                         [v for a in K for b2 in a for r in b2 for v in r], raw))
                inits.append(tensor_text("CB%d" % j, [m], bb, raw))
                nodes.append(node_text("Reshape", [cur, "cshape%d" % j], ["cimg%d" % j],
                                       "creshape%d" % j))
                nodes.append(node_text("Conv", ["cimg%d" % j, "CK%d" % j, "CB%d" % j],
                                       ["conv%d" % j], "conv%d" % j,
                                       [("strides", "INTS", [st, st]),
                                        ("pads", "INTS", [pd, pd, pd, pd])]))
                nodes.append(node_text("Flatten", ["conv%d" % j], ["cflat%d" % j],
                                       "flatten_c%d" % j, [("axis", "INT", 1)]))
                cur = "cflat%d" % j
                continue
            if layer[0] == "resize":
                # Reshape the vector to (1, c, h, w), Resize by f (scales input), flatten back
                j = k[0] = k[0] + 1
                c, h, w, f = layer[3]
                inits.append("  initializer {\n    dims: 4\n    data_type: 7\n"
                             "    name: \"rshape%d\"\n" % j
                             + "".join("    int64_data: %d\n" % d for d in (1, c, h, w))
                             + "  }\n")
                inits.append(tensor_text("RS%d" % j, [4], [1.0, 1.0, float(f), float(f)], raw))
                inits.append(tensor_text("RR%d" % j, [0], [], raw))
                nodes.append(node_text("Reshape", [cur, "rshape%d" % j], ["rimg%d" % j],
                                       "rreshape%d" % j))
                nodes.append(node_text("Resize", ["rimg%d" % j, "RR%d" % j, "RS%d" % j],
                                       ["rsz%d" % j], "resize%d" % j,
                                       [("mode", "STRING", "nearest")]))
                nodes.append(node_text("Flatten", ["rsz%d" % j], ["rflat%d" % j],
                                       "flatten_r%d" % j, [("axis", "INT", 1)]))
                cur = "rflat%d" % j
                continue
            if layer[0] == "maxmin":
                # two Gemms of cur, then Max and Min of the two computed tensors, concatenated
                j = k[0] = k[0] + 1
                for t, (W, b) in enumerate(((layer[1], layer[2]), (layer[3], layer[4]))):
                    inits.append(tensor_text("MW%d_%d" % (j, t), [len(W), len(W[0])],
                                             [w for row in W for w in row], raw))
                    inits.append(tensor_text("MB%d_%d" % (j, t), [len(W)], b, raw))
                    nodes.append(node_text("Gemm", [cur, "MW%d_%d" % (j, t), "MB%d_%d" % (j, t)],
                                           ["mgemm%d_%d" % (j, t)], "mgemm%d_%d" % (j, t),
                                           [("transB", "INT", 1)]))
                nodes.append(node_text("Max", ["mgemm%d_0" % j, "mgemm%d_1" % j], ["mmax%d" % j],
                                       "max%d" % j))
                nodes.append(node_text("Min", ["mgemm%d_0" % j, "mgemm%d_1" % j], ["mmin%d" % j],
                                       "min%d" % j))
                nodes.append(node_text("Concat", ["mmax%d" % j, "mmin%d" % j], ["mcat%d" % j],
                                       "concat_m%d" % j, [("axis", "INT", 1)]))
                cur = "mcat%d" % j
                continue
            if layer[0] == "redmax":
                # Reshape (1, n) to (1, n / k, k), ReduceMax and ReduceMin over axis 2, Concat
                j = k[0] = k[0] + 1
                kk = layer[1]
                n_prev = layer[2]
                inits.append(shape_text("gshape%d" % j, (1, n_prev // kk, kk)))
                nodes.append(node_text("Reshape", [cur, "gshape%d" % j], ["groups%d" % j],
                                       "greshape%d" % j))
                nodes.append(node_text("ReduceMax", ["groups%d" % j], ["gmax%d" % j], "rmax%d" % j,
                                       [("axes", "INTS", [2]), ("keepdims", "INT", 0)]))
                nodes.append(node_text("ReduceMin", ["groups%d" % j], ["gmin%d" % j], "rmin%d" % j,
                                       [("axes", "INTS", [2]), ("keepdims", "INT", 0)]))
                nodes.append(node_text("Concat", ["gmax%d" % j, "gmin%d" % j], ["gcat%d" % j],
                                       "concat_g%d" % j, [("axis", "INT", 1)]))
                cur = "gcat%d" % j
                continue
            if layer[0] == "softmax":
                # Reshape to (1, groups, m), Softmax along the last axis, Reshape back
                j = k[0] = k[0] + 1
                m = layer[1]
                n_prev = layer[2]
                inits.append(shape_text("smshape%d" % j, (1, n_prev // m, m)))
                inits.append(shape_text("smback%d" % j, (1, n_prev)))
                nodes.append(node_text("Reshape", [cur, "smshape%d" % j], ["smin%d" % j],
                                       "smreshape%d" % j))
                nodes.append(node_text("Softmax", ["smin%d" % j], ["smout%d" % j], "softmax%d" % j,
                                       [("axis", "INT", -1)]))
                nodes.append(node_text("Reshape", ["smout%d" % j, "smback%d" % j], ["sm%d" % j],
                                       "smflat%d" % j))
                cur = "sm%d" % j
                continue
            if layer[0] == "where":
                # the mask from constants as a transformer graph makes one: Range, Cast, Less,
                # Equal, Or (folded by the loader), then Where(mask, cur, -cur)
                j = k[0] = k[0] + 1
                width = layer[3]
                for nm, v in (("wstart", 0), ("wlimit", width), ("wdelta", 1), ("weq", layer[2])):
                    inits.append("  initializer {\n    data_type: 7\n    name: \"%s%d\"\n"
                                 "    int64_data: %d\n  }\n" % (nm, j, v))
                inits.append(tensor_text("wthr%d" % j, [], [f32(layer[1])], raw))
                steps = [("Range", ["wstart%d" % j, "wlimit%d" % j, "wdelta%d" % j], "wpos", []),
                         ("Cast", ["wpos%d" % j], "wposf", [("to", "INT", 1)]),
                         ("Less", ["wposf%d" % j, "wthr%d" % j], "wlt", []),
                         ("Equal", ["wpos%d" % j, "weq%d" % j], "weqm", []),
                         ("Or", ["wlt%d" % j, "weqm%d" % j], "wmask", []),
                         ("Neg", [cur], "wneg", []),
                         ("Where", ["wmask%d" % j, cur, "wneg%d" % j], "where", [])]
                for op, ins, out, attrs in steps:
                    nodes.append(node_text(op, ins, ["%s%d" % (out, j)], "%s%d" % (out, j), attrs))
                cur = "where%d" % j
                continue
            if layer[0] == "sign":
                j = k[0] = k[0] + 1
                nodes.append(node_text("Sign", [cur], ["sign%d" % j], "sign%d" % j))
                cur = "sign%d" % j
                continue
            if layer[0] == "softplus":
                j = k[0] = k[0] + 1
                nodes.append(node_text("Softplus", [cur], ["softplus%d" % j], "softplus%d" % j))
                cur = "softplus%d" % j
                continue
            if layer[0] == "layernorm":
                # as PyTorch exports a LayerNorm before opset 17: ReduceMean, Sub, Pow 2,
                # ReduceMean, Add epsilon, Sqrt, Div, Mul gamma, Add beta (the last axis)
                j = k[0] = k[0] + 1
                gam, bet, eps = layer[1:]
                inits.append(tensor_text("LG%d" % j, [len(gam)], gam, raw))
                inits.append(tensor_text("LB%d" % j, [len(bet)], bet, raw))
                inits.append(tensor_text("LE%d" % j, [1], [eps], raw))
                inits.append(tensor_text("LTWO%d" % j, [1], [2.0], raw))
                steps = [("ReduceMean", [cur], "lnmean", [("axes", "INTS", [-1])]),
                         ("Sub", [cur, "lnmean%d" % j], "lncentred", []),
                         ("Pow", ["lncentred%d" % j, "LTWO%d" % j], "lnsquare", []),
                         ("ReduceMean", ["lnsquare%d" % j], "lnvar", [("axes", "INTS", [-1])]),
                         ("Add", ["lnvar%d" % j, "LE%d" % j], "lnvareps", []),
                         ("Sqrt", ["lnvareps%d" % j], "lnstd", []),
                         ("Div", ["lncentred%d" % j, "lnstd%d" % j], "lnnorm", []),
                         ("Mul", ["lnnorm%d" % j, "LG%d" % j], "lnscaled", []),
                         ("Add", ["lnscaled%d" % j, "LB%d" % j], "lnout", [])]
                for op, ins, out, attrs in steps:
                    nodes.append(node_text(op, ins, ["%s%d" % (out, j)], "%s%d" % (out, j), attrs))
                cur = "lnout%d" % j
                continue
            if layer[0] in ("sin", "cos"):
                j = k[0] = k[0] + 1
                op = layer[0].capitalize()
                nodes.append(node_text(op, [cur], ["%s%d" % (layer[0], j)], "%s%d" % (layer[0], j)))
                cur = "%s%d" % (layer[0], j)
                continue
            if layer[0] in ACTS:
                j = k[0] = k[0] + 1
                name = "%s%d" % (layer[0].lower(), j)
                op, attrs = ACT_NODES.get(layer[0], (layer[0], ()))
                nodes.append(node_text(op, [cur], [name], name, attrs))
                cur = name
                continue
            if layer[0] == "silu":
                # Sigmoid of cur, then Mul(cur, sigmoid): cur is read on both sides of the Sigmoid
                j = k[0] = k[0] + 1
                nodes.append(node_text("Sigmoid", [cur], ["ssig%d" % j], "sigmoid%d" % j))
                nodes.append(node_text("Mul", [cur, "ssig%d" % j], ["silu%d" % j], "silu%d" % j))
                cur = "silu%d" % j
                continue
            if layer[0] == "mul":
                # two Gemms u, v of cur, then Mul(u, v) and Pow(u, 2), concatenated
                j = k[0] = k[0] + 1
                for t, (W, b) in enumerate(((layer[1], layer[2]), (layer[3], layer[4]))):
                    inits.append(tensor_text("PW%d_%d" % (j, t), [len(W), len(W[0])],
                                             [w for row in W for w in row], raw))
                    inits.append(tensor_text("PB%d_%d" % (j, t), [len(W)], b, raw))
                    nodes.append(node_text("Gemm", [cur, "PW%d_%d" % (j, t), "PB%d_%d" % (j, t)],
                                           ["pgemm%d_%d" % (j, t)], "pgemm%d_%d" % (j, t),
                                           [("transB", "INT", 1)]))
                nodes.append(node_text("Mul", ["pgemm%d_0" % j, "pgemm%d_1" % j], ["pmul%d" % j],
                                       "mul%d" % j))
                inits.append(tensor_text("PTWO%d" % j, [1], [2.0], raw))
                nodes.append(node_text("Pow", ["pgemm%d_0" % j, "PTWO%d" % j], ["psq%d" % j],
                                       "square%d" % j))
                nodes.append(node_text("Concat", ["pmul%d" % j, "psq%d" % j], ["pcat%d" % j],
                                       "concat_p%d" % j, [("axis", "INT", 1)]))
                cur = "pcat%d" % j
                continue
            if layer[0] == "split":
                # Split the (1, n) vector along axis 1 (sizes: input 1), Concat the parts reordered
                j = k[0] = k[0] + 1
                sizes, order = layer[3]
                inits.append("  initializer {\n    dims: %d\n    data_type: 7\n"
                             "    name: \"ssizes%d\"\n" % (len(sizes), j)
                             + "".join("    int64_data: %d\n" % d for d in sizes) + "  }\n")
                parts = ["part%d_%d" % (j, i) for i in range(len(sizes))]
                nodes.append(node_text("Split", [cur, "ssizes%d" % j], parts, "split%d" % j,
                                       [("axis", "INT", 1)]))
                nodes.append(node_text("Concat", [parts[p] for p in order], ["sjoin%d" % j],
                                       "concat_s%d" % j, [("axis", "INT", 1)]))
                cur = "sjoin%d" % j
                continue
            if layer[0] == "maxpool":
                # Reshape the vector to (1, c, h, w), pool k x k (stride 1), flatten back
                j = k[0]
                _, c, h, w, pk = layer
                inits.append("  initializer {\n    dims: 4\n    data_type: 7\n    name: \"shape%d\"\n"
                             % j + "".join("    int64_data: %d\n" % d for d in (1, c, h, w)) + "  }\n")
                nodes.append(node_text("Reshape", [cur, "shape%d" % j], ["img%d" % j], "reshape%d" % j))
                nodes.append(node_text("MaxPool", ["img%d" % j], ["pool%d" % j], "maxpool%d" % j,
                                       [("kernel_shape", "INTS", [pk, pk]),
                                        ("strides", "INTS", [1, 1])]))
                nodes.append(node_text("Flatten", ["pool%d" % j], ["poolflat%d" % j],
                                       "flatten_p%d" % j, [("axis", "INT", 1)]))
                cur = "poolflat%d" % j
                continue
            k[0] += 1
            j = k[0]
            if top:
                emit.dense += 1
            _, W, b = layer
            last = top and emit.dense == dense_count
            out = ("logits" if net.softmax else "Y") if last else "fc%d" % j
            n_out, n_in = len(W), len(W[0])
            if style == "gemm":
                inits.append(tensor_text("W%d" % j, [n_out, n_in], [w for row in W for w in row], raw))
                inits.append(tensor_text("B%d" % j, [n_out], b, raw))
                nodes.append(node_text("Gemm", [cur, "W%d" % j, "B%d" % j], [out], "gemm%d" % j,
                                       [("transB", "INT", 1)]))
            else:
                WT = [W[r][c] for c in range(n_in) for r in range(n_out)]
                inits.append(tensor_text("W%d" % j, [n_in, n_out], WT, raw))
                inits.append(tensor_text("B%d" % j, [n_out], b, raw))
                nodes.append(node_text("MatMul", [cur, "W%d" % j], ["mm%d" % j], "matmul%d" % j))
                nodes.append(node_text("Add", ["mm%d" % j, "B%d" % j], [out], "add%d" % j))
            cur = out
        return cur
    emit.dense = 0
    emit.res = 0
    emit(net.layers, cur, True)
    if net.softmax:  # over the last axis of [1, n_out] (opset 13; no axis: every reading agrees)
        nodes.append(node_text("Softmax", ["logits"], ["Y"], "softmax"))
    s = 'ir_version: 8\nproducer_name: "verify scripts/make_models.py"\n'
    s += 'opset_import { domain: "" version: 13 }\n'
    s += "graph {\n  name: \"%s\"\n" % name
    s += "".join(nodes) + "".join(inits)
    s += value_info_text("input", "X", in_dims)
    s += value_info_text("output", "Y", [1, net.n_out])
    s += "}\n"
    return s


def encode_model(text, path):
    r = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + os.path.dirname(ONNX_PROTO),
                        os.path.basename(ONNX_PROTO)], input=text.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit("make_models.py: protoc --encode failed for %s:\n%s" % (path, r.stderr.decode()))
    with open(path, "wb") as f:
        f.write(r.stdout)


# ----------------------------------------------------------------------------------------------
# Specs. A spec = input region (list of boxes, a disjunction) + unsafe output set in DNF:
# a list of disjuncts, each a list of constraints (c, d) meaning sum_j c[j] Y_j <= d.

def num(v):
    return repr(float(v))


def atom_text(c, d):
    """Write sum c_j Y_j <= d in plain VNNLIB (var-const or var-var comparisons only)."""
    nz = [(j, cj) for j, cj in enumerate(c) if cj != 0]
    if len(nz) == 1 and d is not None:
        j, cj = nz[0]
        if cj == 1:
            return "(<= Y_%d %s)" % (j, num(d))
        if cj == -1:
            return "(>= Y_%d %s)" % (j, num(-d))
    if len(nz) == 2 and d == 0:
        (i, ci), (j, cj) = nz
        if ci == 1 and cj == -1:
            return "(<= Y_%d Y_%d)" % (i, j)
        if ci == -1 and cj == 1:
            return "(>= Y_%d Y_%d)" % (i, j)
    raise ValueError("constraint not expressible: %r <= %r" % (c, d))


def spec_text(comment, n_in, n_out, boxes, dnf):
    lines = ["; " + ln for ln in comment.strip().splitlines()]
    lines.append("")
    lines += ["(declare-const X_%d Real)" % i for i in range(n_in)]
    lines += ["(declare-const Y_%d Real)" % j for j in range(n_out)]
    lines.append("")
    lines.append("; input region")
    if len(boxes) == 1:
        lo, hi = boxes[0]
        for i in range(n_in):
            lines.append("(assert (>= X_%d %s))" % (i, num(lo[i])))
            lines.append("(assert (<= X_%d %s))" % (i, num(hi[i])))
    else:
        lines.append("(assert (or")
        for lo, hi in boxes:
            parts = []
            for i in range(n_in):
                parts.append("(>= X_%d %s) (<= X_%d %s)" % (i, num(lo[i]), i, num(hi[i])))
            lines.append("    (and " + " ".join(parts) + ")")
        lines.append("))")
    lines.append("")
    lines.append("; unsafe output set")
    if len(dnf) == 1:
        for c, d in dnf[0]:
            lines.append("(assert %s)" % atom_text(c, d))
    else:
        lines.append("(assert (or")
        for conj in dnf:
            lines.append("    (and " + " ".join(atom_text(c, d) for c, d in conj) + ")")
        lines.append("))")
    return "\n".join(lines) + "\n"


def spec_v2_text(text, in_dims, out_dims, typ, onnx_names=None):
    """The VNNLIB 1 text as a VNNLIB 2.0 query: one declare-network with the model's input and
    output shapes (and the ONNX tensors' names, a pair, when given), X_i / Y_j as tensor elements
    at row-major offset i / j; the asserts as written. (scripts/vnnlib2.py uses it too.)"""
    def unravel(i, dims):
        idx = []
        for d in reversed(dims):
            idx.append(i % d)
            i //= d
        return ",".join(str(k) for k in reversed(idx))
    body = re.sub(r"\(\s*declare-(?:const|fun)\s+[XY]_\d+\s+(?:\(\s*\)\s+)?Real\s*\)\n?", "",
                  text)
    dims = {"X": in_dims, "Y": out_dims}
    body = re.sub(r"\b([XY])_(\d+)\b",
                  lambda m: "%s[%s]" % (m.group(1), unravel(int(m.group(2)), dims[m.group(1)])),
                  body)
    onnx = [' "%s"' % n for n in onnx_names] if onnx_names else ["", ""]
    head = ("(vnnlib-version <2.0>)\n(declare-network net\n    (declare-input X %s [%s]%s)\n"
            "    (declare-output Y %s [%s]%s)\n)\n"
            % (typ, ", ".join(map(str, in_dims)), onnx[0], typ, ",".join(map(str, out_dims)),
               onnx[1]))
    return head + body


def grid(lo, hi, n):
    axes = [[lo[i] + (hi[i] - lo[i]) * k / (n - 1) for k in range(n)] for i in range(len(lo))]
    return itertools.product(*axes), max((hi[i] - lo[i]) / (n - 1) for i in range(len(lo)))


def analyse(net, boxes, dnf, n):
    """Grid + Lipschitz analysis. Returns (min over boxes/disjuncts of (grid-min violation - slack),
    best witness (violation, x) with the most negative violation)."""
    proof_margin = float("inf")
    witness = (float("inf"), None)
    for lo, hi in boxes:
        L = net.lipschitz((lo, hi))
        pts, h = grid(lo, hi, n)
        mins = [float("inf")] * len(dnf)
        for x in pts:
            y = net.eval(list(x))
            for k, conj in enumerate(dnf):
                v = max(sum(cj * yj for cj, yj in zip(c, y)) - d for c, d in conj)
                if v < mins[k]:
                    mins[k] = v
                if v < witness[0]:
                    witness = (v, list(x))
        for k, conj in enumerate(dnf):
            LD = max(sum(abs(cj) for cj in c) for c, _ in conj) * L
            proof_margin = min(proof_margin, mins[k] - LD * h / 2)
    return proof_margin, witness


def ibp(net, lo, hi):
    """Interval bounds of the outputs over the box [lo, hi] (interval arithmetic in float64)."""
    if net.pre is not None:
        mean, std = net.pre
        lo = [(v - m) / s for v, m, s in zip(lo, mean, std)]
        hi = [(v - m) / s for v, m, s in zip(hi, mean, std)]
    return ibp_layers(net.layers, lo, hi)


def layernorm_cell(W, b, ln, lo, hi):
    """Interval bounds of layernorm(W x + b) over the 2-D box [lo, hi]: the centred entries
    d_i = (C (W x + b))_i are affine in x (their exact range on the box), the variance a convex
    quadratic (its least value by variance_min, its largest at a corner), and each output
    d_i / sqrt(var + eps) gamma_i + beta_i lies in the quotients of those ranges (s > 0)."""
    gam, bet, eps = ln[1:]
    n = len(W)
    A = [[W[i][j] - sum(W[k][j] for k in range(n)) / n for j in range(2)] for i in range(n)]
    c = [b[i] - sum(b) / n for i in range(n)]
    corners = [[x0, x1] for x0 in (lo[0], hi[0]) for x1 in (lo[1], hi[1])]
    vmax = max(sum((A[i][0] * x[0] + A[i][1] * x[1] + c[i]) ** 2 for i in range(n)) / n
               for x in corners)
    vmin = variance_min(W, b, lo, hi)
    s_lo = math.sqrt(max(vmin * (1 - 1e-9) - 1e-15, 0.0) + eps)
    s_hi = math.sqrt(vmax * (1 + 1e-9) + 1e-15 + eps)
    out_lo, out_hi = [], []
    for i in range(n):
        dl = c[i] + sum(min(a * l, a * h) for a, l, h in zip(A[i], lo, hi))
        dh = c[i] + sum(max(a * l, a * h) for a, l, h in zip(A[i], lo, hi))
        q = [dl / s_lo, dl / s_hi, dh / s_lo, dh / s_hi]
        ql, qh = min(q), max(q)
        ql, qh = ql - 1e-12 * (1 + abs(ql)), qh + 1e-12 * (1 + abs(qh))   # (float64 rounding)
        y = [ql * gam[i] + bet[i], qh * gam[i] + bet[i]]
        out_lo.append(min(y))
        out_hi.append(max(y))
    return out_lo, out_hi


def ibp_layers(layers, lo, hi):
    layers = list(layers)
    ln_box = None   # the 2-D box at the input of a dense layer that a layernorm follows
    for li, layer in enumerate(layers):
        if layer == "relu":
            lo = [max(v, 0.0) for v in lo]
            hi = [max(v, 0.0) for v in hi]
            continue
        if layer[0] == "softmax":   # s_i = 1 / (1 + sum_{j != i} exp(x_j - x_i)), monotone in each
            m = layer[1]
            nlo, nhi = [], []
            for g in range(0, len(lo), m):
                for i in range(g, g + m):
                    others = [j for j in range(g, g + m) if j != i]
                    nlo.append(1.0 / (1.0 + sum(math.exp(hi[j] - lo[i]) for j in others)))
                    nhi.append(1.0 / (1.0 + sum(math.exp(lo[j] - hi[i]) for j in others)))
            lo, hi = nlo, nhi
            continue
        if layer[0] in ("sin", "cos"):   # the ends, and 1 / -1 where a peak / trough is inside
            f = math.sin if layer[0] == "sin" else math.cos
            top = math.pi / 2 if layer[0] == "sin" else 0.0

            def inside(p, a, b):
                return math.floor((b - p) / (2 * math.pi)) >= math.ceil((a - p) / (2 * math.pi))
            nlo = [-1.0 if inside(top - math.pi, a, b) else min(f(a), f(b)) for a, b in zip(lo, hi)]
            nhi = [1.0 if inside(top, a, b) else max(f(a), f(b)) for a, b in zip(lo, hi)]
            lo, hi = nlo, nhi
            continue
        if layer[0] in ACTS:   # the ends, and the interior minimum where there is one
            f, _, zmin = ACTS[layer[0]]
            lo, hi = ([min(f(a), f(b), f(zmin) if zmin is not None and a < zmin < b else f(a))
                       for a, b in zip(lo, hi)], [max(f(a), f(b)) for a, b in zip(lo, hi)])
            continue
        if layer[0] == "where":   # v or -v by position
            lo, hi = ([a if where_mask(layer, i) else -b for i, (a, b) in enumerate(zip(lo, hi))],
                      [b if where_mask(layer, i) else -a for i, (a, b) in enumerate(zip(lo, hi))])
            continue
        if layer[0] == "sign":   # nondecreasing: [sign(lo), sign(hi)]
            lo = [(v > 0) - (v < 0) for v in lo]
            hi = [(v > 0) - (v < 0) for v in hi]
            continue
        if layer[0] == "softplus":   # increasing
            lo = [max(v, 0.0) + math.log1p(math.exp(-abs(v))) for v in lo]
            hi = [max(v, 0.0) + math.log1p(math.exp(-abs(v))) for v in hi]
            continue
        if layer[0] == "layernorm" and li > 0 and layers[li - 1][0] == "dense" and \
                ln_box is not None:   # with the dense layer before it, on its 2-D input box
            lo, hi = layernorm_cell(layers[li - 1][1], layers[li - 1][2], layer, *ln_box)
            continue
        if layer[0] == "layernorm":   # |(x_i - mean) / sqrt(var + eps)| <= sqrt(n - 1), any x
            gam, bet = layer[1], layer[2]
            r = math.sqrt(len(gam) - 1) * (1 + 1e-12)
            lo = [b - r * abs(g) for g, b in zip(gam, bet)]
            hi = [b + r * abs(g) for g, b in zip(gam, bet)]
            continue
        if layer[0] == "res":   # x + f(x) lies in [lo + lo_f, hi + hi_f]
            flo, fhi = ibp_layers(layer[1], lo, hi)
            lo = [a + b for a, b in zip(lo, flo)]
            hi = [a + b for a, b in zip(hi, fhi)]
            continue
        if layer[0] == "mul":   # [u v, u u]: the products of the factors' interval ends
            ulo, uhi = ibp_layers([("dense", layer[1], layer[2])], lo, hi)
            vlo, vhi = ibp_layers([("dense", layer[3], layer[4])], lo, hi)
            ps = [[p * q for p in (ul, uh) for q in (vl, vh)]
                  for ul, uh, vl, vh in zip(ulo, uhi, vlo, vhi)]
            sq = [(0.0 if ul <= 0 <= uh else min(ul * ul, uh * uh), max(ul * ul, uh * uh))
                  for ul, uh in zip(ulo, uhi)]
            lo = [min(p) for p in ps] + [a for a, _ in sq]
            hi = [max(p) for p in ps] + [c for _, c in sq]
            continue
        assert layer[0] in ("dense", "conv", "tconv", "resize", "split")
        W, b = layer[1], layer[2]
        nxt = layers[li + 1] if li + 1 < len(layers) else None
        ln_box = (lo, hi) if nxt not in (None, "relu") and nxt[0] == "layernorm" and \
            len(lo) == 2 else None
        nlo, nhi = [], []
        for row, bi in zip(W, b):
            a = sum(w * (l if w >= 0 else u) for w, l, u in zip(row, lo, hi)) + bi
            c = sum(w * (u if w >= 0 else l) for w, l, u in zip(row, lo, hi)) + bi
            nlo.append(a)
            nhi.append(c)
        lo, hi = nlo, nhi
    return lo, hi


def analyse_cells(net, boxes, dnf, splits):
    """Split every box into splits^n equal cells and bound each with IBP. Returns the smallest,
    over cells and disjuncts, of the largest lower bound of (c.y - d) among the disjunct's
    constraints: > 0 proves that no disjunct is satisfiable anywhere in the boxes."""
    worst = float("inf")
    for lo, hi in boxes:
        n = len(lo)
        for idx in itertools.product(range(splits), repeat=n):
            clo = [lo[i] + (hi[i] - lo[i]) * idx[i] / splits for i in range(n)]
            chi = [lo[i] + (hi[i] - lo[i]) * (idx[i] + 1) / splits for i in range(n)]
            ylo, yhi = ibp(net, clo, chi)
            for conj in dnf:
                best = max(sum(cj * (yl if cj > 0 else yh) for cj, yl, yh in zip(c, ylo, yhi)) - d
                           for c, d in conj)
                worst = min(worst, best)
    return worst


def y_stats(net, lo, hi, n, c):
    """min and argmin of c.y over a grid (to place thresholds)."""
    pts, _ = grid(lo, hi, n)
    best = (float("inf"), None)
    for x in pts:
        y = net.eval(list(x))
        v = sum(cj * yj for cj, yj in zip(c, y))
        if v < best[0]:
            best = (v, list(x))
    return best


MARGIN = 1e-3


def floor_to(v, q):
    """Round down to a multiple of q, printed cleanly (callers re-check margins afterwards)."""
    return round(math.floor(v / q) * q, 9)


def ceil_to(v, q):
    return round(math.ceil(v / q) * q, 9)


def fmt_x(x):
    return "(" + ", ".join("%.6g" % v for v in x) + ")"


# ----------------------------------------------------------------------------------------------

def build(root):
    models_dir = os.path.join(root, "models")
    specs_dir = os.path.join(root, "specs")
    os.makedirs(models_dir, exist_ok=True)
    os.makedirs(specs_dir, exist_ok=True)
    expected = []

    def write_model(net, name, style, raw, in_dims=None):
        encode_model(model_text(net, name, style, raw, in_dims), os.path.join(models_dir, name + ".onnx"))

    def write_spec(model, name, comment, net, boxes, dnf, verdict, why):
        text = spec_text("%s: expected %s.\n%s" % (name, verdict, why), net.n_in, net.n_out, boxes, dnf)
        with open(os.path.join(specs_dir, name + ".vnnlib"), "w") as f:
            f.write(text)
        expected.append(("models/%s.onnx" % model, "specs/%s.vnnlib" % name, verdict))

    def lipschitz_specs(model, net, l_note):
        """model_unsat and model_sat on [-1,1]^2 from a 201x201 grid: Y_0 <= t below the grid's
        minimum by more than L h/2 (l_note: why L bounds the Lipschitz constant), and a witness."""
        n, bx = 201, ([-1.0, -1.0], [1.0, 1.0])
        hh = 2.0 / (n - 1)
        lip = net.lipschitz(bx)
        m0, _ = y_stats(net, bx[0], bx[1], n, [1, 0, 0])
        t_unsat = floor_to(m0 - lip * hh / 2 - MARGIN, 1e-3)
        pm, _ = analyse(net, [bx], [[([1, 0, 0], t_unsat)]], n)
        assert pm >= MARGIN, pm
        write_spec(model, model + "_unsat", "", net, [bx], [[([1, 0, 0], t_unsat)]], "unsat",
                   "Grid %dx%d (h = %g) over the box: min Y_0 = %.6f; Lipschitz bound L = %.4f%s;"
                   " min Y_0 >= %.6f - L h/2 = %.6f > %s\n(margin %.4f)."
                   % (n, n, hh, m0, lip, l_note, m0, m0 - lip * hh / 2, num(t_unsat), pm))
        t_sat = ceil_to(m0 + 0.05, 1e-3)
        _, (wv, wx) = analyse(net, [bx], [[([1, 0, 0], t_sat)]], n)
        assert wv <= -0.04
        write_spec(model, model + "_sat", "", net, [bx], [[([1, 0, 0], t_sat)]], "sat",
                   "Witness on the grid: x = %s gives Y_0 = %.6f <= %s (margin %.4f)."
                   % (fmt_x(wx), m0, num(t_sat), -wv))

    # -- tiny_relu: y = relu(x) + relu(-x) = |x| ------------------------------------------------
    tiny = Net(1, [("dense", [[1.0], [-1.0]], [0.0, 0.0]), "relu", ("dense", [[1.0, 1.0]], [0.0])])
    write_model(tiny, "tiny_relu", "gemm", raw=False)
    write_spec("tiny_relu", "tiny_relu_unsat", "", tiny, [([-1.0], [1.0])], [[([1], -0.001)]], "unsat",
               "y = relu(x) + relu(-x) = |x| >= 0 for every x, so Y_0 <= -0.001 is impossible.")
    write_spec("tiny_relu", "tiny_relu_sat", "", tiny, [([-1.0], [1.0])], [[([1], 0.25)]], "sat",
               "y = |x|; the witness x = 0 gives y = 0 <= 0.25.")
    # X_0 = 0.1, a real point that is no float32 value: a float32 runtime receives
    # 0.100000001490116..., where y is above 0.0999 as at the real point itself
    write_spec("tiny_relu", "tiny_relu_point_sat", "", tiny, [([0.1], [0.1])], [[([-1], -0.0999)]],
               "sat", "y = |x| = 0.1 >= 0.0999 at the real point X_0 = 0.1 (which holds no\n"
               "float32 value) and at its float32 rounding: the counterexample is that rounding.")
    write_spec("tiny_relu", "tiny_relu_point_unsat", "", tiny, [([0.1], [0.1])], [[([1], 0.0999)]],
               "unsat", "y = |x| = 0.1 > 0.0999 at X_0 = 0.1 and at its float32 rounding.")

    # -- abs_split: y = |x0+x1| + |x0-x1| - |x0| - |x1| = ||x0|-|x1|| ---------------------------
    rows = [[1, 1], [-1, -1], [1, -1], [-1, 1], [1, 0], [-1, 0], [0, 1], [0, -1]]
    absn = Net(2, [("dense", [[float(a) for a in r] for r in rows], [0.0] * 8), "relu",
                   ("dense", [[1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]], [0.0])])
    write_model(absn, "abs_split", "matmul", raw=True)
    box2 = ([-1.0, -1.0], [1.0, 1.0])
    why = ("y = |x0+x1| + |x0-x1| - |x0| - |x1| = 2 max(|x0|,|x1|) - |x0| - |x1| = ||x0| - |x1||.\n")
    write_spec("abs_split", "abs_split_unsat", "", absn, [box2], [[([1], -0.05)]], "unsat",
               why + "y >= 0 everywhere, so Y_0 <= -0.05 is impossible (margin 0.05). Every ReLU is\n"
               "unstable on the box: proving it needs input or activation splits.")
    write_spec("abs_split", "abs_split_sat", "", absn, [box2], [[([-1], -0.9)]], "sat",
               why + "Witness x = (1, 0): y = 1 >= 0.9.")
    for x, want in (([0.3, -0.7], 0.4), ([1.0, 0.0], 1.0), ([-0.5, 0.5], 0.0)):
        assert abs(absn.eval(x)[0] - want) < 1e-12

    # -- rand2_a: 2 -> 12 -> 12 -> 3, Gemm, raw_data ----------------------------------------------
    N = 201
    ra = random_net(1234, [2, 12, 12, 3])
    write_model(ra, "rand2_a", "gemm", raw=True)
    box = ([-1.0, -1.0], [1.0, 1.0])
    L = ra.lipschitz()
    h = 2.0 / (N - 1)
    m0, _ = y_stats(ra, box[0], box[1], N, [1, 0, 0])
    t_unsat = floor_to(m0 - L * h / 2 - MARGIN, 1e-3)
    pm, _ = analyse(ra, [box], [[([1, 0, 0], t_unsat)]], N)
    assert pm >= MARGIN, pm
    write_spec("rand2_a", "rand2_a_unsat", "", ra, [box], [[([1, 0, 0], t_unsat)]], "unsat",
               "Grid %dx%d (h = %g) over the box: min Y_0 = %.6f; Lipschitz bound L = %.4f;\n"
               "min Y_0 >= %.6f - L h/2 = %.6f > %s (margin %.4f)."
               % (N, N, h, m0, L, m0, m0 - L * h / 2, num(t_unsat), pm))
    t_sat = ceil_to(m0 + 0.05, 1e-3)
    _, (wv, wx) = analyse(ra, [box], [[([1, 0, 0], t_sat)]], N)
    assert wv <= -0.04
    write_spec("rand2_a", "rand2_a_sat", "", ra, [box], [[([1, 0, 0], t_sat)]], "sat",
               "Witness on the grid: x = %s gives Y_0 = %.6f <= %s (margin %.4f)."
               % (fmt_x(wx), m0, num(t_sat), -wv))

    # A tight threshold: interval arithmetic on a 100x100 partition of the box bounds Y_0 from
    # below cell by cell; the threshold sits just under the smallest cell bound, so a verifier
    # must bound Y_0 nearly as tightly (fine input splits or activation splits).
    CELLS = 100
    t_tight = floor_to(analyse_cells(ra, [box], [[([1, 0, 0], 0.0)]], CELLS) - MARGIN, 1e-3)
    pm_t = analyse_cells(ra, [box], [[([1, 0, 0], t_tight)]], CELLS)
    assert pm_t >= MARGIN, pm_t
    write_spec("rand2_a", "rand2_a_tight_unsat", "", ra, [box], [[([1, 0, 0], t_tight)]], "unsat",
               "Interval arithmetic on a %dx%d partition of the box: on every cell Y_0 > %s by at\n"
               "least %.4f (sampled min of Y_0: %.6f)." % (CELLS, CELLS, num(t_tight), pm_t, m0))

    # var-var comparisons, sat: "Y_k is the largest output" for the first k attained with margin
    k_big, wv, wx = None, 0.0, None
    for k in range(3):
        conj = []
        for j in range(3):
            if j != k:
                c = [0, 0, 0]
                c[k], c[j] = -1, 1
                conj.append((c, 0))
        _, (v, x) = analyse(ra, [box], [conj], N)
        if v <= -0.05:
            k_big, wv, wx, largest = k, v, x, conj
            break
    assert k_big is not None
    write_spec("rand2_a", "rand2_a_cmp_sat", "", ra, [box], [largest], "sat",
               "Unsafe: Y_%d is the largest output. Witness on the grid: x = %s makes Y_%d larger\n"
               "than the others by %.4f." % (k_big, fmt_x(wx), k_big, -wv))

    # -- pool2: 2 -> 18 -> relu -> maxpool 2x2 (stride 1, overlapping) on (2, 3, 3) -> 3 ---------
    rp = random_net(4321, [2, 18, 3])
    rp.layers = [rp.layers[0], "relu", ("maxpool", 2, 3, 3, 2),
                 ("dense", [[f32(random.Random(4322 + r).gauss(0.0, 0.5)) for _ in range(8)]
                            for r in range(3)], rp.layers[2][2])]
    write_model(rp, "pool2", "gemm", raw=True)
    lipschitz_specs("pool2", rp, " (max\npooling is 1-Lipschitz in the inf-norm)")

    # -- rand2_b: 2 -> 16 -> 16 -> 3, MatMul + Add, float_data; output comparisons ---------------
    rb = random_net(777, [2, 16, 16, 3])
    write_model(rb, "rand2_b", "matmul", raw=False)
    Lb = rb.lipschitz()
    # (<= Y_0 Y_1) on a box around the grid point where Y_0 - Y_1 is largest: grow the box
    # while the grid + Lipschitz argument still proves Y_0 > Y_1 on it.
    big = ([-1.0, -1.0], [1.0, 1.0])
    negmax, xc = y_stats(rb, big[0], big[1], 81, [-1, 1, 0])   # min of Y_1 - Y_0
    assert negmax < -0.5, negmax
    chosen = None
    for r in (1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05):
        bx = ([max(-1.0, round(xc[0] - r, 6)), max(-1.0, round(xc[1] - r, 6))],
              [min(1.0, round(xc[0] + r, 6)), min(1.0, round(xc[1] + r, 6))])
        pm, _ = analyse(rb, [bx], [[([1, -1, 0], 0)]], 121)
        if pm >= MARGIN:
            chosen = (r, bx, pm)
            break
    assert chosen is not None
    r, bx, pm = chosen
    write_spec("rand2_b", "rand2_b_cmp_unsat", "", rb, [bx], [[([1, -1, 0], 0)]], "unsat",
               "Grid 121x121 over the box, L = %.4f: min (Y_0 - Y_1) - 2 L h/2 = %.6f > 0,\n"
               "so Y_0 > Y_1 on the whole box and (<= Y_0 Y_1) is impossible." % (Lb, pm))
    # or of ands. On [-1,1]^2 each output is the smallest somewhere (witness for the sat spec);
    # on the box bx above, Y_0 > Y_1, so "Y_0 is the smallest" is impossible there.
    box = ([-1.0, -1.0], [1.0, 1.0])
    smallest = {}
    for k in range(3):
        conj = []
        for j in range(3):
            if j != k:
                c = [0, 0, 0]
                c[k], c[j] = 1, -1
                conj.append((c, 0))
        smallest[k] = conj
    # "Y_2 >= t_hi" impossible on [-1,1]^2 (so also on bx, which lies inside it)
    assert box[0][0] <= bx[0][0] and bx[1][0] <= box[1][0] and box[0][1] <= bx[0][1] and bx[1][1] <= box[1][1]
    m2, _ = y_stats(rb, box[0], box[1], N, [0, 0, -1])   # -max Y_2
    max_y2 = -m2
    t_hi = ceil_to(max_y2 + Lb * h / 2 + MARGIN, 1e-3)
    y2_hi = ([0, 0, -1], -t_hi)
    pm_hi, _ = analyse(rb, [box], [[y2_hi]], N)
    assert pm_hi >= MARGIN, pm_hi
    pm_s0, _ = analyse(rb, [bx], [smallest[0]], 121)
    assert pm_s0 >= MARGIN, pm_s0
    write_spec("rand2_b", "rand2_b_dnf_unsat", "", rb, [bx], [smallest[0], [y2_hi]], "unsat",
               "Unsafe: Y_0 is the smallest output, or Y_2 >= %s.\n"
               "First disjunct: grid 121x121 over this box, L = %.4f: min of max(Y_0 - Y_1, Y_0 - Y_2)\n"
               "minus 2 L h/2 = %.6f > 0. Second: on [-1,1]^2 (which contains this box) grid %dx%d,\n"
               "max Y_2 = %.6f, plus L h/2 stays below %s (margin %.4f)."
               % (num(t_hi), Lb, pm_s0, N, N, max_y2, num(t_hi), pm_hi))
    ka, (wv, wx) = None, (0.0, None)
    for k in (2, 1, 0):
        _, (v, x) = analyse(rb, [box], [smallest[k]], N)
        if v <= -0.05:
            ka, wv, wx = k, v, x
            break
    assert ka is not None
    write_spec("rand2_b", "rand2_b_dnf_sat", "", rb, [box], [[y2_hi], smallest[ka]], "sat",
               "Unsafe: Y_2 >= %s (impossible, see rand2_b_dnf_unsat), or Y_%d is the smallest\n"
               "output. Witness on the grid: x = %s makes Y_%d smaller than the others by %.4f."
               % (num(t_hi), ka, fmt_x(wx), ka, -wv))

    # -- soft2: rand2_b's layers with a Softmax after them; the same comparisons -----------------
    sb = Net(rb.n_in, rb.layers, softmax=True)
    write_model(sb, "soft2", "gemm", raw=True)
    write_spec("soft2", "soft2_cmp_unsat", "", sb, [bx], [[([1, -1, 0], 0)]], "unsat",
               "The model is rand2_b's layers followed by a Softmax, which keeps the order of its\n"
               "inputs: Y_0 <= Y_1 exactly when the logits are so. On this box the logits satisfy\n"
               "logit_0 > logit_1 (rand2_b_cmp_unsat: grid 121x121, L = %.4f, margin %.6f)."
               % (Lb, pm))
    write_spec("soft2", "soft2_cmp_sat", "", sb, [box], [smallest[ka]], "sat",
               "The model is rand2_b's layers followed by a Softmax (order-preserving). Witness\n"
               "on the grid: x = %s makes logit %d, hence Y_%d, smaller than the others (margin\n"
               "%.4f)."
               % (fmt_x(wx), ka, ka, -wv))

    # -- tconv2: 2 -> 8 -> relu -> ConvTranspose (2, 2, 2) -> (2, 4, 4) -> relu -> 3 ----------
    rt = random_net(2468, [2, 8, 32, 3])
    rt.layers[2] = tconv_layer(2469, 2, 2, 2, 2, 2, 2)
    write_model(rt, "tconv2", "gemm", raw=True)
    lipschitz_specs("tconv2", rt, " (the ConvTranspose is its matrix's\ninf-norm-Lipschitz)")

    # -- up2: 2 -> 8 -> relu -> Resize x2 (nearest) on (2, 2, 2) -> (2, 4, 4) -> 3 -------------
    ru = random_net(1357, [2, 8, 32, 3])
    ru.layers[2] = resize_layer(2, 2, 2, 2)
    write_model(ru, "up2", "gemm", raw=True)
    lipschitz_specs("up2", ru, " (the Resize selects inputs:\n1-Lipschitz)")

    # -- split2: 2 -> 8 -> relu -> Split (3, 5) and Concat (5, 3) -> relu -> 3 ---------------------
    rs = random_net(8642, [2, 8, 8, 3])
    rs.layers[2] = split_layer([3, 5], [1, 0])
    write_model(rs, "split2", "gemm", raw=True)
    lipschitz_specs("split2", rs, " (Split and Concat\npermute their inputs: 1-Lipschitz)")

    # -- maxmin2: 2 -> 8 -> relu -> [max(A h, B h), min(A h, B h)] (4 + 4) -> relu -> 3 -----------
    rm = random_net(9753, [2, 8, 8, 3])
    da, db = random_net(9754, [8, 4]).layers[0], random_net(9755, [8, 4]).layers[0]
    rm.layers[2] = ("maxmin", da[1], da[2], db[1], db[2])
    write_model(rm, "maxmin2", "gemm", raw=True)
    lipschitz_specs("maxmin2", rm, " (Max and Min are 1-Lipschitz in\nboth operands)")

    # -- mul2: 2 -> 8 -> relu -> [u v, u u] (u = A h + a, v = B h + b; 4 + 4) -> relu -> 3 -------
    rp = random_net(8531, [2, 8, 8, 3])
    pa, pb = random_net(8532, [8, 4]).layers[0], random_net(8533, [8, 4]).layers[0]
    rp.layers[2] = ("mul", pa[1], pa[2], pb[1], pb[2])
    write_model(rp, "mul2", "gemm", raw=True)
    lipschitz_specs("mul2", rp,
                    " (over the box: a product's\nrate is bounded by its factors' ranges)")
    # the Lipschitz bound is loose here; interval arithmetic on fine cells gives a threshold that
    # needs the products' relaxation to be split (input or activation splits)
    t_mul = floor_to(analyse_cells(rp, [box2], [[([1, 0, 0], 0.0)]], 100) - MARGIN, 1e-3)
    pm_mul = analyse_cells(rp, [box2], [[([1, 0, 0], t_mul)]], 100)
    assert pm_mul >= MARGIN, pm_mul
    write_spec("mul2", "mul2_tight_unsat", "", rp, [box2], [[([1, 0, 0], t_mul)]], "unsat",
               "Interval arithmetic on a 100x100 partition of the box: on every cell Y_0 > %s by\n"
               "at least %.4f." % (num(t_mul), pm_mul))

    # -- silu2: 2 -> 8 -> SiLU (x sigmoid(x): x read on both sides of the Sigmoid) -> 8 -> relu -> 3
    rq = random_net(7531, [2, 8, 8, 3])
    rq.layers[1] = ("silu",)
    write_model(rq, "silu2", "gemm", raw=True)
    lipschitz_specs("silu2", rq, " (SiLU's slope lies in [-0.1, 1.1])")

    # -- sign2: 2 -> 16 -> Sign (a binarized network's step) -> 8 -> relu -> 3 -----------------
    # Sign is not Lipschitz: the unsat threshold comes from interval arithmetic on cells (Sign is
    # nondecreasing: [sign(lo), sign(hi)]), the sat one from a grid point
    rb = random_net(8642, [2, 16, 8, 3])
    rb.layers[1] = ("sign",)
    write_model(rb, "sign2", "gemm", raw=True)
    bxs = ([-1.0, -1.0], [1.0, 1.0])
    ms, xs = y_stats(rb, bxs[0], bxs[1], 201, [1, 0, 0])
    t_sgn = floor_to(analyse_cells(rb, [bxs], [[([1, 0, 0], 0.0)]], 100) - MARGIN, 1e-3)
    pm_s = analyse_cells(rb, [bxs], [[([1, 0, 0], t_sgn)]], 100)
    assert pm_s >= MARGIN, pm_s
    write_spec("sign2", "sign2_unsat", "", rb, [bxs], [[([1, 0, 0], t_sgn)]], "unsat",
               "Interval arithmetic on a 100x100 partition of the box (Sign is nondecreasing: its\n"
               "interval is [sign(lo), sign(hi)]): on every cell Y_0 > %s by at least %.4f\n"
               "(sampled min of Y_0: %.6f)." % (num(t_sgn), pm_s, ms))
    t_sgs = ceil_to(ms + 0.05, 1e-3)
    write_spec("sign2", "sign2_sat", "", rb, [bxs], [[([1, 0, 0], t_sgs)]], "sat",
               "Witness on the grid: x = %s gives Y_0 = %.6f <= %s (margin %.4f)."
               % (fmt_x(xs), ms, num(t_sgs), t_sgs - ms))

    # -- trig2: 2 -> 8 -> Sin -> 8 -> Cos -> 3 (both 1-Lipschitz) ---------------------------------
    rt = random_net(8765, [2, 8, 8, 3])
    rt.layers[0] = ("dense", [[f32(3 * w) for w in row] for row in rt.layers[0][1]],
                    rt.layers[0][2])   # (the Sin's inputs span about a period)
    rt.layers[1] = ("sin",)
    rt.layers[3] = ("cos",)
    write_model(rt, "trig2", "gemm", raw=True)
    lipschitz_specs("trig2", rt, " (sin and cos are 1-Lipschitz)")
    # -- act2: 2 -> 8 -> Elu -> 8 -> HardSwish -> 8 -> Softsign -> 3 (rewritten by the loader) --
    ra = random_net(5319, [2, 8, 8, 8, 3])
    ra.layers[1], ra.layers[3], ra.layers[5] = ("Elu",), ("HardSwish",), ("Softsign",)
    write_model(ra, "act2", "gemm", raw=True)
    lipschitz_specs("act2", ra, " (Elu and Softsign are 1-Lipschitz, HardSwish 3/2)")

    def cells_unsat_spec(model, net, note):
        """model_tight_unsat on the box box2: Y_0 <= t below the least bound interval arithmetic
        gives on a CELLS x CELLS partition of it, by MARGIN (note: how each activation's range on a
        cell is taken)."""
        t = floor_to(analyse_cells(net, [box2], [[([1, 0, 0], 0.0)]], CELLS) - MARGIN, 1e-3)
        pm = analyse_cells(net, [box2], [[([1, 0, 0], t)]], CELLS)
        assert pm >= MARGIN, pm
        write_spec(model, model + "_tight_unsat", "", net, [box2], [[([1, 0, 0], t)]], "unsat",
                   textwrap.fill("Interval arithmetic on a %dx%d partition of the box (%s): on "
                                 "every cell Y_0 > %s by at least %.4f."
                                 % (CELLS, CELLS, note, num(t), pm), 88))

    # -- gelu2: 2 -> 8 -> Gelu -> 8 -> Erf -> 8 -> Gelu (tanh form) -> 3 (a transformer's MLP
    # activations: the exact Gelu a GELU layer, its tanh form rewritten into Tanh and products) ---
    rgl = random_net(6421, [2, 8, 8, 8, 3])
    rgl.layers[0] = ("dense", [[f32(2 * w) for w in row] for row in rgl.layers[0][1]],
                     rgl.layers[0][2])   # (Gelu's inputs reach past its minimum)
    rgl.layers[1], rgl.layers[3], rgl.layers[5] = ("Gelu",), ("Erf",), ("GeluTanh",)
    write_model(rgl, "gelu2", "gemm", raw=True)
    lipschitz_specs("gelu2", rgl, " (erf' <= 2/sqrt(pi) < 1.1284; Gelu' lies in\n"
                    "[-0.13, 1.13], its tanh form's in [-0.15, 1.15])")
    cells_unsat_spec("gelu2", rgl, "erf increasing; each Gelu's range from its ends and its "
                     "minimum where inside")

    # -- where2: 2 -> 8 -> relu -> Where(mask, h, -h) with the mask folded from constants (Range,
    # Cast, Less, Equal, Or) -> 8 -> relu -> 3 ---------------------------------------------------
    rw = random_net(4321, [2, 8, 8, 3])
    rw.layers = rw.layers[:2] + [("where", 3, 6, 8)] + rw.layers[2:]
    write_model(rw, "where2", "gemm", raw=True)
    lipschitz_specs("where2", rw, " (a Where between v and -v is 1-Lipschitz)")

    # -- swish2: 2 -> 8 -> Swish -> 8 -> Swish(alpha 1.5) -> 3 (opset 24's Swish: a SILU layer,
    # and x Sigmoid(1.5 x) rewritten) --------------------------------------------------------------
    rsw = random_net(2468, [2, 8, 8, 3])
    rsw.layers[0] = ("dense", [[f32(2 * w) for w in row] for row in rsw.layers[0][1]],
                     rsw.layers[0][2])   # (inputs past the minimum)
    rsw.layers[1], rsw.layers[3] = ("Swish",), ("Swish15",)
    write_model(rsw, "swish2", "gemm", raw=True)
    lipschitz_specs("swish2", rsw, " (SiLU's slope lies in [-0.1, 1.1], and x sigmoid(1.5 x)'s\n"
                    "is SiLU's at 1.5 x)")
    cells_unsat_spec("swish2", rsw, "each Swish's range from its ends and its minimum where "
                     "inside")

    # -- smx2: 2 -> 8 -> Softmax over two groups of 4 (inside the graph) -> 8 -> relu -> 3 ------
    rx = random_net(9753, [2, 8, 8, 3])
    rx.layers = rx.layers[:1] + [("softmax", 4, 8)] + rx.layers[2:]
    write_model(rx, "smx2", "gemm", raw=True)
    lipschitz_specs("smx2", rx, " (a Softmax's Jacobian diag(s) - s s^T has\nrows of l1 norm "
                    "2 s_i (1 - s_i) <= 1/2)")

    # -- lnsp2: 2 -> 8 -> LayerNorm (decomposed, as PyTorch exports it) -> Softplus -> 8 -> relu
    # -> 3; the first layer's biases are spread so that the LayerNorm's input never has a small
    # variance on the box (its Lipschitz constant is 1 / sqrt(variance + eps))
    rl = random_net(5311, [2, 8, 8, 3])
    lrng = random.Random(5312)
    rl.layers[0] = ("dense", rl.layers[0][1], [f32(2.0 * (i - 3.5) / 3.5) for i in range(8)])
    gam = [f32(lrng.uniform(0.5, 1.5)) for _ in range(8)]
    bet = [f32(lrng.gauss(0.0, 0.2)) for _ in range(8)]
    rl.layers = rl.layers[:1] + [("layernorm", gam, bet, f32(1e-5)), ("softplus",)] + rl.layers[2:]
    write_model(rl, "lnsp2", "gemm", raw=True)
    lipschitz_specs("lnsp2", rl, " (a LayerNorm's Jacobian has inf-norm at most\n"
                    "(2 (n-1)/n + sqrt(n-1)) max|gamma| / sqrt(min var + eps), "
                    "the least variance of\n"
                    "its input on the box computed exactly; Softplus is 1-Lipschitz)")
    m0, _ = y_stats(rl, box2[0], box2[1], 201, [1, 0, 0])
    t_ln = floor_to(analyse_cells(rl, [box2], [[([1, 0, 0], 0.0)]], CELLS) - MARGIN, 1e-3)
    pm_ln = analyse_cells(rl, [box2], [[([1, 0, 0], t_ln)]], CELLS)
    assert pm_ln >= MARGIN, pm_ln
    write_spec("lnsp2", "lnsp2_tight_unsat", "", rl, [box2], [[([1, 0, 0], t_ln)]], "unsat",
               "Interval arithmetic on a %dx%d partition of the box (the LayerNorm from the exact\n"
               "ranges of its centred inputs, affine in x, and of their variance, a convex\n"
               "quadratic: layernorm_cell): on every cell Y_0 > %s by at least %.4f (sampled\n"
               "min of Y_0: %.6f)." % (CELLS, CELLS, num(t_ln), pm_ln, m0))

    # -- redmax2: 2 -> 12 -> relu -> [max, min] of groups of 3 (4 + 4) -> 8 -> relu -> 3 ------
    rg = random_net(6421, [2, 12, 3])
    rg.layers = rg.layers[:2] + [("redmax", 3, 12)] + random_net(6422, [8, 8, 3]).layers
    write_model(rg, "redmax2", "gemm", raw=True)
    lipschitz_specs("redmax2", rg, " (ReduceMax and ReduceMin are\n1-Lipschitz)")

    # -- res2: residual blocks, 2 -> (2 + block) -> 8 -> (8 + block) -> relu -> 3 --------------
    # The first block adds to the input x, which the block's ReLU does not touch (x is read on
    # both sides of it); the second adds to a ReLU's output (a ResNet block).
    def blk(seed, sizes):
        return random_net(seed, sizes).layers
    rr = Net(2, [("res", blk(901, [2, 6, 2])), blk(902, [2, 8])[0], "relu",
                 ("res", blk(903, [8, 8, 8])), "relu", blk(904, [8, 3])[0]])
    write_model(rr, "res2", "gemm", raw=True)
    lipschitz_specs("res2", rr, " (a\nresidual block x + f(x) is (1 + L_f)-Lipschitz)")
    m0, _ = y_stats(rr, box[0], box[1], N, [1, 0, 0])
    t_tight = floor_to(analyse_cells(rr, [box], [[([1, 0, 0], 0.0)]], CELLS) - MARGIN, 1e-3)
    pm_t = analyse_cells(rr, [box], [[([1, 0, 0], t_tight)]], CELLS)
    assert pm_t >= MARGIN, pm_t
    write_spec("res2", "res2_tight_unsat", "", rr, [box], [[([1, 0, 0], t_tight)]], "unsat",
               "Interval arithmetic on a %dx%d partition of the box (a residual block's interval is\n"
               "its input's plus the block's): on every cell Y_0 > %s by at least %.4f (sampled\n"
               "min of Y_0: %.6f)." % (CELLS, CELLS, num(t_tight), pm_t, m0))

    # -- acas_like: [1,1,1,5] input, Sub/Div normalisation, Flatten, 5 -> 16 -> 16 -> 5 -----------
    # In 5-D a global Lipschitz bound is too coarse, so the unsat argument here is interval
    # arithmetic (IBP) on a partition of each box into 4^5 cells: a sound over-approximation of
    # the network on each cell (float64, margins >= 1e-3 dwarf its rounding).
    ac = random_net(4242, [5, 16, 16, 5])
    mean = [f32(v) for v in (1000.0, 0.0, 0.0, 500.0, 400.0)]
    std = [f32(v) for v in (500.0, 2.0, 2.0, 200.0, 200.0)]
    ac.pre = (mean, std)
    write_model(ac, "acas_like", "matmul", raw=True, in_dims=[1, 1, 1, 5])

    def raw_box(center, halfw):
        return ([round(c - w, 6) for c, w in zip(center, halfw)],
                [round(c + w, 6) for c, w in zip(center, halfw)])
    hw = [25.0, 0.1, 0.1, 10.0, 10.0]
    b1 = raw_box([1100.0, -2.5, -1.5, 800.0, 300.0], hw)   # Y_0 low here (found by sampling)
    b2 = raw_box([300.0, 2.5, 2.0, 820.0, 500.0], hw)      # Y_0 high here
    SPL = 4
    NA = 5
    mx1, _ = y_stats(ac, b1[0], b1[1], NA, [-1, 0, 0, 0, 0])
    mx2, w2 = y_stats(ac, b2[0], b2[1], NA, [-1, 0, 0, 0, 0])
    e0 = [-1, 0, 0, 0, 0]
    # unsafe: Y_0 >= t. Unsat: t above the IBP upper bound of Y_0 on every cell of both boxes.
    ub12 = -analyse_cells(ac, [b1, b2], [[(e0, 0.0)]], SPL)
    t_unsat = ceil_to(ub12 + 2 * MARGIN, 1e-3)
    pm = analyse_cells(ac, [b1, b2], [[(e0, -t_unsat)]], SPL)
    assert pm >= MARGIN, pm
    c_un = ([-1, 0, 0, 0, 0], -t_unsat)
    write_spec("acas_like", "acas_like_unsat", "", ac, [b1, b2], [[c_un]], "unsat",
               "Input: the union of two boxes (raw units, normalised inside the net). Unsafe: Y_0 >= %s.\n"
               "Interval arithmetic on %d^5 cells per box bounds Y_0 below %s by %.4f everywhere\n"
               "(sampled max of Y_0: %.6f and %.6f)." % (num(t_unsat), SPL, num(t_unsat), pm, -mx1, -mx2))
    # sat: threshold above box 1's proven maximum but below a sampled value in box 2
    ub1 = -analyse_cells(ac, [b1], [[(e0, 0.0)]], SPL)
    t_sat = ceil_to(ub1 + 2 * MARGIN, 1e-3)
    assert -mx2 >= t_sat + 0.05, (-mx2, t_sat)
    pm1 = analyse_cells(ac, [b1], [[([-1, 0, 0, 0, 0], -t_sat)]], SPL)
    assert pm1 >= MARGIN, pm1
    c_sat = ([-1, 0, 0, 0, 0], -t_sat)
    write_spec("acas_like", "acas_like_sat", "", ac, [b1, b2], [[c_sat]], "sat",
               "Unsafe: Y_0 >= %s. Box 1 is safe (interval arithmetic on %d^5 cells: Y_0 < %s by %.4f);\n"
               "box 2 is not: x = %s gives Y_0 = %.6f."
               % (num(t_sat), SPL, num(t_sat), pm1, fmt_x(w2), -mx2))

    # VNNLIB 2.0 queries: the same properties with tensor-indexed variables (and the ONNX names
    # for one of them); the verdicts are the VNNLIB 1 specs' own
    for model, name, in_dims, out_dims, typ, names in (
            ("tiny_relu", "tiny_relu_unsat", [1, 1], [1, 1], "Real", False),
            ("tiny_relu", "tiny_relu_sat", [1, 1], [1, 1], "float32", True),
            ("rand2_b", "rand2_b_dnf_sat", [1, rb.n_in], [1, rb.n_out], "float32", False),
            ("acas_like", "acas_like_unsat", [1, 1, 1, 5], [1, 5], "float32", False),
            ("acas_like", "acas_like_sat", [1, 1, 1, 5], [1, 5], "float32", True)):
        with open(os.path.join(specs_dir, name + ".vnnlib")) as f:
            text = f.read()
        with open(os.path.join(specs_dir, name + "_v2.vnnlib"), "w") as f:
            f.write(spec_v2_text(text, in_dims, out_dims, typ, ("X", "Y") if names else None))
        verdict = [v for m, sp, v in expected if sp == "specs/%s.vnnlib" % name][0]
        expected.append(("models/%s.onnx" % model, "specs/%s_v2.vnnlib" % name, verdict))

    pair_specs(models_dir, specs_dir, write_model)

    write_bad_inputs(root)

    with open(os.path.join(models_dir, "EXPECTED.csv"), "w") as f:
        f.write("onnx,vnnlib,expected\n")
        for row in expected:
            f.write(",".join(row) + "\n")
    return expected


def pair_specs(models_dir, specs_dir, write_model):
    """VNNLIB 2.0 queries over two networks, and one network's inputs tied (abs_split_tied_*),
    listed in models/EXPECTED_PAIRS.csv (models,vnnlib,expected; models as verify's NAME=PATH
    arguments, space-separated). X_f is the box [-1,1]^2,
    each query ties X_g to it, and Y_f, Y_g are evaluated on one 201x201 grid of the box (h = 0.01).
    D = Y_g[0] - Y_f[0] (or Y_f[0] - Y_g[0]) has Lipschitz constant L_f + L_g in the inf-norm of
    x; with x' (g's input) and x differing in one coordinate, a point (x, x') lies within h of a
    grid pair on each of the two, so D is within (L_f + L_g) h of the grid's value (h/2 when the
    inputs are all tied). Unsat: the threshold lies beyond the grid's extreme by that slack plus
    MARGIN; sat: a grid point beats the threshold by 0.01 or more."""
    ra = random_net(1234, [2, 12, 12, 3])   # rand2_a's and rand2_b's nets, rebuilt
    rb = random_net(777, [2, 16, 16, 3])
    n, lo, hi = 201, -1.0, 1.0
    h = (hi - lo) / (n - 1)
    axis = [lo + h * k for k in range(n)]
    rap = Net(ra.n_in, [lay if lay == "relu" else
                        ("dense", [[f32(w * (1 + 0.02 * math.sin(7.0 * r + 3.0 * c)))
                                    for c, w in enumerate(row)] for r, row in enumerate(lay[1])],
                         [f32(v * (1 + 0.02 * math.cos(5.0 * r))) for r, v in enumerate(lay[2])])
                        for lay in ra.layers])
    write_model(rap, "rand2_ap", "gemm", raw=True)
    ys = {}
    for name, net in (("a", ra), ("b", rb), ("ap", rap)):
        ys[name] = [[net.eval([x0, x1])[0] for x1 in axis] for x0 in axis]
    lip = {"a": ra.lipschitz(), "b": rb.lipschitz(), "ap": rap.lipschitz()}
    rows = []

    def head(rel, comment):
        return ("; %s\n(vnnlib-version <2.0>)\n"
                "(declare-network f (declare-input X_f real [1,2])"
                " (declare-output Y_f real [1,3]))\n"
                "(declare-network g%s (declare-input X_g real [1,2])"
                " (declare-output Y_g real [1,3]))\n"
                "(assert (and (>= X_f[0,0] -1.0) (<= X_f[0,0] 1.0) (>= X_f[0,1] -1.0)"
                " (<= X_f[0,1] 1.0)))\n" % (comment.replace("\n", "\n; "), rel))

    def put(name, models, text, verdict):
        with open(os.path.join(specs_dir, name + ".vnnlib"), "w") as f:
            f.write(text)
        rows.append((models, "specs/%s.vnnlib" % name, verdict))

    tied = "(assert (== X_f[0,0] X_g[0,0]))\n(assert (== X_f[0,1] X_g[0,1]))\n"
    # f = rand2_a, g = rand2_b (no relation: widths 12 and 16), tied inputs; D = Y_f[0] - Y_g[0]
    d_max = max(ys["a"][i][j] - ys["b"][i][j] for i in range(n) for j in range(n))
    slack = (lip["a"] + lip["b"]) * h / 2
    t_un = ceil_to(d_max + slack + MARGIN, 1e-3)
    assert t_un - d_max - slack >= MARGIN
    ab = "f=models/rand2_a.onnx g=models/rand2_b.onnx"
    put("pair_ab_unsat", ab, head("", "pair_ab_unsat: expected unsat. Grid max of Y_f[0] - Y_g[0]: "
                                  "%.6f; + (L_f + L_g) h/2 = %.6f < %s." % (d_max, d_max + slack,
                                                                           num(t_un)))
        + tied + "(assert (>= Y_f[0,0] (+ Y_g[0,0] %s)))\n" % num(t_un), "unsat")
    t_sat = floor_to(d_max - 0.05, 1e-3)
    put("pair_ab_sat", ab, head("", "pair_ab_sat: expected sat. A grid point has Y_f[0] - Y_g[0] "
                                "= %.6f >= %s." % (d_max, num(t_sat)))
        + tied + "(assert (>= Y_f[0,0] (+ Y_g[0,0] %s)))\n" % num(t_sat), "sat")
    # g equal-to f (one model given), tied inputs: Y_g = Y_f, so Y_g[1] > Y_f[1] + 0.001 is
    # impossible (each float execution's rounding is far below 0.001 on these nets)
    put("pair_eq_unsat", "models/rand2_a.onnx",
        head(" (equal-to f)", "pair_eq_unsat: expected unsat. g is f and reads f's input: "
             "Y_g = Y_f.")
        + tied + "(assert (> Y_g[0,1] (+ Y_f[0,1] 0.001)))\n", "unsat")
    # monotonic: g equal-to f, X_g[0] <= X_f[0], X_g[1] = X_f[1]; D = Y_g[0] - Y_f[0], its grid
    # maximum over pairs i' <= i of the first coordinate by a running maximum
    d_max, arg = -float("inf"), None
    for j in range(n):
        best, at = -float("inf"), 0
        for i in range(n):
            if ys["a"][i][j] > best:
                best, at = ys["a"][i][j], i
            if best - ys["a"][i][j] > d_max:
                d_max, arg = best - ys["a"][i][j], (axis[i], axis[at], axis[j])
    slack = 2 * lip["a"] * h
    mono = ("(assert (and (>= X_f[0,0] X_g[0,0]) (>= X_g[0,0] -1.0)))\n"
            "(assert (== X_f[0,1] X_g[0,1]))\n")
    t_un = ceil_to(d_max + slack + MARGIN, 1e-3)
    assert t_un - d_max - slack >= MARGIN
    put("pair_mono_unsat", "f=models/rand2_a.onnx g=models/rand2_a.onnx",
        head(" (equal-to f)", "pair_mono_unsat: expected unsat. Over x' <= x in the first input, "
             "grid max of Y_g[0] - Y_f[0]: %.6f;\n+ 2 L h = %.6f < %s." % (d_max, d_max + slack,
                                                                         num(t_un)))
        + mono + "(assert (>= Y_g[0,0] (+ Y_f[0,0] %s)))\n" % num(t_un), "unsat")
    t_sat = floor_to(d_max - 0.05, 1e-3)
    put("pair_mono_sat", "f=models/rand2_a.onnx",
        head(" (equal-to f)", "pair_mono_sat: expected sat. Witness x = (%.6g, %.6g), x' = "
             "(%.6g, %.6g): Y_g[0] - Y_f[0] = %.6f >= %s." % (arg[0], arg[2], arg[1], arg[2],
                                                            d_max, num(t_sat)))
        + mono + "(assert (>= Y_g[0,0] (+ Y_f[0,0] %s)))\n" % num(t_sat), "sat")
    # isomorphic: g = rand2_ap, rand2_a's weights moved by up to 2%, tied inputs; the unsafe set
    # |Y_g[0] - Y_f[0]| > eps
    d_abs = max(abs(ys["ap"][i][j] - ys["a"][i][j]) for i in range(n) for j in range(n))
    slack = (lip["a"] + lip["ap"]) * h / 2
    band = "(assert (or (> Y_g[0,0] (+ Y_f[0,0] %s)) (< Y_g[0,0] (- Y_f[0,0] %s))))\n"
    iso = "f=models/rand2_a.onnx g=models/rand2_ap.onnx"
    e_un = ceil_to(d_abs + slack + MARGIN, 1e-3)
    assert e_un - d_abs - slack >= MARGIN
    put("pair_iso_unsat", iso, head(" (isomorphic-to f)", "pair_iso_unsat: expected unsat. Grid "
                                    "max of |Y_g[0] - Y_f[0]|: %.6f; + (L_f + L_g) h/2 = %.6f < %s."
                                    % (d_abs, d_abs + slack, num(e_un)))
        + tied + band % (num(e_un), num(e_un)), "unsat")
    e_sat = floor_to(d_abs - 0.01, 1e-3)
    assert e_sat > 0
    put("pair_iso_sat", iso, head(" (isomorphic-to f)", "pair_iso_sat: expected sat. A grid point "
                                  "has |Y_g[0] - Y_f[0]| = %.6f > %s." % (d_abs, num(e_sat)))
        + tied + band % (num(e_sat), num(e_sat)), "sat")
    # the band asked as a conjunction (as VNN-COMP 2026's isomorphic example writes it): Y_g[0]
    # above Y_f[0] + eps and below Y_f[0] - eps at once, an empty unsafe set
    put("pair_iso_and_unsat", iso, head(" (isomorphic-to f)", "pair_iso_and_unsat: expected "
                                        "unsat. Y_g[0] > Y_f[0] + e and Y_g[0] < Y_f[0] - e "
                                        "cannot both hold.")
        + tied + band.replace("(or", "(and") % (num(e_sat), num(e_sat)), "unsat")
    # hidden nodes in a query over two networks: relu1 (the first ReLU's output, 12 values) of f
    # and of g = rand2_ap, tied inputs; the unit k whose grid |H_g[k] - H_f[k]| is largest. H[k]
    # = max(0, W1[k] x + b1[k]) has Lipschitz constant |W1[k]|_1 in the inf-norm.
    hid = {name: [[eval_layers(net.layers[:2], [x0, x1]) for x1 in axis] for x0 in axis]
           for name, net in (("a", ra), ("ap", rap))}
    diff = [max(abs(hid["ap"][i][j][k] - hid["a"][i][j][k]) for i in range(n) for j in range(n))
            for k in range(12)]
    k = max(range(12), key=lambda q: diff[q])
    slack = (sum(abs(w) for w in ra.layers[0][1][k])
             + sum(abs(w) for w in rap.layers[0][1][k])) * h / 2
    e_un = ceil_to(diff[k] + slack + MARGIN, 1e-3)
    assert e_un - diff[k] - slack >= MARGIN
    e_sat = floor_to(diff[k] - 0.01, 1e-3)
    assert e_sat > 0
    hidden_decl = '(declare-hidden %s real [1,12] "relu1") (declare-output'
    band_h = ("(assert (or (> H_g[0,%d] (+ H_f[0,%d] %%s)) (< H_g[0,%d] (- H_f[0,%d] %%s))))\n"
              % (k, k, k, k))
    for name, e, verdict, what in (("unsat", e_un, "unsat", "Grid max of |H_g[%d] - H_f[%d]|: "
                                    "%.6f; + (L_f + L_g) h/2 = %.6f < %s."
                                    % (k, k, diff[k], diff[k] + slack, num(e_un))),
                                   ("sat", e_sat, "sat", "A grid point has |H_g[%d] - H_f[%d]| "
                                    "= %.6f > %s." % (k, k, diff[k], num(e_sat)))):
        text = head(" (isomorphic-to f)", "pair_hidden_%s: expected %s. H_f, H_g: relu1, the first "
                    "ReLU's output, of f and g.\n%s" % (name, verdict, what))
        text = text.replace("(declare-output Y_f", hidden_decl % "H_f" + " Y_f")
        text = text.replace("(declare-output Y_g", hidden_decl % "H_g" + " Y_g")
        put("pair_hidden_" + name, iso, text + tied + band_h % (num(e), num(e)), verdict)
    # two networks of one model given twice (equal-to), declaring different hidden nodes: f its
    # relu1, g its relu2 (the second ReLU's output); D = H_g[k] - H_f[j] on the grid, whose
    # Lipschitz constant is at most relu2's (layers' product) plus |W1[j]|_1
    h2 = [[eval_layers(ra.layers[:4], [x0, x1]) for x1 in axis] for x0 in axis]
    d_max, k, j = max((max(h2[a][b][kk] - hid["a"][a][b][jj] for a in range(n) for b in range(n)),
                       kk, jj) for kk in (0, 5) for jj in (1, 2))
    slack = (lipschitz_layers(ra.layers[:4]) * (1 + 1e-9)
             + sum(abs(w) for w in ra.layers[0][1][j])) * h / 2
    t_un = ceil_to(d_max + slack + MARGIN, 1e-3)
    t_sat = floor_to(d_max - 0.01, 1e-3)
    for name, t, verdict, what in (("unsat", t_un, "unsat", "Grid max of H_g[%d] - H_f[%d]: %.6f; "
                                    "+ (L_g + L_f) h/2 = %.6f < %s." % (k, j, d_max,
                                                                       d_max + slack, num(t_un))),
                                   ("sat", t_sat, "sat", "A grid point has H_g[%d] - H_f[%d] = "
                                    "%.6f >= %s." % (k, j, d_max, num(t_sat)))):
        text = head(" (equal-to f)", "pair_hidden_eq_%s: expected %s. f's H_f is its relu1, g's "
                    "H_g its relu2.\n%s" % (name, verdict, what))
        text = text.replace("(declare-output Y_f", hidden_decl % "H_f" + " Y_f")
        text = text.replace("(declare-output Y_g", hidden_decl.replace("relu1", "relu2") % "H_g"
                            + " Y_g")
        put("pair_hidden_eq_" + name, "f=models/rand2_a.onnx g=models/rand2_a.onnx",
            text + tied + "(assert (>= H_g[0,%d] (+ H_f[0,%d] %s)))\n" % (k, j, num(t)), verdict)
    # one network whose two inputs are tied: abs_split's y = ||x0| - |x1|| is 0 on x1 = x0, so
    # Y_0 >= 0.01 is impossible there and Y_0 <= 0.001 holds everywhere on it
    for name, unsafe, verdict in (("tied_unsat", "(>= Y_0 0.01)", "unsat"),
                                  ("tied_sat", "(<= Y_0 0.001)", "sat")):
        put("abs_split_" + name, "models/abs_split.onnx",
            "; abs_split_%s: expected %s. y = ||x0| - |x1|| = 0 wherever X_1 = X_0.\n"
            "(declare-const X_0 Real)\n(declare-const X_1 Real)\n(declare-const Y_0 Real)\n"
            "(assert (>= X_0 -1.0))\n(assert (<= X_0 1.0))\n(assert (= X_1 X_0))\n"
            "(assert %s)\n" % (name, verdict, unsafe), verdict)
    multi_io_specs(ra, axis, h, lip["a"], models_dir, put)
    with open(os.path.join(models_dir, "EXPECTED_PAIRS.csv"), "w") as f:
        f.write("models,vnnlib,expected\n")
        for row in rows:
            f.write(",".join(row) + "\n")


def multi_io_specs(net, axis, h, lip, models_dir, put):
    """models/multi_io.onnx: rand2_a's net with two graph inputs, pos [1,1] and vel [1,1] (Concat
    into its input), and two graph outputs, score [1,2] and aux [1,1] (its output Split), and
    VNNLIB 2.0 queries on it with known verdicts (the grid argument of pair_specs, h = 0.01 on
    [-1,1]^2): by order, and by ONNX name with the tensors declared in another order than the
    model's (verify lays them out as the model has them; the result file lists them as declared)."""
    text = model_text(net, "multi_io", "gemm", raw=True)
    head, tail = text.split("  input {", 1)
    tail = tail[tail.index("  output {"):]
    tail = tail[:tail.index("  output {")]
    text = (head.replace("graph {\n  name: \"multi_io\"\n", "graph {\n  name: \"multi_io\"\n"
                         + node_text("Concat", ["pos", "vel"], ["X"], "join_inputs",
                                     [("axis", "INT", 1)]))
            + node_text("Split", ["Y", "split_sizes"], ["score", "aux"], "split_outputs",
                        [("axis", "INT", 1)])
            + "  initializer {\n    dims: 2\n    data_type: 7\n"
            "    name: \"split_sizes\"\n    int64_data: 2\n    int64_data: 1\n  }\n"
            + value_info_text("input", "pos", [1, 1]) + value_info_text("input", "vel", [1, 1])
            + value_info_text("output", "score", [1, 2]) + value_info_text("output", "aux", [1, 1])
            + tail + "}\n")
    encode_model(text, os.path.join(models_dir, "multi_io.onnx"))
    ys = [[net.eval([x0, x1]) for x1 in axis] for x0 in axis]
    aux_max = max(y[2] for row in ys for y in row)
    d_max = max(y[0] - y[2] for row in ys for y in row)
    box = ("(assert (and (>= %s -1.0) (<= %s 1.0)))\n" * 2)
    order = ("(vnnlib-version <2.0>)\n(declare-network m (declare-input p real [1,1])"
             " (declare-input v real [1,1]) (declare-output s real [1,2])"
             " (declare-output a real [1,1]))\n" + box % ("p[0,0]", "p[0,0]", "v[0,0]", "v[0,0]"))
    named = ("(vnnlib-version <2.0>)\n(declare-network m (declare-input v real [1,1] \"vel\")"
             " (declare-input p real [1,1] \"pos\") (declare-output a real [1,1] \"aux\")"
             " (declare-output s real [1,2] \"score\"))\n"
             + box % ("p[0,0]", "p[0,0]", "v[0,0]", "v[0,0]"))
    t_un = ceil_to(aux_max + lip * h / 2 + MARGIN, 1e-3)
    put("multi_io_order_unsat", "models/multi_io.onnx",
        "; multi_io_order_unsat: expected unsat. Grid max of aux: %.6f; + L h/2 = %.6f < %s.\n"
        % (aux_max, aux_max + lip * h / 2, num(t_un))
        + order + "(assert (>= a[0,0] %s))\n" % num(t_un), "unsat")
    t_un = ceil_to(d_max + lip * h + MARGIN, 1e-3)   # score[0] - aux: Lipschitz 2 L
    put("multi_io_named_unsat", "models/multi_io.onnx",
        "; multi_io_named_unsat: expected unsat. Grid max of score[0] - aux: %.6f; + 2 L h/2 = "
        "%.6f < %s.\n" % (d_max, d_max + lip * h, num(t_un))
        + named + "(assert (>= s[0,0] (+ a[0,0] %s)))\n" % num(t_un), "unsat")
    # declare-hidden: fc1 = W1 x + b1 (rand2_a's first layer, affine) and relu1 = relu(fc1)
    W1, b1 = net.layers[0][1], net.layers[0][2]
    z_max = b1[0] + abs(W1[0][0]) + abs(W1[0][1])    # its exact maximum on [-1,1]^2 (float64)
    t_z = ceil_to(z_max * (1 + 1e-12) + MARGIN, 1e-3)
    hid = ("(vnnlib-version <2.0>)\n(declare-network m (declare-input p real [1,1])"
           " (declare-input v real [1,1]) (declare-hidden z real [1,12] \"fc1\")"
           " (declare-hidden r real [1,12] \"relu1\") (declare-output s real [1,2])"
           " (declare-output a real [1,1]))\n" + box % ("p[0,0]", "p[0,0]", "v[0,0]", "v[0,0]"))
    put("multi_io_hidden_unsat", "models/multi_io.onnx",
        "; multi_io_hidden_unsat: expected unsat. fc1[0] = W1[0] x + b1[0] is at most %.9f on "
        "the box,\n; below %s; relu1 is never negative.\n" % (z_max, num(t_z))
        + hid + "(assert (or (>= z[0,0] %s) (< r[0,3] -0.001)))\n" % num(t_z), "unsat")
    best = max(((y[2], (x0, x1)) for x0, row in zip(axis, ys) for x1, y in zip(axis, row)))
    x0, x1 = best[1]
    r = [max(0.0, w[0] * x0 + w[1] * x1 + bb) for w, bb in zip(W1, b1)]
    j = max(range(len(r)), key=lambda q: r[q])
    put("multi_io_hidden_sat", "models/multi_io.onnx",
        "; multi_io_hidden_sat: expected sat. At (%.6g, %.6g), aux = %.6f and relu1[%d] = %.6f,\n"
        "; each 0.05 above its threshold.\n" % (x0, x1, best[0], j, r[j])
        + hid + "(assert (>= a[0,0] %s))\n(assert (>= r[0,%d] %s))\n"
        % (num(floor_to(best[0] - 0.05, 1e-3)), j, num(floor_to(r[j] - 0.05, 1e-3))), "sat")
    t_sat = floor_to(d_max - 0.05, 1e-3)
    put("multi_io_named_sat", "models/multi_io.onnx",
        "; multi_io_named_sat: expected sat. A grid point has score[0] - aux = %.6f >= %s.\n"
        % (d_max, num(t_sat)) + named + "(assert (>= s[0,0] (+ a[0,0] %s)))\n" % num(t_sat),
        "sat")


def write_bad_inputs(root):
    """Fixtures for scripts/regress.sh: every one must make verify exit 5 ("bad input").
    Models pair with specs/abs_split_unsat.vnnlib, specs with models/abs_split.onnx (2 in, 1 out)."""
    bad = os.path.join(root, "tests", "data", "bad")
    os.makedirs(bad, exist_ok=True)
    with open(os.path.join(root, "models", "abs_split.onnx"), "rb") as f:
        good = f.read()
    rng = random.Random(99)
    files = {
        "empty.onnx": b"",
        # cut in the middle of the length-delimited graph message
        "truncated.onnx": good[: len(good) // 2],
        "random.onnx": bytes(rng.randrange(256) for _ in range(512)),
    }
    box = ("(assert (>= X_0 -1.0))\n(assert (<= X_0 1.0))\n"
           "(assert (>= X_1 -1.0))\n(assert (<= X_1 1.0))\n")
    decl = "(declare-const X_0 Real)\n(declare-const X_1 Real)\n(declare-const Y_0 Real)\n"
    files["syntax.vnnlib"] = ("; unbalanced parentheses\n" + decl + box
                              + "(assert (<= Y_0 -0.05)\n").encode()
    files["three_inputs.vnnlib"] = ("; 3 inputs declared, the network has 2\n" + decl
                                    + "(declare-const X_2 Real)\n" + box
                                    + "(assert (>= X_2 0.0))\n(assert (<= X_2 1.0))\n"
                                    + "(assert (<= Y_0 -0.05))\n").encode()
    files["two_outputs.vnnlib"] = ("; 2 outputs declared, the network has 1\n" + decl
                                   + "(declare-const Y_1 Real)\n" + box
                                   + "(assert (<= Y_0 Y_1))\n").encode()
    files["unbounded.vnnlib"] = ("; X_1 has no upper bound\n" + decl
                                 + "(assert (>= X_0 -1.0))\n(assert (<= X_0 1.0))\n"
                                 + "(assert (>= X_1 -1.0))\n(assert (<= Y_0 -0.05))\n").encode()
    files["empty.vnnlib"] = b""
    net2 = ("(vnnlib-version <2.0>)\n(declare-network f (declare-input X real [1,2]) "
            "(declare-output Y real [1,1]))\n")
    files["v2_two_networks.vnnlib"] = (
        "; VNNLIB 2.0 over two networks: run with one model, or two of different layer sequences\n"
        + net2 + "(declare-network g (declare-input A real [1,2]) (declare-output B real [1,3]))\n"
        + "(assert (and (>= X[0,0] -1) (<= X[0,0] 1) (>= X[0,1] -1) (<= X[0,1] 1)))\n"
        + "(assert (== A[0,0] X[0,0]))\n(assert (== A[0,1] X[0,1]))\n"
        + "(assert (>= Y[0,0] (+ B[0,0] 1)))\n").encode()
    files["v2_bad_index.vnnlib"] = (
        "; VNNLIB 2.0: X[0,2] is past X's shape [1,2]\n" + net2
        + "(assert (and (>= X[0,0] -1) (<= X[0,0] 1) (>= X[0,1] -1) (<= X[0,2] 1)))\n"
        + "(assert (<= Y[0,0] -0.05))\n").encode()
    files["v2_onnx_name.vnnlib"] = (
        "; VNNLIB 2.0: the input is named for an ONNX tensor the model does not have\n"
        + net2.replace("[1,2])", '[1,2] "image")')
        + "(assert (and (>= X[0,0] -1) (<= X[0,0] 1) (>= X[0,1] -1) (<= X[0,1] 1)))\n"
        + "(assert (<= Y[0,0] -0.05))\n").encode()
    files["v2_float64_type.vnnlib"] = (
        "; VNNLIB 2.0: float64 declared for a model whose input holds float32 values\n"
        + net2.replace("X real", "X float64")
        + "(assert (and (>= X[0,0] -1) (<= X[0,0] 1) (>= X[0,1] -1) (<= X[0,1] 1)))\n"
        + "(assert (<= Y[0,0] -0.05))\n").encode()
    files["v2_multi_io_name.vnnlib"] = (
        "; VNNLIB 2.0 for models/multi_io.onnx (inputs pos, vel): 'velocity' names no input\n"
        "(vnnlib-version <2.0>)\n(declare-network m (declare-input v real [1,1] \"velocity\")"
        " (declare-input p real [1,1] \"pos\") (declare-output a real [1,1] \"aux\")"
        " (declare-output s real [1,2] \"score\"))\n"
        "(assert (and (>= p[0,0] -1) (<= p[0,0] 1) (>= v[0,0] -1) (<= v[0,0] 1)))\n"
        "(assert (>= s[0,0] 1))\n").encode()
    for name, data in files.items():
        with open(os.path.join(bad, name), "wb") as f:
            f.write(data)
    # a well-formed model (2 in, 1 out) whose middle node is an operator verify does not support
    text = ('ir_version: 7\nopset_import { version: 13 }\ngraph {\n  name: "unsupported"\n'
            + node_text("Gemm", ["X", "W"], ["H"], "gemm", [("transB", "INT", 1)])
            + node_text("Hardmax", ["H"], ["S"], "hardmax_1")
            + node_text("Gemm", ["S", "V"], ["Y"], "out", [("transB", "INT", 1)])
            + tensor_text("W", [2, 2], [1.0, 0.0, 0.0, 1.0], False)
            + tensor_text("V", [1, 2], [1.0, 1.0], False)
            + value_info_text("input", "X", [1, 2])
            + value_info_text("output", "Y", [1, 1]) + "}\n")
    encode_model(text, os.path.join(bad, "unsupported_op.onnx"))
    # the same with a LogSoftmax in the middle (verify takes one only as the last operation; a
    # Softmax there is lowered)
    middle = text.replace('"Hardmax"', '"LogSoftmax"').replace('"hardmax_1"', '"logsoftmax_1"')
    encode_model(middle.replace('"unsupported"', '"logsoftmax_middle"'),
                 os.path.join(bad, "logsoftmax_middle.onnx"))
    # for models/soft2.onnx (2 in, 3 out, ending in a Softmax): a threshold on one probability,
    # which the Softmax's input alone cannot answer
    decl3 = decl + "(declare-const Y_1 Real)\n(declare-const Y_2 Real)\n"
    with open(os.path.join(bad, "softmax_threshold.vnnlib"), "wb") as f:
        f.write(("; a threshold on a Softmax output (supported: comparisons of two outputs)\n"
                 + decl3 + box + "(assert (>= Y_0 0.5))\n").encode())


def main():
    ap = argparse.ArgumentParser(description="Generate models/ and specs/ with known verdicts.")
    ap.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..")), help="repository root (default: the script's ..)")
    args = ap.parse_args()
    if not os.path.isfile(ONNX_PROTO):
        sys.exit("make_models.py: %s not found (install libonnx-dev)" % ONNX_PROTO)
    rows = build(args.root)
    for onnx, spec, verdict in rows:
        print("%-24s %-34s %s" % (onnx, spec, verdict))


if __name__ == "__main__":
    main()
