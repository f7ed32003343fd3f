#!/usr/bin/python3
"""Differential test of how verify matches a query's tensors to a model's several inputs and
outputs.

usage: fuzz_multi_io.py VERIFY_BIN [--count N] [--seed S] [--timeout T] [--certificate]

On models/multi_io.onnx (graph inputs pos, vel [1,1]; outputs score [1,2], aux [1,1]; a value
relu1 [1,12] inside), each trial draws an input box and a disjunction of output comparisons (some
with a hidden node's element) and asks it three ways: the tensors declared in the model's order
and matched by order, and twice declared in a random order and matched by ONNX name. The three
answers must agree (a timeout or unknown agrees with anything), every sat's counterexample must be
valid by scripts/check_cex.py, and no run may end in an error. With --certificate every run
writes a certificate, and every unsat's must be `valid` by `verify --check-certificate`. Prints
"N trials, ..." and exits 0; on the first failure it prints the query and exits 1.
Run with /usr/bin/python3 (scripts/check_cex.py needs numpy and protobuf).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "models", "multi_io.onnx")
CHECK = os.path.join(ROOT, "scripts", "check_cex.py")
DECL = {"pos": ("p", "[1,1]"), "vel": ("v", "[1,1]"), "score": ("s", "[1,2]"),
        "aux": ("a", "[1,1]")}
OUTS = ["s[0,0]", "s[0,1]", "a[0,0]"]


def query(ins, outs, named, hidden, box, atoms):
    parts = []
    for kind, names in (("input", ins), ("output", outs)):
        if kind == "output" and hidden:
            parts.append('(declare-hidden r real [1,12] "relu1")')
        for k in names:
            n, shape = DECL[k]
            parts.append('(declare-%s %s real %s%s)' % (kind, n, shape,
                                                         ' "%s"' % k if named else ""))
    (p0, p1), (v0, v1) = box
    return ("(vnnlib-version <2.0>)\n(declare-network m %s)\n" % " ".join(parts)
            + "(assert (and (>= p[0,0] %r) (<= p[0,0] %r) (>= v[0,0] %r) (<= v[0,0] %r)))\n"
            % (p0, p1, v0, v1) + "(assert (or %s))\n" % " ".join(atoms))


def draw(rng):
    box = []
    for _ in range(2):
        lo = rng.uniform(-1, 0.5)
        box.append((lo, lo + rng.uniform(0.05, 1.0)))
    atoms = []
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(OUTS, 2)
        c = round(rng.uniform(-1, 1), 3)
        op = rng.choice([">=", "<="])
        atoms.append("(%s %s (+ %s %r))" % (op, a, b, c) if rng.random() < 0.5
                     else "(%s %s %r)" % (op, a, c))
    hidden = rng.random() < 0.3
    if hidden:
        atoms[0] = "(and %s (>= r[0,%d] %r))" % (atoms[0], rng.randrange(12),
                                                  round(rng.uniform(0, 1), 3))
    return box, atoms, hidden


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("verify")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--certificate", action="store_true",
                    help="certify every unsat and check the certificate")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tally = {}
    with tempfile.TemporaryDirectory() as tmp:
        spec, result = os.path.join(tmp, "q.vnnlib"), os.path.join(tmp, "result.txt")
        cert = os.path.join(tmp, "q.cert")
        extra = ["--certificate", cert] if a.certificate else []
        checked = 0
        for trial in range(a.count):
            box, atoms, hidden = draw(rng)
            answers = []
            for way in range(3):
                if way == 0:
                    text = query(["pos", "vel"], ["score", "aux"], False, hidden, box, atoms)
                else:
                    text = query(rng.sample(["pos", "vel"], 2), rng.sample(["score", "aux"], 2),
                                 True, hidden, box, atoms)
                with open(spec, "w") as f:
                    f.write(text)
                r = subprocess.run([a.verify, MODEL, spec, "--timeout", str(a.timeout),
                                    "--result", result] + extra, capture_output=True, text=True)
                verdict = r.stdout.strip()
                fail = None
                if r.returncode >= 4:
                    fail = "exit %d: %s" % (r.returncode, r.stderr.strip()[:300])
                elif verdict == "sat":
                    c = subprocess.run([sys.executable, CHECK, MODEL, spec, result],
                                       capture_output=True, text=True)
                    if c.stdout.strip() != "valid":
                        fail = "counterexample: %s %s" % (c.stdout.strip(), c.stderr.strip())
                elif verdict == "unsat" and a.certificate:
                    c = subprocess.run([a.verify, "--check-certificate", MODEL, spec, cert],
                                       capture_output=True, text=True)
                    checked += 1
                    if c.returncode != 0 or c.stdout.split("\n")[0] != "valid":
                        fail = "certificate: exit %d %s %s" % (c.returncode, c.stdout.strip(),
                                                              c.stderr.strip()[:300])
                answers.append(verdict)
                definite = {v for v in answers if v in ("sat", "unsat")}
                if not fail and len(definite) > 1:
                    fail = "answers disagree: %s" % answers
                if fail:
                    print("trial %d, way %d: %s\n%s" % (trial, way, fail, text))
                    return 1
            tally[" ".join(answers)] = tally.get(" ".join(answers), 0) + 1
    print("%d trials, 3 ways each, all agree: %s%s" % (a.count, ", ".join(
        "%s x%d" % (k, v) for k, v in sorted(tally.items())),
        "; %d certificates valid" % checked if a.certificate else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
