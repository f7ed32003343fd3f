#!/usr/bin/python3
"""Soundness fuzzing of every activation and operator mix against sampled extremes.

usage: fuzz_sampled.py VERIFY_BIN [--count N] [--seed S] [--timeout T] [--jobs J] [--keep DIR]
                       [--modes=M1,M2,...]   (with "=": a mode may begin with a dash)

fuzz_exact.py knows the exact extremes of ReLU networks. This script covers what it cannot: each
trial is a random network that mixes the layer kinds of scripts/make_models.py (dense layers with
ReLU, Sigmoid, Tanh, Erf, Gelu and its tanh form, SiLU as a Mul of a Sigmoid, Swish, Mish, Elu,
Softsign, HardSwish, HardSigmoid, LeakyRelu, Abs, Softplus, Sin, Cos, Sign, LayerNorm as PyTorch
exports it, a Softmax over groups, products of computed values, Max/Min, ReduceMax/Min, a Where
by position, MaxPool, residual blocks, and Conv, ConvTranspose, Resize and Split on the vector
read as an image) on a random box of 1 to 8 inputs.

Its outputs are sampled by scripts/check_cex.py's float64 evaluator (which shares no code with
verify) on the box's corners, random points and a local search from the best of them, all at
float32 points of the box. For the least sampled value m of an output (and the greatest, M), the
specs "Y_k <= m + d" and "Y_k >= M - d" are unsafe sets a real input of the box reaches (the
sampled point itself), for d of 1e-2, 1e-4 and 1e-7 times (1 + |m|), far above float64's
rounding of the evaluation. So, for these:

* `unsat` is WRONG (the witness and its output are printed);
* `sat` must carry a counterexample check_cex.py finds valid ("valid-with-tolerance", where one
  of its float32 and float64 passes misses the threshold by a rounding, is counted apart;
  "invalid" is WRONG);
* `unknown` and `timeout` are right; `error` or a hang is WRONG.

Where the net has several outputs the comparison may come with a second one, drawn at random:
"and" another output on the sampled point's side of its own value there, by the same relative d
(the point still reaches the unsafe set), or "or" another output far below its least sampled
value (a second case).

A fourth threshold, short of the sampled extreme by 1e-4 of its scale, has no known truth: only
its sat answers are judged (their counterexamples) and its errors and hangs.

Every mode in --modes runs every spec; by default verify's defaults, and twice `--no-attack`
(input splitting or ReLU splitting as verify chooses, then ReLU splitting): without the attack
the counterexample search cannot answer first, and the bounds and splits run until the deadline.
The small d put the threshold within reach of the bounds, where an unsound relaxation, a rounding
error left uncharged or a wrong split would prove the false claim. A mode with `--certificate`
writes a certificate of every unsat (named after the spec and the mode, ".cert") and has it
checked by `verify --check-certificate`: one not valid counts as wrong. Prints one line per wrong
answer and the counts of each verdict, and exits 1 when any answer was wrong. Deterministic for a
seed (networks, boxes, samples; verify's verdicts may depend on time).
Run with /usr/bin/python3 (numpy and protobuf, as check_cex.py).
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_models as mm  # noqa: E402  (the layer kinds, the ONNX and VNNLIB writers)
import check_cex as cc  # noqa: E402  (the independent float64 evaluator and checker)

f32 = mm.f32
# elementwise activations by name (make_models.ACTS) and the other kinds, drawn with these weights
ELEMENTWISE = sorted(mm.ACTS) + ["relu", "relu", "relu", "silu", "softplus", "sin", "cos", "sign"]
MIXING = ["softmax", "layernorm", "mul", "maxmin", "redmax", "where", "maxpool", "res"]
# linear maps on the vector read as an image (1, c, h, w), or its parts, each followed by an
# elementwise activation
SPATIAL = ["conv", "conv", "tconv", "resize", "split"]


def dense(rng, n_in, n_out, gain):
    sd = gain * (2.0 / n_in) ** 0.5
    return ("dense", [[f32(rng.gauss(0.0, sd)) for _ in range(n_in)] for _ in range(n_out)],
            [f32(rng.gauss(0.0, 0.3)) for _ in range(n_out)])


def elementwise(rng):
    kind = rng.choice(ELEMENTWISE)
    return kind if kind == "relu" else (kind,)


def image_shape(rng, width):
    """(c, h, w) with c h w = width, h and w >= 2 (width is one of 8, 12, 16, 18)."""
    return rng.choice([(c, h, width // (c * h)) for c in (1, 2) for h in (2, 3, 4)
                       if width % (c * h) == 0 and width // (c * h) >= 2])


def spatial(rng, kind, width):
    """A linear layer of the given kind on a vector of the given width: (layer, output width)."""
    c, h, w = image_shape(rng, width)
    seed = rng.randrange(1 << 30)
    if kind == "conv":
        p = rng.choice((0, 1))
        k = rng.choice([kk for kk in (1, 2, 3) if kk <= min(h, w) + 2 * p])
        lay = mm.conv_layer(seed, c, h, w, rng.choice((1, 2, 3)), k, rng.choice((1, 2)), p)
    elif kind == "tconv":
        lay = mm.tconv_layer(seed, c, h, w, rng.choice((1, 2)), rng.choice((1, 2)),
                             rng.choice((1, 2)))
    elif kind == "resize":
        lay = mm.resize_layer(c, h, w, 2)
    else:
        sizes = [width // 2, width - width // 2] if rng.random() < 0.5 else \
            [width // 4, width // 4, width - 2 * (width // 4)]
        order = list(range(len(sizes)))
        rng.shuffle(order)
        lay = mm.split_layer(sizes, order)
    return lay, len(lay[1])


def mixing(rng, kind, width, gain):
    """A mixing layer of the given kind on a vector of the given width: (layer, its output
    width), or None when the kind does not fit the width."""
    if kind == "softmax":
        m = rng.choice([d for d in (2, 3, 4) if width % d == 0] or [0])
        return (("softmax", m, width), width) if m else None
    if kind == "layernorm":
        return (("layernorm", [f32(rng.uniform(0.5, 1.5)) for _ in range(width)],
                 [f32(rng.gauss(0.0, 0.3)) for _ in range(width)], f32(1e-5)), width)
    if kind in ("mul", "maxmin"):
        m = rng.randint(1, 4)
        a, b = dense(rng, width, m, gain), dense(rng, width, m, gain)
        return (kind, a[1], a[2], b[1], b[2]), 2 * m
    if kind == "redmax":
        k = rng.choice([d for d in (2, 3) if width % d == 0] or [0])
        return (("redmax", k, width), 2 * width // k) if k else None
    if kind == "where":
        return ("where", rng.uniform(0, width), rng.randrange(width), width), width
    if kind == "maxpool":   # the vector as (1, c, h, w) with h, w >= 2, a 2 x 2 pool
        for c in (1, 2):
            for h in (2, 3, 4):
                if width % (c * h) == 0 and width // (c * h) >= 2:
                    w = width // (c * h)
                    return ("maxpool", c, h, w, 2), c * (h - 1) * (w - 1)
        return None
    # a residual block x + W2 act(W1 x)
    hid = rng.randint(2, 6)
    block = [dense(rng, width, hid, gain), elementwise(rng), dense(rng, hid, width, gain)]
    return ("res", block), width


def random_net(rng):
    """A random mixed network and its box (float32 ends, as decimal strings)."""
    n_in = rng.choice((1, 2, 2, 3, 5, 8))
    gain = rng.choice((0.5, 1.0, 1.0, 2.0))
    layers, width = [], n_in
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        kind = rng.choice(SPATIAL) if r < 0.2 else rng.choice(MIXING) if r < 0.55 else None
        new = rng.choice((8, 12, 16, 18) if kind in SPATIAL else (2, 3, 4, 6, 8))
        layers.append(dense(rng, width, new, gain))
        width = new
        if kind in SPATIAL:
            lay, width = spatial(rng, kind, width)
            layers += [lay, elementwise(rng)]
            continue
        got = mixing(rng, kind, width, gain) if kind else None
        if got is not None:
            layers.append(got[0])
            width = got[1]
            continue
        layers.append(elementwise(rng))
    layers.append(dense(rng, width, rng.randint(1, 3), gain))
    lo, hi = [], []
    for _ in range(n_in):
        c = rng.uniform(-1, 1)
        r = rng.choice((0.01, 0.1, 0.5, 1.0, 2.0)) * rng.uniform(0.2, 1)
        lo.append(f32(c - r))
        hi.append(f32(c + r))
    return mm.Net(n_in, layers), lo, hi


# ---- sampling through check_cex.py's evaluator ------------------------------------------------

def sample_extremes(net, lo, hi, rng, n_random=400, n_local=120):
    """Per output: (least value, its point), (greatest value, its point), over float32 points of
    the box (float64 evaluation of the ONNX file's network)."""
    lo_a, hi_a = np.array(lo), np.array(hi)

    def clip32(p):   # a float32 point of the box (the ends are float32, so rounding stays inside)
        return np.clip(np.asarray(p, dtype=np.float32), lo_a.astype(np.float32),
                       hi_a.astype(np.float32))

    def run(p):
        return net.run(p.astype(np.float64), np.float64)

    pts = [clip32(lo_a), clip32(hi_a), clip32((lo_a + hi_a) / 2)]
    n = len(lo)
    if n <= 6:
        for m in range(2 ** n):
            pts.append(clip32([hi[i] if m >> i & 1 else lo[i] for i in range(n)]))
    for _ in range(n_random):
        pts.append(clip32([rng.uniform(a, b) for a, b in zip(lo, hi)]))
    ys = [run(p) for p in pts]
    n_out = ys[0].size
    result = []
    for k in range(n_out):
        ext = []
        for sgn in (1.0, -1.0):   # least, then greatest (as the least of -y)
            order = sorted(range(len(pts)), key=lambda i: sgn * ys[i][k])
            best_p, best_v = pts[order[0]], sgn * ys[order[0]][k]
            for start in order[:3]:
                p, v = pts[start], sgn * ys[start][k]
                step = 0.25 * (hi_a - lo_a)
                for _ in range(n_local):
                    q = clip32(p + step * np.array([rng.gauss(0, 1) for _ in range(n)]))
                    w = sgn * run(q)[k]
                    if w < v:
                        p, v = q, w
                    else:
                        step = step * 0.93
                if v < best_v:
                    best_p, best_v = p, v
            ext.append((sgn * best_v, best_p))
        result.append(ext)
    return result


def atom(n_out, k, below, thr):
    """The comparison Y_k <= thr (below) or Y_k >= thr, as make_models.spec_text's (c, d)."""
    c = [0.0] * n_out
    c[k] = 1.0 if below else -1.0
    return c, (thr if below else -thr)


# ---- one verify run ----------------------------------------------------------------------------

def run_one(job):
    binary, model, spec, mode, timeout = job
    tag = mode.replace(" ", "_").replace("-", "") or "default"
    res = spec + "." + tag + ".res"
    args = mode.split()
    cert = None
    if "--certificate" in args:   # the mode's certificate file, checked after an unsat
        cert = spec + "." + tag + ".cert"
        args.insert(args.index("--certificate") + 1, cert)
    cmd = [binary, model, spec, "--timeout", str(timeout), "--result", res] + args
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "hang", None, ""
    verdict = p.stdout.decode().strip()
    status = None
    if verdict == "sat":   # check_cex.py in a process of its own: valid, valid-with-tolerance...
        c = subprocess.run([sys.executable, os.path.join(HERE, "check_cex.py"), model, spec, res],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = c.stdout.decode().strip()
        status = (out.split()[0].rstrip(":") if out else "invalid", out)
    elif verdict == "unsat" and cert:   # the independent checker on its certificate
        c = subprocess.run([binary, "--check-certificate", model, spec, cert],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = c.stdout.decode().strip()
        status = ("certificate-" + (out.split()[0].rstrip(":") if out else "invalid"), out)
    return verdict, status, p.stderr.decode().strip()[:300]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verify")
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", default=None, help="directory to write the models and specs to")
    ap.add_argument("--modes", default=",--no-attack,--no-attack --split relu",
                    help="comma-separated option sets, each run on every spec ('' = defaults)")
    a = ap.parse_args()
    binary = os.path.abspath(a.verify)
    modes = a.modes.split(",")
    work = a.keep or tempfile.mkdtemp(prefix="fuzz_sampled.")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(a.seed)
    pb = cc.load_onnx_pb2()
    jobs, meta = [], []
    kinds = {}
    for t in range(a.count):
        net, lo, hi = random_net(rng)
        for lay in net.layers:
            name = lay if lay == "relu" else lay[0]
            kinds[name] = kinds.get(name, 0) + 1
        model = os.path.join(work, "n%d.onnx" % t)
        mm.encode_model(mm.model_text(net, "fuzz%d" % t, rng.choice(("gemm", "matmul")), True),
                        model)
        proto = pb.ModelProto()
        with open(model, "rb") as f:
            proto.ParseFromString(f.read())
        network = cc.Network(proto)
        ext = sample_extremes(network, lo, hi, rng)
        n_out = len(ext)
        k = rng.randrange(n_out)
        for side, (m, where) in zip(("min", "max"), ext[k]):
            y_at = network.run(where.astype(np.float64), np.float64)
            # past the sampled extreme (reached), and short of it by 1e-4 (the truth unknown:
            # only a sat's counterexample is judged there)
            for i, rel in enumerate((1e-2, 1e-4, 1e-7, -1e-4)):
                d = rel * (1.0 + abs(m))
                thr = m + d if side == "min" else m - d
                dnf = [[atom(n_out, k, side == "min", thr)]]
                form = rng.choice(("one", "and", "or")) if n_out > 1 else "one"
                j = rng.choice([o for o in range(n_out) if o != k]) if n_out > 1 else k
                if form == "and":   # and another output on the witness' side of its own value
                    below = rng.random() < 0.5
                    dj = abs(rel) * (1.0 + abs(y_at[j]))
                    dnf[0].append(atom(n_out, j, below, y_at[j] + dj if below else y_at[j] - dj))
                elif form == "or":   # or another output far below its least sampled value
                    mj = ext[j][0][0]
                    dnf.append([atom(n_out, j, True, mj - 0.5 * (1.0 + abs(mj)))])
                spec = os.path.join(work, "n%d_%s%d.vnnlib" % (t, side, i))
                with open(spec, "w") as f:
                    f.write(mm.spec_text("fuzz_sampled: a sampled point reaches the unsafe set",
                                         net.n_in, n_out, [(lo, hi)], dnf))
                for mode in modes:
                    jobs.append((binary, model, spec, mode, a.timeout))
                    meta.append((t, k, side, thr, m, where, rel > 0, form))
    wrong = 0
    counts = {}
    tolerant = 0
    certified = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for job, (t, k, side, thr, m, where, reached, form), (verdict, status, err) in zip(
                jobs, meta, ex.map(run_one, jobs)):
            key = ("reached" if reached else "short", verdict)
            counts[key] = counts.get(key, 0) + 1
            bad = None
            if verdict not in ("sat", "unsat", "unknown", "timeout"):
                bad = "verdict %r (%s)" % (verdict, err)
            elif verdict == "unsat" and reached:
                bad = ("unsat, but X = %s gives Y_%d = %.17g (float64), %s %.17g"
                       % ([float(v) for v in where], k, m, "<=" if side == "min" else ">=", thr))
            elif verdict == "sat" and status[0] == "invalid":
                bad = "sat with an invalid counterexample: %s" % status[1]
            elif verdict == "sat" and status[0] != "valid":
                tolerant += 1
            elif verdict == "unsat" and status is not None and status[0] != "certificate-valid":
                bad = "unsat, but its certificate is not valid: %s" % status[1][:200]
            elif status is not None and status[0] == "certificate-valid":
                certified += 1
            if bad:
                wrong += 1
                print("WRONG: %s (%s) mode %r: %s" % (os.path.basename(job[2]), form, job[3], bad))
    print("fuzz_sampled: %d networks, %d runs%s" % (a.count, len(jobs),
                                                    ", in " + work if a.keep else ""))
    print("  layer kinds: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    for v in sorted(counts):
        print("  %-8s %-8s %d" % (v[0], v[1], counts[v]))
    print("  sat valid only with the tolerance (the float32 or the float64 pass misses): %d"
          % tolerant)
    if any("--certificate" in m.split() for m in modes):
        print("  unsat with a valid certificate (--check-certificate): %d" % certified)
    print("fuzz_sampled: %d wrong" % wrong)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
