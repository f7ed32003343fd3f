#!/usr/bin/env bash
# VNN-COMP: install_tool.sh v1 -- install the Debian dependencies and build verify.
set -euo pipefail
if [ "$#" -ne 1 ] || [ "$1" != "v1" ]; then
    echo "usage: $0 v1" >&2
    exit 1
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$ROOT/scripts/setup.sh"
make -C "$ROOT" -j"$(nproc 2>/dev/null || echo 2)"
test -x "$ROOT/build/release/verify"
