#!/usr/bin/python3
"""Benchmark runner: run every instance of a VNN-COMP benchmark folder through
scripts/vnncomp/run_instance.sh, score it against consensus.csv and re-check every sat.

usage: bench.py BENCH_DIR [--timeout-scale F] [--filter REGEX] [--jobs N] [--out FILE] [--limit N]

BENCH_DIR holds instances.csv (onnx,vnnlib,timeout; no header; paths relative to BENCH_DIR) and
optionally consensus.csv, whose `resolved` column is the expected answer (sat/unsat; `unknown` or a
missing row is not scored).  Per instance: wall time, peak RSS of the run_instance process tree
(ru_maxrss from os.wait4, which includes every descendant that was waited for: run_instance.sh
waits for verify), the result file's verdict, and for sat the verdict of scripts/check_cex.py.

A query over several networks (VNNLIB 2.0, VNN-COMP 2026) has for onnx field VNN-COMP's list
literal, e.g. "[('f', 'onnx/a.onnx'), ('g', 'onnx/b.onnx')]": each path is joined to BENCH_DIR
(as written: run_instance.sh takes a file existing only with .gz appended), run_instance.sh and
prepare_instance.sh get the list literal of the joined paths, repr([('f', '/abs/onnx/a.onnx'),
...]), and check_cex.py gets NAME=PATH per network (PATH.gz when only that exists: check_cex.py
reads .gz itself). consensus.csv's keys and the output CSV keep the field as written; the printed
line shows the first model's name and "+N" for the others.

Scoring: solved = sat/unsat agreeing with `resolved` (a sat must also have a counterexample that
check_cex.py finds valid: exact, as the project requires); wrong = an answer contradicting
`resolved`, or a sat whose counterexample does not check (also on unscored instances);
unknown/timeout; errors (error verdict, missing result file, crash).  Exit status 1 when anything
was wrong, 2 on usage errors, else 0.  Stdlib only; run with /usr/bin/python3.
"""

import argparse
import ast
import csv
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RUN_INSTANCE = os.path.join(ROOT, "scripts", "vnncomp", "run_instance.sh")
PREPARE_INSTANCE = os.path.join(ROOT, "scripts", "vnncomp", "prepare_instance.sh")
CHECK_CEX = os.path.join(ROOT, "scripts", "check_cex.py")
CHECK_PY = "/usr/bin/python3"
VERDICTS = ("sat", "unsat", "unknown", "timeout", "error")


def die(msg):
    sys.stderr.write("bench.py: %s\n" % msg)
    sys.exit(2)


NET_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")   # as check_cex.py's NAME=PATH


def onnx_models(onnx):
    """The onnx field's models: None for a single path, else VNN-COMP's list literal as a list
    of (network name, path); ValueError if it is not a non-empty list of pairs of strings."""
    if not onnx.startswith("["):
        return None
    try:
        v = ast.literal_eval(onnx)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ValueError("cannot read %r as a list [('NAME', 'PATH'), ...]" % onnx)
    if not isinstance(v, list) or not v or not all(
            isinstance(p, tuple) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in v):
        raise ValueError("%r is not a non-empty list of ('NAME', 'PATH') pairs" % onnx)
    bad = [n for n, _ in v if not NET_NAME_RE.match(n)]
    if bad:
        raise ValueError("unsupported network name %r in %r" % (bad[0], onnx))
    return list(v)


def read_instances(bench_dir):
    path = os.path.join(bench_dir, "instances.csv")
    if not os.path.isfile(path):
        die("%s not found" % path)
    rows = []
    with open(path, newline="") as f:
        for n, rec in enumerate(csv.reader(f), 1):
            if not rec or not "".join(rec).strip():
                continue
            if len(rec) < 3:
                die("%s:%d: expected onnx,vnnlib,timeout" % (path, n))
            onnx, vnnlib, tmo = (x.strip() for x in rec[:3])
            try:
                tmo = float(tmo)
            except ValueError:
                if n == 1:
                    continue   # tolerate a header line
                die("%s:%d: bad timeout %r" % (path, n, tmo))
            try:
                onnx_models(onnx)
            except ValueError as e:
                die("%s:%d: %s" % (path, n, e))
            rows.append((onnx, vnnlib, tmo))
    return rows


def read_expected(bench_dir):
    path = os.path.join(bench_dir, "consensus.csv")
    exp = {}
    if not os.path.isfile(path):
        return exp
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        if not r.fieldnames or "resolved" not in r.fieldnames:
            die("%s has no 'resolved' column" % path)
        for row in r:
            exp[(row["onnx"].strip(), row["vnnlib"].strip())] = row["resolved"].strip()
    return exp


def run_one(args, bench_name, bench_dir, onnx, vnnlib, tmo, workdir, idx):
    """Run one instance; return a dict of measurements."""
    models = onnx_models(onnx)
    if models is None:
        onnx_p = os.path.join(bench_dir, onnx)
        check_models = [onnx_p]
    else:
        joined = [(name, os.path.join(bench_dir, p)) for name, p in models]
        onnx_p = repr(joined)
        check_models = ["%s=%s" % (name, p + ".gz" if not os.path.isfile(p)
                                   and os.path.isfile(p + ".gz") else p) for name, p in joined]
    spec_p = os.path.join(bench_dir, vnnlib)
    result_p = os.path.join(workdir, "result_%d.txt" % idx)
    t = tmo * args.timeout_scale
    t_str = ("%.3f" % t).rstrip("0").rstrip(".")
    rec = {"onnx": onnx, "vnnlib": vnnlib, "timeout": t, "result": "error", "time_s": 0.0,
           "peak_rss_mb": 0.0, "cex_check": "", "note": ""}

    prep = subprocess.run([PREPARE_INSTANCE, "v1", bench_name, onnx_p, spec_p],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if prep.returncode != 0:
        rec["note"] = "prepare_instance failed: " + prep.stdout.strip().replace("\n", " ")[:200]
        return rec

    log_p = os.path.join(workdir, "log_%d.txt" % idx)
    with open(log_p, "w") as log:
        t0 = time.monotonic()
        p = subprocess.Popen([RUN_INSTANCE, "v1", bench_name, onnx_p, spec_p, result_p, t_str],
                             stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        killed = []

        def kill():
            killed.append(True)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        # run_instance.sh guards itself at timeout + 5 s; this is a last resort
        timer = threading.Timer(t + 30.0, kill)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        elapsed = time.monotonic() - t0
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") \
            else (status >> 8)
    rec["time_s"] = elapsed
    rec["peak_rss_mb"] = ru.ru_maxrss / 1024.0   # kB on Linux
    if killed:
        rec["note"] = "run_instance.sh killed after %.0f s" % (t + 30)
    elif p.returncode != 0:
        rec["note"] = "run_instance.sh exited %d" % p.returncode

    try:
        with open(result_p) as f:
            first = f.readline().strip().lower()
    except OSError:
        first = ""
        rec["note"] = (rec["note"] + "; " if rec["note"] else "") + "no result file"
    rec["result"] = first if first in VERDICTS else "error"
    if first and first not in VERDICTS:
        rec["note"] = (rec["note"] + "; " if rec["note"] else "") + "bad result line %r" % first[:40]
    if rec["result"] == "error" and not rec["note"]:
        try:
            with open(log_p) as f:
                lines = [ln.strip() for ln in f if ln.strip()]
            if lines:
                rec["note"] = lines[-1][:200]
        except OSError:
            pass

    if rec["result"] == "sat" and not args.no_check:
        try:
            c = subprocess.run([CHECK_PY, CHECK_CEX] + check_models + [spec_p, result_p],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=args.check_timeout)
            out = c.stdout.strip().splitlines()
            rec["cex_check"] = out[-1] if out else "error: check_cex.py printed nothing (exit %d)" % c.returncode
        except subprocess.TimeoutExpired:
            rec["cex_check"] = "error: check_cex.py timed out"
        except OSError as e:
            rec["cex_check"] = "error: %s" % e
    return rec


def classify(rec, expected, checked):
    res = rec["result"]
    if res == "sat" and checked:
        chk = rec["cex_check"]
        if chk.startswith("error"):
            return "unchecked"   # check_cex.py could not judge (e.g. an operator it lacks)
        if chk != "valid":
            return "wrong"
    if res in ("sat", "unsat"):
        if expected not in ("sat", "unsat"):
            return "unscored"
        return "solved" if res == expected else "wrong"
    if res in ("unknown", "timeout"):
        return "unknown/timeout"
    return "error"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet when piped into head
    ap = argparse.ArgumentParser(description="Run a VNN-COMP benchmark folder through "
                                 "scripts/vnncomp/run_instance.sh and score it.")
    ap.add_argument("bench_dir", help="folder with instances.csv (and consensus.csv)")
    ap.add_argument("--timeout-scale", type=float, default=1.0,
                    help="multiply every instance timeout by F (default 1)")
    ap.add_argument("--filter", default=None,
                    help="only instances whose 'onnx,vnnlib' matches this regex")
    ap.add_argument("--jobs", type=int, default=1,
                    help="instances run in parallel (default 1: verify uses both cores)")
    ap.add_argument("--out", default=None,
                    help="CSV of every instance (default bench-out/<bench>.csv)")
    ap.add_argument("--limit", type=int, default=None, help="run at most N instances")
    ap.add_argument("--no-check", action="store_true",
                    help="do not re-check sat counterexamples with check_cex.py")
    ap.add_argument("--check-timeout", type=float, default=600.0,
                    help="seconds allowed for one check_cex.py run (default 600)")
    args = ap.parse_args()

    bench_dir = os.path.abspath(args.bench_dir)
    if not os.path.isdir(bench_dir):
        die("%s is not a folder" % args.bench_dir)
    if args.timeout_scale <= 0:
        die("--timeout-scale must be positive")
    if args.jobs < 1:
        die("--jobs must be >= 1")
    for p in (RUN_INSTANCE, PREPARE_INSTANCE):
        if not os.access(p, os.X_OK):
            die("%s is missing or not executable" % p)
    if not args.no_check and not os.access(CHECK_PY, os.X_OK):
        die("%s not found (needed for check_cex.py; or pass --no-check)" % CHECK_PY)
    bench_name = os.path.basename(bench_dir.rstrip("/"))
    out_path = args.out or os.path.join(ROOT, "bench-out", bench_name + ".csv")

    instances = read_instances(bench_dir)
    expected = read_expected(bench_dir)
    if args.filter:
        try:
            rx = re.compile(args.filter)
        except re.error as e:
            die("bad --filter: %s" % e)
        instances = [i for i in instances if rx.search("%s,%s" % (i[0], i[1]))]
    if args.limit is not None:
        instances = instances[:max(0, args.limit)]
    if not instances:
        die("no instances to run")

    total = len(instances)
    recs = [None] * total
    lock = threading.Lock()
    done = [0]
    workdir = tempfile.mkdtemp(prefix="bench.")

    def task(i):
        onnx, vnnlib, tmo = instances[i]
        rec = run_one(args, bench_name, bench_dir, onnx, vnnlib, tmo, workdir, i)
        rec["expected"] = expected.get((onnx, vnnlib), "")
        rec["status"] = classify(rec, rec["expected"], not args.no_check)
        with lock:
            done[0] += 1
            recs[i] = rec
            extra = ""
            if rec["cex_check"]:
                extra += "  cex: " + rec["cex_check"]
            if rec["note"]:
                extra += "  (" + rec["note"] + ")"
            models = onnx_models(onnx)
            if models is None:
                shown = os.path.basename(onnx)
            else:
                shown = os.path.basename(models[0][1]) + (
                    "+%d" % (len(models) - 1) if len(models) > 1 else "")
            print("[%*d/%d] %-8s %-16s exp %-7s %7.2fs/%-5g %7.1f MB  %s %s%s"
                  % (len(str(total)), done[0], total, rec["result"], rec["status"],
                     rec["expected"] or "-", rec["time_s"], rec["timeout"], rec["peak_rss_mb"],
                     shown, os.path.basename(vnnlib), extra), flush=True)

    try:
        if args.jobs == 1:
            for i in range(total):
                task(i)
        else:
            with ThreadPoolExecutor(max_workers=args.jobs) as ex:
                list(ex.map(task, range(total)))
    except KeyboardInterrupt:
        sys.stderr.write("bench.py: interrupted; writing the instances done so far\n")
    finally:
        for name in os.listdir(workdir):
            os.unlink(os.path.join(workdir, name))
        os.rmdir(workdir)

    recs = [r for r in recs if r is not None]
    if os.path.dirname(out_path):
        os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["onnx", "vnnlib", "expected", "result", "time_s", "peak_rss_mb", "cex_check",
                    "status", "note"])
        for r in recs:
            w.writerow([r["onnx"], r["vnnlib"], r["expected"], r["result"], "%.3f" % r["time_s"],
                        "%.1f" % r["peak_rss_mb"], r["cex_check"], r["status"], r["note"]])

    def count(key, val):
        return sum(1 for r in recs if r[key] == val)
    times = [r["time_s"] for r in recs]
    scored = [r for r in recs if r["expected"] in ("sat", "unsat")]
    print()
    print("benchmark %s: %d instances (%d scored), timeout scale %g"
          % (bench_name, len(recs), len(scored), args.timeout_scale))
    print("  solved           %d" % count("status", "solved"))
    print("  wrong            %d" % count("status", "wrong"))
    print("  unknown/timeout  %d" % count("status", "unknown/timeout"))
    print("  errors           %d" % count("status", "error"))
    if count("status", "unchecked"):
        print("  unchecked        %d (sat whose counterexample check_cex.py could not judge)"
              % count("status", "unchecked"))
    if count("status", "unscored"):
        print("  unscored         %d (sat/unsat where no answer is known)" % count("status", "unscored"))
    if times:
        print("  wall time        total %.1f s, median %.2f s, max %.2f s"
              % (sum(times), statistics.median(times), max(times)))
        print("  peak memory      %.1f MB" % max(r["peak_rss_mb"] for r in recs))
    print("  verdicts         " + ", ".join("%s %d" % (v, count("result", v)) for v in VERDICTS))
    n_sat = count("result", "sat")
    if n_sat and not args.no_check:
        print("  counterexamples  %d valid of %d sat" % (count("cex_check", "valid"), n_sat))
    wrong = [r for r in recs if r["status"] == "wrong"]
    for r in wrong:
        print("  WRONG: %s %s: got %s, expected %s%s"
              % (r["onnx"], r["vnnlib"], r["result"], r["expected"] or "?",
                 (", cex: " + r["cex_check"]) if r["cex_check"] else ""))
    print("  csv              %s" % out_path)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
