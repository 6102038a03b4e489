#!/usr/bin/env bash
# Could a learned detector survive the phone chains, on sounds it has heard and on sounds it has not?
# (issue #26; bench/contact_classifier.py says how.) Makes issue #26's tracks twice (seeds 1 and 2; every
# chain of tools/phone_chain.py), runs `swingmaster contacts` on seed 2, and trains and scores the
# classifiers on them in the same run. 25–40 minutes on 2 cores.
#   bench/contact_classifier.sh BIN_DIR      (BIN_DIR holds swingmaster and swingbench; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
BENCH_PY=.deps/bench-venv/bin/python
. bench/lib.sh
two_seeds contact_classifier "$BIN_DIR" "$PY"
find "$work/seed2" -path '*.chains/*.wav' | sort | xargs -P 2 -I{} bash -c \
  "'$BIN_DIR/swingmaster' contacts {} --json > {}.default.json 2>/dev/null"
"$BENCH_PY" bench/contact_classifier.py "$work/seed1" "$work/seed2"
