#!/usr/bin/env bash
# Regression tier: scripts/regress.sh VERIFY_BIN
#
# 1. Every row of models/EXPECTED.csv (onnx,vnnlib,expected) and models/EXPECTED_PAIRS.csv (its
#    queries over two networks, with the models as NAME=PATH arguments): runs
#    VERIFY_BIN MODEL SPEC --timeout 20 --result TMP and requires the expected verdict on stdout,
#    the matching exit code (0 unsat, 1 sat) and the same verdict on the result file's first line.
#    A sat counterexample is re-checked with scripts/check_cex.py (skipped, with a note, when
#    /usr/bin/python3 lacks numpy or protobuf).
# 2. Bad inputs (tests/data/bad/, made by scripts/make_models.py, plus a missing file): each must
#    give exit code 5, exactly one stderr line starting "verify: error:", and "error" as the
#    result file's first line.
# 3. Usage errors, --compare-bounds, the verbosity levels.
# 4. Soundness against exact extremes: scripts/fuzz_exact.py on four random ReLU nets (seed 26)
#    in two modes, no wrong verdict (skipped, with a note, without numpy/protobuf or protoc);
#    scripts/fuzz_multi_io.py: queries on a model of two inputs and outputs answer alike whether
#    their tensors are matched by order or by name, and each unsat's certificate is valid.
# 5. The memory ceiling: 999 cases over an image of 37,632 inputs proved within --max-memory 512,
#    the peak resident size included (skipped, with a note, without numpy/protobuf).
# Prints one line per case and finally "regress: N passed, M failed"; exits 1 when M > 0.
set -uo pipefail

if [ "$#" -ne 1 ]; then
    echo "usage: $0 VERIFY_BIN" >&2
    exit 2
fi
BIN=$1
case "$BIN" in
    /*) ;;
    *) BIN="$PWD/$BIN" ;;
esac
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 2
if [ ! -x "$BIN" ]; then
    echo "regress: $BIN is not an executable" >&2
    echo "regress: 0 passed, 1 failed"
    exit 1
fi

PY=/usr/bin/python3
CHECK_CEX=1
if ! "$PY" -c 'import numpy, google.protobuf' >/dev/null 2>&1; then
    CHECK_CEX=0
    echo "note: $PY lacks numpy/protobuf (run scripts/setup.sh): sat counterexamples are not re-checked"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/regress.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
GUARD=60   # seconds before a hung verify is killed (it is given --timeout 20)

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS %-48s %s\n' "$1" "$2"; }
fail() { failed=$((failed + 1)); printf 'FAIL %-48s %s\n' "$1" "$2"; }

# run_verify MODEL SPEC: sets rc, out (stdout), err (stderr), res (result file's first line);
# MODEL may be several models separated by spaces
run_verify() {
    rm -f "$TMP/result" "$TMP/stdout" "$TMP/stderr"
    local models
    read -r -a models <<<"$1"   # (several NAME=PATH models of a query over several networks)
    timeout -k 5 "$GUARD" "$BIN" "${models[@]}" "$2" --timeout 20 --result "$TMP/result" \
        >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
    rc=$?
    out=$(tr -d '\r' <"$TMP/stdout")
    err=$(cat "$TMP/stderr")
    res=""
    if [ -f "$TMP/result" ]; then
        res=$(head -n 1 "$TMP/result" | tr -d '[:space:]')
    fi
}

# --- known verdicts ---------------------------------------------------------------------------
if [ ! -f models/EXPECTED.csv ]; then
    fail "models/EXPECTED.csv" "missing (run scripts/make_models.sh)"
else
    while IFS=, read -r onnx vnnlib expected; do
        expected=${expected//[[:space:]]/}
        [ "$onnx" = "onnx" ] || [ "$onnx" = "models" ] && continue        # headers
        [ -z "$onnx" ] && continue
        read -r -a ms <<<"$onnx"
        name="$(basename "${ms[0]}" .onnx)${ms[1]:++$(basename "${ms[1]}" .onnx)}"
        name="$name $(basename "$vnnlib" .vnnlib)"
        start=$(date +%s.%N)
        run_verify "$onnx" "$vnnlib"
        secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2fs", e - s }')
        want_rc=0
        [ "$expected" = "sat" ] && want_rc=1
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            fail "$name" "killed after ${GUARD}s (verify ignored --timeout 20)"
        elif [ "$out" != "$expected" ]; then
            fail "$name" "expected $expected, got '${out//$'\n'/ }' (exit $rc) ${err:+stderr: ${err%%$'\n'*}}"
        elif [ "$rc" -ne "$want_rc" ]; then
            fail "$name" "verdict $out but exit code $rc (want $want_rc)"
        elif [ "$res" != "$expected" ]; then
            fail "$name" "result file says '$res', stdout '$out'"
        elif [ "$expected" = "sat" ] && [ "$CHECK_CEX" -eq 1 ]; then
            chk=$("$PY" scripts/check_cex.py "${ms[@]}" "$vnnlib" "$TMP/result" 2>&1)
            if [ "$chk" = "valid" ]; then
                pass "$name" "sat, counterexample valid ($secs)"
            else
                fail "$name" "sat, but check_cex.py: $chk"
            fi
        else
            pass "$name" "$out ($secs)"
        fi
    done < <(cat models/EXPECTED.csv models/EXPECTED_PAIRS.csv)
fi

# --- bad inputs: exit 5, one "verify: error:" line, "error" in the result file ----------------
B=tests/data/bad
GOOD_MODEL=models/abs_split.onnx
GOOD_SPEC=specs/abs_split_unsat.vnnlib
bad_case() {   # NAME MODEL SPEC
    local lines
    run_verify "$2" "$3"
    lines=$(printf '%s' "$err" | grep -c '')
    if [ "$rc" -ne 5 ]; then
        fail "$1" "exit code $rc, want 5 (stdout '$out')"
    elif [ "$lines" -ne 1 ] || [ "${err#verify: error:}" = "$err" ]; then
        fail "$1" "stderr should be one 'verify: error: ...' line, got $lines line(s): ${err%%$'\n'*}"
    elif [ "$res" != "error" ]; then
        fail "$1" "result file says '$res', want 'error'"
    else
        pass "$1" "exit 5: ${err#verify: error: }"
    fi
}
bad_case "missing model file"           "$B/no_such_model.onnx" "$GOOD_SPEC"
bad_case "missing spec file"            "$GOOD_MODEL" "$B/no_such_spec.vnnlib"
bad_case "empty model file"             "$B/empty.onnx"       "$GOOD_SPEC"
bad_case "truncated ONNX"               "$B/truncated.onnx"   "$GOOD_SPEC"
bad_case "random bytes as ONNX"         "$B/random.onnx"      "$GOOD_SPEC"
bad_case "ONNX with an unsupported op"  "$B/unsupported_op.onnx" "$GOOD_SPEC"
bad_case "ONNX Max with an operand left out" "$B/max_missing_input.onnx" "$GOOD_SPEC"
bad_case "VNNLIB syntax error"          "$GOOD_MODEL" "$B/syntax.vnnlib"
bad_case "VNNLIB empty"                 "$GOOD_MODEL" "$B/empty.vnnlib"
bad_case "VNNLIB 3 X for a 2-input net" "$GOOD_MODEL" "$B/three_inputs.vnnlib"
bad_case "VNNLIB 2 Y for a 1-output net" "$GOOD_MODEL" "$B/two_outputs.vnnlib"
bad_case "VNNLIB input left unbounded"  "$GOOD_MODEL" "$B/unbounded.vnnlib"
bad_case "ONNX with a LogSoftmax mid-graph" "$B/logsoftmax_middle.onnx" "$GOOD_SPEC"
bad_case "threshold on a Softmax output" models/soft2.onnx "$B/softmax_threshold.vnnlib"
bad_case "VNNLIB 2.0 two networks, one model" "$GOOD_MODEL" "$B/v2_two_networks.vnnlib"
bad_case "two networks, a model for none" "h=$GOOD_MODEL" "$B/v2_two_networks.vnnlib"
bad_case "two networks, g's model too narrow" "f=$GOOD_MODEL g=$GOOD_MODEL" \
    "$B/v2_two_networks.vnnlib"
bad_case "two networks, two layer sequences" "f=$GOOD_MODEL g=models/rand2_a.onnx" \
    "$B/v2_two_networks.vnnlib"
bad_case "equal-to, given another model" "f=models/rand2_a.onnx g=models/rand2_ap.onnx" \
    specs/pair_mono_sat.vnnlib
bad_case "VNNLIB 2.0 index out of range" "$GOOD_MODEL" "$B/v2_bad_index.vnnlib"
bad_case "VNNLIB 2.0 unknown ONNX name"  "$GOOD_MODEL" "$B/v2_onnx_name.vnnlib"
bad_case "several inputs, one misnamed"   models/multi_io.onnx "$B/v2_multi_io_name.vnnlib"
bad_case "several inputs, a 1-input model" "$GOOD_MODEL" specs/multi_io_named_unsat.vnnlib
bad_case "VNNLIB 1 for a 2-input model"   models/multi_io.onnx "$GOOD_SPEC"
bad_case "float64 declared, float32 model" "$GOOD_MODEL" "$B/v2_float64_type.vnnlib"

# --- usage errors: exit 4, one line naming the conflict ------------------------------------------
out=$("$BIN" "$GOOD_MODEL" "$GOOD_SPEC" --certificate "$TMP/c" --bounds lp 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 4 ] && printf '%s' "$out" | grep -q -- '--certificate cannot be used with --bounds lp'; then
    pass "--certificate with --bounds lp" "exit 4: ${out%%$'\n'*}"
else
    fail "--certificate with --bounds lp" "exit $rc, stderr '${out%%$'\n'*}'"
fi

out=$("$BIN" models/rand2_a.onnx specs/pair_eq_unsat.vnnlib --certificate "$TMP/c" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 5 ] && printf '%s' "$out" | grep -q 'certificates of queries over several networks'
then
    pass "--certificate, two networks" "exit 5: ${out%%$'\n'*}"
else
    fail "--certificate, two networks" "exit $rc, stderr '${out%%$'\n'*}'"
fi
# several inputs and outputs, named, and hidden nodes: the certificate and its check, end to end
ok=1
for s in multi_io_named_unsat multi_io_hidden_unsat; do
    out=$("$BIN" models/multi_io.onnx "specs/$s.vnnlib" --certificate "$TMP/c" 2>/dev/null)
    out2=$("$BIN" --check-certificate models/multi_io.onnx "specs/$s.vnnlib" "$TMP/c" 2>&1)
    rc2=$?
    if [ "$out" != unsat ] || [ "$rc2" -ne 0 ] || [ "${out2%%$'\n'*}" != valid ]; then
        ok=0
        fail "--certificate, --check: two inputs" "$s: '$out', check exit $rc2 '${out2%%$'\n'*}'"
    fi
done
[ "$ok" -eq 1 ] && pass "--certificate, --check: two inputs" "unsat, valid (named; hidden nodes)"

# --- --no-attack: the counterexample comes from the search's own points, not the attack --------
out=$("$BIN" models/tiny_relu.onnx specs/tiny_relu_sat.vnnlib -v 2>&1); rc=$?
out2=$("$BIN" models/tiny_relu.onnx specs/tiny_relu_sat.vnnlib -v --no-attack 2>&1); rc2=$?
if [ "$rc" -eq 1 ] && [ "$rc2" -eq 1 ] && printf '%s' "$out" | grep -q 'sat after .*: 0 domains' &&
   printf '%s' "$out2" | grep -q -E 'sat after .*: [1-9][0-9]* domains'; then
    pass "--no-attack, sat" "the attack's sat at 0 domains, the search's at 1 or more"
else
    both="'$(printf '%s' "$out" | tr '\n' '|')' '$(printf '%s' "$out2" | tr '\n' '|')'"
    fail "--no-attack, sat" "exit $rc / $rc2: $both"
fi

# --- the VNNLIB 2.0 standard's commands: verify (models by --network) and supports -------------
out=$("$BIN" verify specs/multi_io_named_sat.vnnlib --network m=models/multi_io.onnx \
      --result "$TMP/std_result" 2>"$TMP/stderr"); rc=$?
# the assignment, in declaration order, is the result file's values
want=$(awk 'NR > 1 && !/ /' "$TMP/std_result" | tr '\n' ' ')
got=$(printf '%s\n' "$out" | tail -n +2 | sed 's/^[^=]*=//' | tr '\n' ' ')
names=$(printf '%s\n' "$out" | tail -n +2 | sed 's/=.*//' | tr '\n' ' ')
if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | head -n 1)" = "sat" ] &&
   [ "$names" = "v[0,0] p[0,0] a[0,0] s[0,0] s[0,1] " ] && [ "$got" = "$want" ]; then
    pass "verify verify, sat" "exit 1, the assignment: $names"
else
    fail "verify verify, sat" "exit $rc, stdout '$(printf '%s' "$out" | tr '\n' '|')', want $want"
fi
out=$("$BIN" verify specs/multi_io_named_sat.vnnlib 2>&1 >/dev/null); rc=$?
out2=$("$BIN" verify specs/pair_mono_unsat.vnnlib --network f=models/rand2_a.onnx \
       --timeout 1e-9 2>/dev/null); rc2=$?
if [ "$rc" -eq 4 ] && [ "$rc2" -eq 3 ] && [ "$out2" = "timed-out" ]; then
    pass "verify verify, timed-out" "exit 3, 'timed-out'; no --network: exit 4"
else
    fail "verify verify, timed-out" "exit $rc / $rc2, stdout '$out2'"
fi
out=$(for q in --vnnlib-versions --hidden-nodes --multiple-networks --onnx-element-types; do
          "$BIN" supports "$q"; done | tr '\n' ' ')
ops=$("$BIN" supports --onnx-operators | tr '\n' ' ')
"$BIN" supports --no-such-thing 2>/dev/null; rc=$?
if [ "$out" = "2.0 2.0 true true float32 float64 real " ] && [ "$rc" -eq 4 ] &&
   [ "${ops#*Gemm Conv}" = "$ops" ] && [ "${ops#* Conv }" != "$ops" ] &&
   [ "$("$BIN" --name)" = "verify" ]; then
    pass "verify supports" "$out; $(printf '%s' "$ops" | wc -w) operators"
else
    fail "verify supports" "'$out' (exit $rc for an unknown option); operators '$ops'"
fi

# the deadline holds from the start: one that passes while the model is read ends in timeout
out=$("$BIN" "$GOOD_MODEL" "$GOOD_SPEC" --timeout 1e-9 --result "$TMP/load_result" 2>"$TMP/err")
rc=$?
if [ "$rc" -eq 3 ] && [ "$out" = "timeout" ] && [ "$(cat "$TMP/load_result")" = "timeout" ] &&
   grep -q "the deadline passed while the model was being" "$TMP/err"; then
    pass "--timeout while loading" "exit 3, 'timeout', the result file says so"
else
    fail "--timeout while loading" "exit $rc, stdout '$out', stderr '$(head -c 200 "$TMP/err")'"
fi

# --- --compare-bounds: one line per method; with --timeout, those not started by then skipped -----
out=$(timeout 120 "$BIN" "$GOOD_MODEL" "$GOOD_SPEC" --compare-bounds 2>/dev/null); rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '^crown ' &&
   printf '%s\n' "$out" | grep -q '^lp '; then
    pass "--compare-bounds" "$(printf '%s\n' "$out" | wc -l) lines"
else
    fail "--compare-bounds" "exit $rc, stdout '${out%%$'\n'*}'"
fi
# (a deadline that passes while the model is read: no method is run, exit 3 as for a timeout)
out=$("$BIN" "$GOOD_MODEL" "$GOOD_SPEC" --compare-bounds --timeout 1e-9 2>/dev/null); rc=$?
skipped="every method skipped: out of time (--timeout) while loading the model"
if [ "$rc" -eq 3 ] && [ "$out" = "$skipped" ]; then
    pass "--compare-bounds --timeout" "every method skipped, exit 3"
else
    fail "--compare-bounds --timeout" "exit $rc, stdout '$(printf '%s' "$out" | tr '\n' '|')'"
fi

# --- verbosity: -v, -vv and -vvv are accepted (progress on stderr only), -vvvv is not -------------
for v in -v -vv -vvv; do
    out=$("$BIN" "$GOOD_MODEL" "$GOOD_SPEC" "$v" 2>"$TMP/verbose"); rc=$?
    if [ "$rc" -eq 0 ] && [ "$out" = unsat ] && [ -s "$TMP/verbose" ]; then
        pass "$v" "unsat on stdout, $(wc -l <"$TMP/verbose") lines on stderr"
    else
        fail "$v" "exit $rc, stdout '$out'"
    fi
done
# -vv on a spec of two cases searched by ReLU splitting: the domains bounded for each case
out=$("$BIN" models/rand2_b.onnx specs/rand2_b_dnf_unsat.vnnlib --split relu -vv 2>"$TMP/verbose")
rc=$?
if [ "$rc" -eq 0 ] && [ "$out" = unsat ] &&
   grep -q '^verify: cases: domains bounded (case: .*) 0: [1-9][0-9]*, 1: [1-9]' "$TMP/verbose"
then
    pass "-vv per case" "$(grep '^verify: cases: domains' "$TMP/verbose")"
else
    fail "-vv per case" "exit $rc, stdout '$out'"
fi
out=$("$BIN" "$GOOD_MODEL" "$GOOD_SPEC" -vvvv 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 4 ] && printf '%s' "$out" | grep -q -- "unknown option '-vvvv'"; then
    pass "-vvvv" "exit 4: ${out%%$'\n'*}"
else
    fail "-vvvv" "exit $rc, stderr '${out%%$'\n'*}'"
fi

# --- the VNN-COMP scripts: a result file always, complete or "error"; compressed inputs ---------
VC=scripts/vnncomp
mkdir -p "$TMP/vc"
gzip -c models/acas_like.onnx >"$TMP/vc/acas_like.onnx.gz"
gzip -c specs/acas_like_sat_v2.vnnlib >"$TMP/vc/sat_v2.vnnlib.gz"
# vc_run NAME MODEL SPEC WANT: run_instance.sh's result file must start with WANT
vc_run() {
    rm -f "$TMP/vc/result"
    VERIFY_BIN="$BIN" timeout 60 "$VC/run_instance.sh" v1 test "$2" "$3" "$TMP/vc/result" 20 \
        >/dev/null 2>"$TMP/vc/stderr"
    first=$(head -n 1 "$TMP/vc/result" 2>/dev/null)
    if [ "$first" = "$4" ]; then pass "$1" "$first"; else fail "$1" "result '$first', want $4"; fi
}
vc_run "run_instance.sh, VNNLIB 1 unsat" models/tiny_relu.onnx specs/tiny_relu_unsat.vnnlib unsat
# the files exist only as .gz, named without it (as instances.csv names them)
vc_run "run_instance.sh, .gz behind plain names" "$TMP/vc/acas_like.onnx" "$TMP/vc/sat_v2.vnnlib" \
    sat
if [ "$CHECK_CEX" -eq 1 ]; then
    ck=$("$PY" scripts/check_cex.py models/acas_like.onnx specs/acas_like_sat_v2.vnnlib \
         "$TMP/vc/result" 2>&1)
    if [ "$ck" = "valid" ]; then pass "run_instance.sh, 2.0 assignment" "$ck"
    else fail "run_instance.sh, 2.0 assignment" "$ck"; fi
fi
vc_run "run_instance.sh, missing model" "$TMP/vc/none.onnx" specs/tiny_relu_unsat.vnnlib error
# a query over two networks: the models as VNN-COMP 2026 lists them, one only compressed
gzip -c models/rand2_ap.onnx >"$TMP/vc/rand2_ap.onnx.gz"
vc_run "run_instance.sh, two networks" \
    "[('f', 'models/rand2_a.onnx'), ('g', '$TMP/vc/rand2_ap.onnx')]" specs/pair_iso_sat.vnnlib sat
if [ "$CHECK_CEX" -eq 1 ]; then
    pair="[('f', 'models/rand2_a.onnx'), ('g', 'models/rand2_ap.onnx')]"
    ck=$("$PY" scripts/check_cex.py "$pair" specs/pair_iso_sat.vnnlib "$TMP/vc/result" 2>&1)
    if [ "$ck" = "valid" ]; then pass "run_instance.sh, two networks' assignment" "$ck"
    else fail "run_instance.sh, two networks' assignment" "$ck"; fi
fi
vc_run "run_instance.sh, a malformed model list" "[('f' 'models/rand2_a.onnx')]" \
    specs/pair_iso_sat.vnnlib error
# scripts/vnnlib2.py: a VNNLIB 1 spec rewritten for its model keeps its verdict
if [ "$CHECK_CEX" -eq 1 ] && command -v protoc >/dev/null 2>&1; then
    for v in unsat sat; do  # sat last: its result file is re-checked below
        "$PY" scripts/vnnlib2.py models/rand2_b.onnx "specs/rand2_b_dnf_$v.vnnlib" \
            "$TMP/vc/conv_$v.vnnlib" --onnx-names >/dev/null 2>&1
        vc_run "vnnlib2.py rewrite, $v" models/rand2_b.onnx "$TMP/vc/conv_$v.vnnlib" "$v"
    done
    ck=$("$PY" scripts/check_cex.py models/rand2_b.onnx "$TMP/vc/conv_sat.vnnlib" \
         "$TMP/vc/result" 2>&1)
    if [ "$ck" = "valid" ]; then pass "vnnlib2.py rewrite, counterexample" "$ck"
    else fail "vnnlib2.py rewrite, counterexample" "$ck"; fi
fi
if "$VC/prepare_instance.sh" v1 test "$TMP/vc/acas_like.onnx" "$TMP/vc/sat_v2.vnnlib" 2>/dev/null &&
   ! "$VC/prepare_instance.sh" v1 test "$TMP/vc/none.onnx" "$TMP/vc/sat_v2.vnnlib" 2>/dev/null; then
    pass "prepare_instance.sh" "existing (.gz) files accepted, a missing one refused"
else
    fail "prepare_instance.sh" "wrong exit status"
fi
# ... and of a list of models: one only compressed accepted, a missing one or a bad list refused
fa="('f', 'models/rand2_a.onnx')"
if "$VC/prepare_instance.sh" v1 test "[$fa, ('g', '$TMP/vc/rand2_ap.onnx')]" \
       specs/pair_iso_sat.vnnlib 2>/dev/null &&
   ! "$VC/prepare_instance.sh" v1 test "[$fa, ('g', '$TMP/vc/none.onnx')]" \
       specs/pair_iso_sat.vnnlib 2>/dev/null &&
   ! "$VC/prepare_instance.sh" v1 test "[('f' 'models/rand2_a.onnx')]" specs/pair_iso_sat.vnnlib \
       2>/dev/null; then
    pass "prepare_instance.sh, two networks" "the list read; a missing model, a bad list refused"
else
    fail "prepare_instance.sh, two networks" "wrong exit status"
fi
# a verify that dies in mid-write of a 2.0 assignment leaves "error", a complete one is kept
for cut in 0 1; do
    fake="$TMP/vc/fake$cut"
    {
        echo '#!/bin/sh'
        echo 'while [ "$#" -gt 0 ]; do [ "$1" = --result ] && r=$2; shift; done'
        if [ "$cut" -eq 1 ]; then
            echo 'printf "sat\nX float32 [1,2]\n0.5\n" >"$r"; exit 1'
        else
            echo 'printf "sat\nX float32 [1,2]\n0.5\n-1\nY real []\n3e-2\n" >"$r"; exit 1'
        fi
    } >"$fake"
    chmod +x "$fake"
    rm -f "$TMP/vc/result"
    VERIFY_BIN="$fake" "$VC/run_instance.sh" v1 test models/tiny_relu.onnx \
        specs/tiny_relu_sat.vnnlib "$TMP/vc/result" 20 >/dev/null 2>&1
    first=$(head -n 1 "$TMP/vc/result" 2>/dev/null)
    want=$([ "$cut" -eq 1 ] && echo error || echo sat)
    if [ "$first" = "$want" ]; then pass "run_instance.sh, 2.0 result cut=$cut" "$first"
    else fail "run_instance.sh, 2.0 result cut=$cut" "result '$first', want $want"; fi
done

# fuzz_check LABEL SCRIPT ARGS...: runs scripts/SCRIPT.py on verify with ARGS, which must end in
# "SCRIPT: 0 wrong" (its line "SCRIPT: N ... runs" gives the count)
fuzz_check() {
    local label=$1 script=$2 out rc runs first
    shift 2
    if [ "$CHECK_CEX" -ne 1 ] || ! command -v protoc >/dev/null 2>&1; then
        echo "note: numpy/protobuf or protoc missing: scripts/$script.py skipped"
        return
    fi
    out=$("$PY" "scripts/$script.py" "$BIN" "$@" 2>&1); rc=$?
    runs=$(printf '%s\n' "$out" | sed -n "s/^$script: \([0-9]* [a-z]*.* runs\).*/\1/p")
    if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^$script: 0 wrong\$"; then
        pass "$label ($script.py)" "$runs, 0 wrong"
    else
        first=$(printf '%s\n' "$out" | grep -m1 -v '^  ')
        fail "$label ($script.py)" "exit $rc: $first"
    fi
}

# --- soundness against exact extremes (scripts/fuzz_exact.py): no wrong verdict ------------------
# four random ReLU nets (1, 2 and 96 inputs) whose output's exact extremes over the box are known
# in rational arithmetic; thresholds just past them (unsat would be wrong) and just short of them
fuzz_check "exact extremes" fuzz_exact --count 4 --seed 26 --modes ",--split relu" --timeout 1 \
    --keep "$TMP/fuzz"

# --- soundness against sampled extremes (scripts/fuzz_sampled.py): no wrong verdict -------------
# four random nets mixing the activation and operator kinds; thresholds a sampled point reaches
# (unsat would be wrong), without the attack
fuzz_check "sampled extremes" fuzz_sampled --count 4 --seed 11 --modes=--no-attack --timeout 1 \
    --keep "$TMP/fuzz_sampled"

# --- several inputs and outputs matched by order and by name: the same answers, and every unsat's
# certificate valid ----------------------------------------------------------------------------
if [ "$CHECK_CEX" -eq 1 ]; then
    out=$("$PY" scripts/fuzz_multi_io.py "$BIN" --count 8 --seed 5 --certificate 2>&1); rc=$?
    if [ "$rc" -eq 0 ]; then
        pass "by order and by name (fuzz_multi_io.py)" "${out%%:*}; ${out##*; }"
    else
        fail "by order and by name (fuzz_multi_io.py)" "exit $rc: $(printf '%s' "$out" | head -n 1)"
    fi
else
    echo "note: numpy/protobuf missing: scripts/fuzz_multi_io.py skipped"
fi

# --- the memory ceiling on a spec of many rows over a large input: 999 cases over 37,632 inputs
# (scripts/make_large_bench.py --stem 112) proved within --max-memory 512, peak resident size
# included (bounded all at once, the rows took 3.8 GB and the search timed out)
if [ "$CHECK_CEX" -eq 1 ] &&
    "$PY" scripts/make_large_bench.py "$TMP/large" --stem 112 >/dev/null; then
    for sp in pix50 point; do
        # (the peak resident size of the one child, in MB, after its verdict)
        out=$("$PY" - "$BIN" "$TMP/large/onnx/stem112.onnx" "$TMP/large/vnnlib/stem112_$sp.vnnlib" \
              <<'PYEOF' 2>&1
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:] + ["--timeout", "20", "--max-memory", "512"],
                   capture_output=True, text=True, timeout=60)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(p.stdout.strip(), p.returncode, peak)
PYEOF
)
        read -r verdict code mb <<<"$out"
        if [ "$verdict" = unsat ] && [ "$code" = 0 ] && [ "${mb:-9999}" -le 512 ]; then
            pass "999 rows over 37,632 inputs ($sp)" "unsat, peak $mb MB of 512"
        else
            fail "999 rows over 37,632 inputs ($sp)" "$out (want: unsat 0, at most 512 MB)"
        fi
    done
else
    echo "note: numpy/protobuf missing: the large-input memory check skipped"
fi

echo "regress: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
