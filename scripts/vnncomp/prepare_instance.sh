#!/usr/bin/env bash
# VNN-COMP: prepare_instance.sh v1 <benchmark> <onnx> <vnnlib>
# verify needs no per-instance preparation; this only checks that the files exist
# (plain or .gz, or named without the .gz of the file that exists; run_instance.sh decompresses
# .gz itself).
set -euo pipefail
if [ "$#" -ne 4 ] || [ "$1" != "v1" ]; then
    echo "usage: $0 v1 <benchmark> <onnx> <vnnlib>" >&2
    exit 1
fi
# <onnx> may list the models of a query over several networks, "[('f', 'a.onnx'), ...]"
# shellcheck source=scripts/vnncomp/models.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/models.sh"
if ! read_models "$3"; then
    echo "prepare_instance.sh: cannot read the models of '$3'" >&2
    exit 1
fi
for f in "${paths[@]}" "$4"; do
    if [ ! -f "$f" ] && [ ! -f "$f.gz" ]; then
        echo "prepare_instance.sh: no such file: $f" >&2
        exit 1
    fi
done
exit 0
