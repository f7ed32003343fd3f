#!/usr/bin/env bash
# Run every Check suite binary given as arguments, then the regression tier (scripts/regress.sh).
# Prints each suite's own Check summary and one closing line "tests: N passed, N failed".
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
for bin in "$@"; do
    echo "== $bin"
    out=$(CK_FORK=yes "$bin" 2>&1); rc=$?
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
    if [ $rc -ne 0 ] && { [ -z "$line" ] || [ "$f" = 0 ] && [ "$e" = 0 ]; }; then
        echo "suite $bin exited with $rc"; failed=$((failed + 1))
    fi
done
if [ -x scripts/regress.sh ] && [ -n "${VFY_BIN:-}" ]; then
    echo "== regression tier"
    out=$(scripts/regress.sh "$VFY_BIN" 2>&1); rc=$?
    printf '%s\n' "$out" | tail -n 60
    keep_failures "$out" '^FAIL '
    line=$(printf '%s\n' "$out" | grep -E '^regress: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/regress: ([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        passed=$((passed + p)); failed=$((failed + f))
    fi
    [ $rc -ne 0 ] && [ -z "$line" ] && failed=$((failed + 1))
fi
if [ -n "$failures" ]; then
    echo "== failing checks"
    printf '%s' "$failures"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
