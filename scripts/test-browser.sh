#!/usr/bin/env bash
# The web app in a real browser: starts our server on 127.0.0.1 (a free port, a fresh home) and drives
# Debian's headless chromium through chromedriver with selenium (Tests/browser). Screenshots of every
# page at 375 and 1440 px land in .build/screenshots/. Called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${SWINGMASTER_PYTHON:-$PWD/.deps/venv/bin/python}"
export SWINGMASTER_ONNXRUNTIME="${SWINGMASTER_ONNXRUNTIME:-$PWD/.deps/onnxruntime/lib/libonnxruntime.so}"
export SWINGMASTER_BIN="${SWINGMASTER_BIN:-$PWD/.build/debug/swingmaster}"
[ -x "$SWINGMASTER_BIN" ] || { echo "test-browser: build first ($SWINGMASTER_BIN is missing)" >&2; exit 1; }
cd Tests/browser
exec "$PY" -m unittest -v "$@"
