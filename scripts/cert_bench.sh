#!/usr/bin/env bash
# Certify and check every unsat instance of a benchmark folder: checking time against verification
# time (issue 5).
#
#   scripts/cert_bench.sh BENCH_DIR [TIMEOUT_S] [VERIFY_BIN] [FILTER]
#
# FILTER (an extended regular expression) keeps the instances whose "onnx,vnnlib" matches it, e.g.
# 256x2 for one mnist_fc network.
# BENCH_DIR holds consensus.csv (onnx,vnnlib,consensus,best_tool,best_time_s,resolved,...); every
# row with resolved=unsat is run as  verify ONNX VNNLIB --certificate C --timeout T  and, when that
# answers unsat, checked with  verify --check-certificate ONNX VNNLIB C.  Prints one line per
# instance (verify time, verdict, certificate size, check time, check result) and the totals.
# Gzipped models/specs (name.gz) are unpacked to a temporary folder first.
set -u
bench=${1:?usage: scripts/cert_bench.sh BENCH_DIR [TIMEOUT_S] [VERIFY_BIN]}
timeout_s=${2:-60}
bin=${3:-build/release/verify}
filter=${4:-}
csv="$bench/consensus.csv"
[ -f "$csv" ] || { echo "cert_bench: $csv not found" >&2; exit 4; }
[ -x "$bin" ] || { echo "cert_bench: $bin not built (make)" >&2; exit 4; }
tmp=$(mktemp -d /tmp/cert_bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

resolve() { # path relative to the bench folder -> a readable file
    local p="$bench/$1"
    if [ -f "$p" ]; then echo "$p"; return; fi
    if [ -f "$p.gz" ]; then p="$p.gz"; fi
    case "$p" in
    *.gz) local out="$tmp/$(echo "$1" | tr '/' '_')"; out=${out%.gz}
          [ -f "$out" ] || gunzip -c "$p" > "$out"; echo "$out" ;;
    *) echo "$p" ;;
    esac
}
now() { date +%s.%N; }

printf '%-50s %-14s %9s %-8s %10s %9s %s\n' onnx vnnlib verify_s verdict cert_bytes check_s check
n=0; n_unsat=0; n_valid=0; tv_all=0; tv_cert=0; tc_all=0
while IFS=, read -r onnx vnnlib consensus best_tool best_time resolved rest; do
    [ "$onnx" = onnx ] && continue
    [ "$resolved" = unsat ] || continue
    if [ -n "$filter" ] && ! echo "$onnx,$vnnlib" | grep -Eq -- "$filter"; then continue; fi
    n=$((n + 1))
    m=$(resolve "$onnx"); s=$(resolve "$vnnlib"); c="$tmp/cert"
    rm -f "$c"
    t0=$(now)
    verdict=$("$bin" "$m" "$s" --certificate "$c" --timeout "$timeout_s" 2>/dev/null | head -n 1)
    t1=$(now)
    tv=$(echo "$t1 - $t0" | bc -l)
    tv_all=$(echo "$tv_all + $tv" | bc -l)
    size=-; tc=-; check=-
    if [ "$verdict" = unsat ]; then
        n_unsat=$((n_unsat + 1))
        tv_cert=$(echo "$tv_cert + $tv" | bc -l)
        size=$(stat -c %s "$c")
        t0=$(now)
        check=$("$bin" --check-certificate "$m" "$s" "$c" 2>&1 | head -n 1)
        t1=$(now)
        tc=$(echo "$t1 - $t0" | bc -l)
        tc_all=$(echo "$tc_all + $tc" | bc -l)
        case "$check" in valid) n_valid=$((n_valid + 1)) ;; esac
        tc=$(printf '%.3f' "$tc")
    fi
    printf '%-50s %-14s %9.3f %-8s %10s %9s %s\n' "$(basename "$onnx")" "$(basename "$vnnlib")" \
        "$tv" "${verdict:-error}" "$size" "$tc" "$check"
done < "$csv"
printf 'cert_bench: %d unsat instances, %d proved unsat, %d certificates valid\n' "$n" "$n_unsat" "$n_valid"
printf 'cert_bench: verify %.2f s in all (%.2f s on the proved ones), check %.2f s' "$tv_all" "$tv_cert" "$tc_all"
if [ "$n_unsat" -gt 0 ]; then printf ' (check/verify %.2f)' "$(echo "$tc_all / $tv_cert" | bc -l)"; fi
printf '\n'
