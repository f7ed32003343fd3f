#!/usr/bin/env bash
# VNN-COMP: run_instance.sh v1 <benchmark> <onnx> <vnnlib> <result_file> <timeout>
# (<onnx>: a path, or for a query over several networks "[('f', 'a.onnx'), ('g', 'b.onnx')]")
# Runs verify with a timeout a little below the given one and always leaves a result file:
# verify writes it itself; if it died without one, we write "timeout" (killed by our guard)
# or "error". The guard kills verify at timeout+5 s so the harness never has to kill us.
set -uo pipefail

if [ "$#" -ne 6 ] || [ "$1" != "v1" ]; then
    echo "usage: $0 v1 <benchmark> <onnx> <vnnlib> <result_file> <timeout>" >&2
    exit 1
fi
onnx=$3
vnnlib=$4
result=$5
tmo=$6

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERIFY="${VERIFY_BIN:-$ROOT/build/release/verify}"

rm -f "$result"
workdir=""
# shellcheck disable=SC2317  # invoked by the trap
cleanup() { if [ -n "$workdir" ]; then rm -rf "$workdir"; fi; }
trap cleanup EXIT
trap 'exit 143' TERM INT

fail() {
    echo "run_instance.sh: $*" >&2
    echo error >"$result"
    exit 0
}

# <onnx>: one model, or VNN-COMP 2026's list of a query's models; verify takes the latter as
# NAME=PATH arguments
# shellcheck source=scripts/vnncomp/models.sh
. "$ROOT/scripts/vnncomp/models.sh"
read_models "$onnx" ||
    fail "cannot read the models of '$onnx' (expected [('NAME', 'PATH'), ...])"

# A path whose file exists only compressed (benchmark repositories keep x.onnx.gz while
# instances.csv names x.onnx) means the .gz; .gz inputs are decompressed into a private
# temporary directory (removed by the EXIT trap).
gunzip_to() {   # FILE OUT
    if [ -z "$workdir" ]; then
        # (mktemp's template: it replaces the Xs)
        workdir=$(mktemp -d "${TMPDIR:-/tmp}/verify-run.XXXXXX") || fail "mktemp failed"
    fi
    gzip -dc -- "$1" >"$workdir/$2" || fail "cannot decompress $1"
}
models=()
for k in "${!paths[@]}"; do
    m=${paths[$k]}
    if [ ! -f "$m" ] && [ -f "$m.gz" ]; then m="$m.gz"; fi
    [ -f "$m" ] || fail "no such file: $m"
    case "$m" in
        *.gz) gunzip_to "$m" "model$k.onnx"
              m="$workdir/model$k.onnx" ;;
    esac
    models+=("${names[$k]:+${names[$k]}=}$m")
done
if [ ! -f "$vnnlib" ] && [ -f "$vnnlib.gz" ]; then vnnlib="$vnnlib.gz"; fi
[ -f "$vnnlib" ] || fail "no such file: $vnnlib"
case "$vnnlib" in
    *.gz) gunzip_to "$vnnlib" spec.vnnlib
          vnnlib="$workdir/spec.vnnlib" ;;
esac

[ -x "$VERIFY" ] || fail "verify binary not found: $VERIFY (run install_tool.sh v1)"

# Timeout handed to verify: leave ~2 s for process start-up and exit (less for tiny timeouts).
inner=$(awk -v t="$tmo" 'BEGIN {
    if (t !~ /^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/) { print "bad"; exit }
    m = (t > 10) ? 2 : t * 0.15; v = t - m; if (v < 0.1) v = 0.1; printf "%.3f", v }')
[ "$inner" != "bad" ] || fail "bad timeout: $tmo"
guard=$(awk -v t="$tmo" 'BEGIN { printf "%.3f", t + 5 }')

timeout --kill-after=2 "$guard" "$VERIFY" "${models[@]}" "$vnnlib" --timeout "$inner" \
    --result "$result"
rc=$?

# A result file is complete when its first line is a verdict and, after "sat", the
# counterexample's parentheses are balanced ("((X_0 v) ... (Y_0 v))" or "(\n(X_0 v)\n...\n)"),
# or, for a VNNLIB 2.0 query, every "NAME TYPE [shape]" line is followed by exactly as many
# numbers as its shape holds. A crash or kill in mid-write leaves something else.
complete_v2() {
    tail -n +2 -- "$result" | awk '
        function size(s,  a, n, i, p) {
            gsub(/[][ ]/, "", s); if (s == "") return 1
            n = split(s, a, ","); p = 1; for (i = 1; i <= n; i++) p *= a[i]; return p }
        NF == 0 { next }
        need > 0 { if ($0 !~ /^[-+]?[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$/) bad = 1; need--; next }
        /^[A-Za-z][A-Za-z0-9_]* [A-Za-z0-9]+ [[][0-9, ]*[]]$/ {
            need = size(substr($0, index($0, "["))); tensors++; next }
        { bad = 1 }
        END { exit !(tensors >= 2 && need == 0 && !bad) }'
}
complete() {
    local first open close
    [ -s "$result" ] || return 1
    first=$(head -n 1 -- "$result" | tr -d '[:space:]')
    case "$first" in
        unsat|unknown|timeout|error) return 0 ;;
        sat) open=$(tail -n +2 -- "$result" | tr -cd '(' | wc -c)
             close=$(tail -n +2 -- "$result" | tr -cd ')' | wc -c)
             if [ "$open" -eq 0 ] && [ "$close" -eq 0 ]; then
                 complete_v2
             else
                 [ "$open" -gt 0 ] && [ "$open" -eq "$close" ]
             fi ;;
        *) return 1 ;;
    esac
}

if ! complete; then
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo timeout >"$result"
    else
        echo "run_instance.sh: verify exited with code $rc and no complete result file" >&2
        echo error >"$result"
    fi
fi
exit 0
