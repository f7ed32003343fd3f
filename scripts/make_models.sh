#!/usr/bin/env bash
# Regenerate models/, specs/, models/EXPECTED.csv and tests/data/bad/ (deterministic).
# Uses Debian's /usr/bin/python3 (stdlib only) and protoc; see scripts/make_models.py for how
# each verdict is known.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec /usr/bin/python3 "$ROOT/scripts/make_models.py" --root "$ROOT" "$@"
