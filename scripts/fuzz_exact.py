#!/usr/bin/python3
"""Soundness fuzzing against exact minima, thresholds on both sides of them.

usage: fuzz_exact.py VERIFY_BIN [--count N] [--seed S] [--timeout T] [--jobs J] [--keep DIR]
                     [--modes M1,M2,...] [--pinned-only]

Each trial is a random ReLU network with one or two inputs and one output (float32 weights, 1 to 3
hidden layers of 2 to 8 neurons) and a random box. The exact real minimum and maximum of its output
over the box are computed in rational arithmetic (fractions): the box is cut into the network's
linear regions (intervals, or convex polygons, cut by each ReLU's zero set in turn), on each of
which the output is one affine function, so its extremes lie at the regions' vertices. Nothing of
verify is used.

The specs then put the unsafe set just past or just short of an extreme, "Y_0 <= t" (and
"Y_0 >= t"), t a decimal past it by 1e-4, 1e-7 and 1e-10 of its scale (1 + |extreme|), short of
it by 1e-4 and 1e-7, and the extreme's own nearest float64 in decimal. For each, t read exactly:

* t at or past the extreme (a real input reaches the unsafe set): `unsat` is WRONG.
* t short of it (the property holds for the reals): `unsat` and `unknown`/`timeout` are right.
* A `sat` must give a point of the box where the real network (evaluated exactly) or its float32
  execution (numpy) is in the unsafe set, else it is WRONG; one where only the float32 execution is
  (possible short of the extreme) is counted apart.
* `unsat` in the default (float) semantics must hold for float32 executions too: the float32
  network is evaluated (numpy, float32) at the real extreme's nearest float32 points in the box;
  an output in the unsafe set there makes that `unsat` WRONG.

A quarter of the one-input trials (every trial with --pinned-only, each then of one input) pin
their input to one 6-digit decimal (X_0 = d, lo = hi), a
real point that is no float32 value (nor double) in general: the region is that point. Then a
`sat` must print a float32 value next to d (no float32 value between them), and the real
network at d itself must be in the unsafe set (verify claims it there), else it is WRONG; and an
`unsat` in the float semantics is WRONG when the float32 network at d's float32 rounding is in
the unsafe set (what a float32 runtime computes for that input).

Every mode in --modes (default: the default options, `--split relu`, `--split input`,
`--real-only`) runs every spec. Prints one line per wrong answer,
then the counts of each verdict per truth, and exits 1 when any answer was wrong. Deterministic
for a seed (the networks, boxes and thresholds; verify's verdicts may still depend on time).
"""
import argparse
import concurrent.futures
import functools
import os
import random
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_models as mm  # noqa: E402  (the ONNX and VNNLIB writers)

MAX_CELLS = 20000  # a net cut into more linear regions than this is skipped (exact arithmetic)


def short_f32(rng, sd, bits):
    """A float32 value of at most `bits` significant bits."""
    v = rng.gauss(0.0, sd)
    if v == 0:
        return 0.0
    e = 2.0 ** (int(np.floor(np.log2(abs(v)))) - (bits - 1))
    return mm.f32(round(v / e) * e)


def random_trial(rng, pinned_only=False):
    """A random net, its input box (decimal strings) and, for a net of more than two inputs, the
    factors (P, U) of its first layer, W1 = U P exactly with P of 2 rows: its output is then a
    function of P x, whose range over the box is a polygon."""
    n_in = 1 if pinned_only else rng.choice((1, 2, 2, 24, 96))
    depth = rng.randint(1, 3)
    sizes = [n_in] + [rng.randint(2, 8) for _ in range(depth)] + [1]
    layers = []
    proj = None
    for i in range(len(sizes) - 1):
        fi, fo = sizes[i], sizes[i + 1]
        sd = (2.0 / fi) ** 0.5
        if i == 0 and n_in > 2:
            # short mantissas (10 and 4 bits), drawn again until every entry of U P is exact
            while True:
                P = [[short_f32(rng, sd, 10) for _ in range(fi)] for _ in range(2)]
                U = [[short_f32(rng, 1.0, 4) for _ in range(2)] for _ in range(fo)]
                W = [[mm.f32(u[0] * P[0][j] + u[1] * P[1][j]) for j in range(fi)] for u in U]
                if all(Fraction(W[o][j]) == Fraction(U[o][0]) * Fraction(P[0][j])
                       + Fraction(U[o][1]) * Fraction(P[1][j])
                       for o in range(fo) for j in range(fi)):
                    break
            proj = (P, U)
        else:
            W = [[mm.f32(rng.gauss(0.0, sd)) for _ in range(fi)] for _ in range(fo)]
        b = [mm.f32(rng.gauss(0.0, 0.3)) for _ in range(fo)]
        layers.append(("dense", W, b))
        if i < len(sizes) - 2:
            layers.append("relu")
    lo, hi = [], []
    pinned = pinned_only or (n_in == 1 and rng.random() < 0.25)
    for _ in range(n_in):
        c, r = rng.uniform(-1, 1), rng.choice((1e-3, 0.05, 0.5, 2.0)) * rng.uniform(0.2, 1)
        lo.append(repr(round(c, 6)) if pinned else repr(round(c - r, 6)))
        hi.append(lo[-1] if pinned else repr(round(c + r, 6)))
    return mm.Net(n_in, layers), lo, hi, proj


# ---- exact linear regions ------------------------------------------------------------------
# A cell: (vertices, A, c): a convex region (an interval's two ends, or a polygon's vertices in
# order), on which the current layer's values are A x + c exactly (A: rows of Fractions).

def cut(verts, g):
    """The parts of a convex cell where g >= 0 and g <= 0 (g affine: (a, c)), or None when g keeps
    one sign on it."""
    a, c0 = g
    val = [sum(ai * vi for ai, vi in zip(a, v)) + c0 for v in verts]
    if all(x >= 0 for x in val) or all(x <= 0 for x in val):
        return None
    if len(verts[0]) == 1:  # an interval: its ends, in order
        (p,), (q,) = verts
        t = val[0] / (val[0] - val[1])
        m = (p + t * (q - p),)
        pos, neg = ([verts[0], m], [m, verts[1]]) if val[0] > 0 else ([m, verts[1]], [verts[0], m])
        return pos, neg
    pos, neg = [], []
    n = len(verts)
    for i in range(n):
        v, w, gv, gw = verts[i], verts[(i + 1) % n], val[i], val[(i + 1) % n]
        if gv >= 0:
            pos.append(v)
        if gv <= 0:
            neg.append(v)
        if (gv > 0 and gw < 0) or (gv < 0 and gw > 0):
            t = gv / (gv - gw)
            m = tuple(vi + t * (wi - vi) for vi, wi in zip(v, w))
            pos.append(m)
            neg.append(m)
    return pos, neg


def zonotope(P, L, H):
    """The polygon {P x : x in [L, H]} (P 2 x n): its vertices in order, each with the box corner
    that P maps to it."""
    n = len(L)
    c = tuple(sum(Fraction(P[k][j]) * (L[j] + H[j]) / 2 for j in range(n)) for k in range(2))
    gens = []  # (generator, the coordinates it moves), each pointing into the upper half-plane
    for j in range(n):
        g = (Fraction(P[0][j]) * (H[j] - L[j]) / 2, Fraction(P[1][j]) * (H[j] - L[j]) / 2)
        if g == (0, 0):
            continue
        up = g[1] > 0 or (g[1] == 0 and g[0] > 0)
        gens.append(((g if up else (-g[0], -g[1])), j, 1 if up else -1))

    def key(a, b):  # by angle in [0, pi)
        cr = a[0][0] * b[0][1] - a[0][1] * b[0][0]
        return -1 if cr > 0 else (1 if cr < 0 else 0)
    gens.sort(key=functools.cmp_to_key(key))
    # start at the vertex minimising every generator's direction, then add each twice, in order
    sign = [-1] * n  # the corner: -1 at L_j, +1 at H_j, per the generator's orientation
    for g, j, o in gens:
        sign[j] = -o
    v = (c[0] - sum(g[0] for g, _, _ in gens), c[1] - sum(g[1] for g, _, _ in gens))
    verts = []
    for step in range(2):
        i = 0
        while i < len(gens):
            grp = [gens[i]]
            while i + len(grp) < len(gens) and key(gens[i], gens[i + len(grp)]) == 0:
                grp.append(gens[i + len(grp)])
            verts.append((v, list(sign)))
            for g, j, o in grp:
                mul = 2 if step == 0 else -2
                v = (v[0] + mul * g[0], v[1] + mul * g[1])
                sign[j] = o if step == 0 else -o
            i += len(grp)
    corners = {}
    out = []
    for vv, sg in verts:
        corners[vv] = tuple(H[j] if sg[j] > 0 else L[j] for j in range(n))
        out.append(vv)
    return out, corners


def exact_extremes(net, lo, hi, proj=None):
    """(min, max) of the net's output over the box [lo, hi] (decimal strings), as Fractions, each
    with a point attaining it (an input; for a net whose first layer is U P, proj = (P, U), the box
    corner that P maps to it when it is one, else None); None when the net has too many linear
    regions."""
    L = [Fraction(s) for s in lo]
    H = [Fraction(s) for s in hi]
    d = net.n_in if proj is None else 2
    corners = None
    layers = net.layers
    if proj is not None:
        # the regions of the plane y = P x over the polygon P [L, H]; the first layer is U y
        P, U = proj
        verts, corners = zonotope(P, L, H)
        layers = [("dense", U, layers[0][2])] + list(layers[1:])
    elif d == 1:
        verts = [(L[0],), (H[0],)]
    else:
        verts = [(L[0], L[1]), (H[0], L[1]), (H[0], H[1]), (L[0], H[1])]
    ident = [[Fraction(int(i == j)) for j in range(d)] for i in range(d)]
    cells = [(verts, ident, [Fraction(0)] * d)]
    for layer in layers:
        if layer == "relu":
            n = len(cells[0][1])
            for j in range(n):
                nxt = []
                for vs, A, c in cells:
                    parts = cut(vs, (A[j], c[j]))
                    nxt.extend([(vs, A, c)] if parts is None else
                               [(p, A, c) for p in parts if len(p) >= (2 if d == 1 else 3)])
                cells = nxt
                if len(cells) > MAX_CELLS:
                    return None
            out = []
            for vs, A, c in cells:
                cen = [sum(v[i] for v in vs) / len(vs) for i in range(d)]
                A2, c2 = [], []
                for j in range(len(A)):
                    on = sum(a * x for a, x in zip(A[j], cen)) + c[j] >= 0
                    A2.append(A[j] if on else [Fraction(0)] * d)
                    c2.append(c[j] if on else Fraction(0))
                out.append((vs, A2, c2))
            cells = out
            continue
        _, W, b = layer
        Wf = [[Fraction(w) for w in row] for row in W]
        bf = [Fraction(v) for v in b]
        out = []
        for vs, A, c in cells:
            A2 = [[sum(Wf[o][k] * A[k][i] for k in range(len(A))) for i in range(d)]
                  for o in range(len(Wf))]
            c2 = [sum(Wf[o][k] * c[k] for k in range(len(A))) + bf[o] for o in range(len(Wf))]
            out.append((vs, A2, c2))
        cells = out
    best_lo = best_hi = None
    for vs, A, c in cells:
        for v in vs:
            y = sum(a * x for a, x in zip(A[0], v)) + c[0]
            if best_lo is None or y < best_lo[0]:
                best_lo = (y, v)
            if best_hi is None or y > best_hi[0]:
                best_hi = (y, v)
    if corners is not None:  # the input attaining it: a box corner, or unknown (None)
        best_lo = (best_lo[0], corners.get(best_lo[1]))
        best_hi = (best_hi[0], corners.get(best_hi[1]))
    return best_lo, best_hi


# ---- float32 executions ----------------------------------------------------------------------

def f32_forward(net, x):
    v = np.array(x, dtype=np.float32)
    for layer in net.layers:
        if layer == "relu":
            v = np.maximum(v, np.float32(0))
        else:
            _, W, b = layer
            v = np.array(W, dtype=np.float32) @ v + np.array(b, dtype=np.float32)
    return float(v[0])


def exact_forward(net, x):
    """The real network's output at x, exactly (the float32 weights as rationals)."""
    v = [Fraction(xi) for xi in x]
    for layer in net.layers:
        if layer == "relu":
            v = [max(t, Fraction(0)) for t in v]
        else:
            _, W, b = layer
            v = [sum(Fraction(w) * t for w, t in zip(row, v)) + Fraction(bj)
                 for row, bj in zip(W, b)]
    return v[0]


def next_to(x, d):
    """Whether the float32 value x lies next to the real d: no float32 value strictly between."""
    f = np.float32(x)
    if float(f) != x:
        return False
    below = Fraction(float(np.nextafter(f, np.float32(-np.inf))))
    above = Fraction(float(np.nextafter(f, np.float32(np.inf))))
    return below <= d <= above


def f32_nearest(d):
    """The float32 rounding (to nearest) of the real d."""
    f = np.float32(float(d))
    cand = [f, np.nextafter(f, np.float32(-np.inf)), np.nextafter(f, np.float32(np.inf))]
    return float(min(cand, key=lambda p: abs(Fraction(float(p)) - d)))


def f32_points(v, lo, hi):
    """The float32 points in the box nearest to a real point v: per coordinate its float32
    neighbours below and above, kept inside [lo, hi] (as float32 values, which may be a hair
    inside the decimal ends); every combination for up to 4 inputs, else the nearest one alone
    (3^96 combinations would not fit in memory)."""
    axes = []
    for vi, ls, hs in zip(v, lo, hi):
        L, H = Fraction(ls), Fraction(hs)
        c = np.float32(float(vi))
        cand = {c, np.nextafter(c, np.float32(-np.inf)), np.nextafter(c, np.float32(np.inf))}
        inside = sorted((p for p in cand if L <= Fraction(float(p)) <= H),
                        key=lambda p: abs(Fraction(float(p)) - vi))
        axes.append(inside if len(v) <= 4 else inside[:1])
    pts = [[]]
    for ax in axes:
        pts = [p + [q] for p in pts for q in ax]
    return pts


# ---- one verify run ----------------------------------------------------------------------------

def run_one(args):
    binary, model, spec, mode, timeout = args
    res = spec + "." + mode.replace(" ", "_").replace("-", "") + ".res"
    cmd = [binary, model, spec, "--timeout", str(timeout), "--result", res] + mode.split()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout + 30)
        verdict = p.stdout.decode().strip()
    except subprocess.TimeoutExpired:
        return "hang", None
    x = None
    if verdict == "sat":
        x = {}
        with open(res) as f:
            for tok in f.read().replace("(", " ").replace(")", " ").split("\n"):
                parts = tok.split()
                if len(parts) == 2 and parts[0].startswith("X_"):
                    x[int(parts[0][2:])] = float(parts[1])
        x = [x[i] for i in sorted(x)]
    return verdict, x


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verify")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", default=None, help="directory to write the models and specs to")
    ap.add_argument("--modes", default=",--split relu,--split input,--real-only")
    ap.add_argument("--pinned-only", action="store_true",
                    help="every trial one input pinned to a decimal point")
    a = ap.parse_args()
    binary = os.path.abspath(a.verify)
    modes = a.modes.split(",")
    work = a.keep or tempfile.mkdtemp(prefix="fuzz_exact.")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(a.seed)
    jobs, meta = [], []
    skipped = 0
    for t in range(a.count):
        net, lo, hi, proj = random_trial(rng, a.pinned_only)
        ext = exact_extremes(net, lo, hi, proj)
        if ext is None:
            skipped += 1
            continue
        model = os.path.join(work, "n%d.onnx" % t)
        mm.encode_model(mm.model_text(net, "fuzz%d" % t, "gemm", True), model)
        for side, (m, where) in (("min", ext[0]), ("max", ext[1])):
            # the unsafe set "Y_0 <= t" past the minimum, "Y_0 >= t" past the maximum
            scale = 1 + abs(m)
            # past the extreme by 1e-4, 1e-7 and 1e-10 of its scale, short of it by 1e-4 and
            # 1e-7 (1e-10 short is beyond any bound's reach), and the extreme's nearest float64
            targets = [Fraction(repr(float(m)))]
            for k, sides in ((4, (-1, 1)), (7, (-1, 1)), (10, (1,))):
                for sgn in sides:
                    past = sgn if side == "min" else -sgn
                    targets.append(Fraction(repr(float(m + past * scale * Fraction(1, 10 ** k)))))
            for i, thr in enumerate(targets):
                c, d = ([1.0], float(thr)) if side == "min" else ([-1.0], -float(thr))
                spec = os.path.join(work, "n%d_%s%d.vnnlib" % (t, side, i))
                with open(spec, "w") as f:
                    f.write(mm.spec_text("fuzz_exact", net.n_in, 1,
                                         [([float(v) for v in lo], [float(v) for v in hi])],
                                         [[(c, d)]]))
                # reached: a real input of the box is in the unsafe set
                reached = m <= thr if side == "min" else m >= thr
                for mode in modes:
                    jobs.append((binary, model, spec, mode, a.timeout))
                    meta.append((t, side, thr, reached, where, net, lo, hi, mode))
    wrong = 0
    counts = {}
    f32_sat = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for (t, side, thr, reached, where, net, lo, hi, mode), (verdict, x) in zip(
                meta, ex.map(run_one, jobs)):
            pinned = lo[0] == hi[0] and net.n_in == 1
            key = ("reached" if reached else "short", verdict)
            counts[key] = counts.get(key, 0) + 1
            bad = None

            def unsafe(y):
                return Fraction(y) <= thr if side == "min" else Fraction(y) >= thr
            if verdict in ("error", "hang", ""):
                bad = "verdict %r" % verdict
            elif verdict == "unsat" and reached:
                bad = "unsat, but a real input reaches the unsafe set"
            elif verdict == "unsat" and "--real-only" not in mode and pinned:
                p = [f32_nearest(Fraction(lo[0]))]
                if unsafe(f32_forward(net, p)):
                    bad = "unsat, but the float32 net at %r (the pinned input's rounding) " \
                          "reaches the unsafe set" % p
            elif verdict == "unsat" and "--real-only" not in mode and where is not None:
                for p in f32_points(where, lo, hi):
                    if unsafe(f32_forward(net, p)):
                        bad = "unsat, but the float32 net at %r reaches the unsafe set" % p
                        break
            elif verdict == "sat" and pinned:
                d = Fraction(lo[0])
                y, y32 = exact_forward(net, [d]), f32_forward(net, x)
                if not next_to(x[0], d) or not unsafe(y):
                    bad = ("sat, but %r is not next to the pinned %s or the real output there, "
                           "%s, is safe (float32 at it: %r)" % (x, lo[0], float(y), y32))
            elif verdict == "sat":
                inside = all(Fraction(ls) <= Fraction(v) <= Fraction(hs)
                             for v, ls, hs in zip(x, lo, hi))
                y, y32 = exact_forward(net, x), f32_forward(net, x)
                if not inside or not (unsafe(y) or unsafe(y32)):
                    bad = ("sat, but its counterexample %r (real output %s, float32 %r) is not one"
                           % (x, float(y), y32))
                elif not unsafe(y):
                    f32_sat += 1
            if bad:
                wrong += 1
                print("WRONG: n%d %s t=%s mode %r: %s" % (t, side, thr, mode, bad))
    print("fuzz_exact: %d trials (%d skipped: too many regions), %d runs%s"
          % (a.count, skipped, len(jobs), ", in " + work if a.keep else ""))
    for k in sorted(counts):
        print("  %-8s %-8s %d" % (k[0], k[1], counts[k]))
    print("  sat where only the float32 network crosses: %d" % f32_sat)
    print("fuzz_exact: %d wrong" % wrong)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
