#!/usr/bin/env bash
# `make demo`: analyse the bundled session clip end to end and print the summary.
# The session goes to a throw-away SWINGMASTER_HOME unless the caller sets one.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-.build/release/swingmaster}"
SAMPLE="Samples/demo_session.mp4"
export SWINGMASTER_HOME="${SWINGMASTER_HOME:-$(mktemp -d)/swingmaster-demo}"
echo "== swingmaster analyze $SAMPLE --hand right   (database: $SWINGMASTER_HOME)"
"$BIN" analyze "$SAMPLE" --hand right --max-duration 600
echo
echo "== swingmaster sessions list"
"$BIN" sessions list
