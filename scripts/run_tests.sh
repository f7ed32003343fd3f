#!/usr/bin/env bash
# Run every Check suite binary given as arguments, then the regression tier (scripts/regress.sh).
# Prints each suite's own Check summary and one closing line "tests: N passed, N failed".
#
# The suites and the tier run TEST_JOBS at a time (default: the number of cores, at most 2), the
# longest first (check_verify, the tier, check_refine: the order below), each into a file of its
# own; their outputs are then printed in the order given, as when they ran one after another. On
# the project's 2 cores that halves the release run (205 s one at a time); TEST_JOBS=1 runs them
# one at a time.
set -u
cd "$(dirname "$0")/.."
passed=0; failed=0
failures=""   # every failing check's line, repeated above the closing line
# keep_failures TEXT REGEX: add TEXT's lines that match REGEX to failures
keep_failures() {
    local f
    f=$(printf '%s\n' "$1" | grep -E "$2" || true)
    [ -z "$f" ] || failures="$failures$f"$'\n'
}
jobs_max=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs_max" -gt 2 ] && jobs_max=2
[ "$jobs_max" -lt 1 ] && jobs_max=1
work=$(mktemp -d /tmp/run_tests.XXXXXX)
trap 'rm -rf "$work"' EXIT

# run_one NAME CMD...: CMD's output into $work/NAME.out, its exit code into $work/NAME.rc
run_one() {
    local name=$1; shift
    "$@" > "$work/$name.out" 2>&1
    echo $? > "$work/$name.rc"
}
tier=""
if [ -x scripts/regress.sh ] && [ -n "${VFY_BIN:-}" ]; then
    tier=regress
fi
# the longest first (measured on the release build: check_verify 85 s, the tier 43 s,
# check_refine 39 s, check_cert 17 s, check_bound 12 s, check_onnx 6 s, the others under 2 s)
order=()
for want in check_verify regress check_refine check_cert check_bound check_onnx; do
    if [ "$want" = regress ]; then
        [ -n "$tier" ] && order+=(regress)
        continue
    fi
    for bin in "$@"; do
        [ "$(basename "$bin")" = "$want" ] && order+=("$bin")
    done
done
for bin in "$@"; do
    case " ${order[*]} " in *" $bin "*) ;; *) order+=("$bin") ;; esac
done
running=0
for job in "${order[@]}"; do
    if [ "$running" -ge "$jobs_max" ]; then
        wait -n
        running=$((running - 1))
    fi
    if [ "$job" = regress ]; then
        run_one regress scripts/regress.sh "$VFY_BIN" &
    else
        run_one "$(basename "$job")" env CK_FORK=yes "$job" &
    fi
    running=$((running + 1))
done
wait

for bin in "$@"; do
    name=$(basename "$bin")
    echo "== $bin"
    out=$(cat "$work/$name.out"); rc=$(cat "$work/$name.rc")
    printf '%s\n' "$out" | tail -n 40
    keep_failures "$out" '^[^ :]+:[0-9]+:[FE]:'   # Check's file:line:F|E:case:test:...
    # Check prints "NN%: Checks: C, Failures: F, Errors: E"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
    if [ -n "$line" ]; then
        c=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
        f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
        e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
        passed=$((passed + c - f - e)); failed=$((failed + f + e))
    fi
    if [ "$rc" -ne 0 ] && { [ -z "$line" ] || [ "$f" = 0 ] && [ "$e" = 0 ]; }; then
        echo "suite $bin exited with $rc"; failed=$((failed + 1))
    fi
done
if [ -n "$tier" ]; then
    echo "== regression tier"
    out=$(cat "$work/regress.out"); rc=$(cat "$work/regress.rc")
    printf '%s\n' "$out" | tail -n 60
    keep_failures "$out" '^FAIL '
    line=$(printf '%s\n' "$out" | grep -E '^regress: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/regress: ([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        passed=$((passed + p)); failed=$((failed + f))
    fi
    [ "$rc" -ne 0 ] && [ -z "$line" ] && failed=$((failed + 1))
fi
if [ -n "$failures" ]; then
    echo "== failing checks"
    printf '%s' "$failures"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
