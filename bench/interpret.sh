#!/usr/bin/env bash
# Interpreter overhead per frame with 300 detections (goal < 50 µs each).
set -euo pipefail
cd "$(dirname "$0")/.."
"${1:-.build/release}/swingbench" interpret --detections 300
