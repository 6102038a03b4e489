#!/usr/bin/env bash
# `measure` on a 10-minute 60 fps track with 120 contacts vs the numpy reference (tools/reference_measure.py).
set -euo pipefail
cd "$(dirname "$0")/.."
"${1:-.build/release}/swingbench" biomech --python "${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
