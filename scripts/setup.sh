#!/usr/bin/env bash
# Install the Debian packages that verify needs to build, test and run its scripts.
# Idempotent: checks each package with dpkg -s and prints nothing when all are present.
# Works as root; otherwise uses sudo when available.
set -euo pipefail

PKGS=(
    build-essential gcc make pkg-config
    libglpk-dev libopenblas-dev
    libprotobuf-c-dev protobuf-c-compiler protobuf-compiler
    check libsubunit-dev
    libonnx-dev
    python3 python3-numpy python3-protobuf
    gzip time
)

missing=()
for p in "${PKGS[@]}"; do
    if ! dpkg -s "$p" >/dev/null 2>&1; then
        missing+=("$p")
    fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "setup.sh: missing packages (${missing[*]}) and not root, no sudo" >&2
        exit 1
    fi
fi

echo "setup.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq >/dev/null
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup.sh: done" >&2
