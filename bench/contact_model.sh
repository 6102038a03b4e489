#!/usr/bin/env bash
# `learn-contacts` through the phone chains (issue #26): each of issue #26's tracks is made twice (seeds 1
# and 2: other placements, levels, crowds and gusts, the same recorded hit sounds), every chain of
# tools/phone_chain.py. For each track and chain a model is learnt from the seed-1 recording and its
# contacts, as a player's confirmed contacts of one session would teach it, and finds the contacts of the
# seed-2 recording through the same chain. Beside it, in the same run: the hand-built detector
# (`swingmaster contacts`) on the same files, and scikit-learn's HistGradientBoostingClassifier learning
# from the same sound events (tools/reference_events.py) with the same threshold rule. 20–35 minutes on 2 cores.
#   bench/contact_model.sh BIN_DIR      (BIN_DIR holds swingmaster and swingbench; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
BENCH_PY=.deps/bench-venv/bin/python
. bench/lib.sh
two_seeds contact_model "$BIN_DIR" "$PY"
# Each track's truth in the `contacts --json` shape that learn-contacts reads.
for truth in "$work"/seed1/*.json; do
  "$PY" -c 'import json,sys; t=json.load(open(sys.argv[1]))["contacts"]; json.dump({"contacts":[{"time":x} for x in t]}, open(sys.argv[2],"w"))' \
    "$truth" "${truth%.json}.contacts"
done
# learn (seed 1) → find (seed 2); the hand-built detector on seed 2. Wall time of each step in .time.
find "$work/seed1" -path '*.chains/*.wav' | sort | xargs -P 2 -I{} bash -c '
  wav={} bin=$0; track=${wav%.chains/*}; chain=$(basename "$wav" .wav); other=${track/seed1/seed2}.chains/$chain.wav
  # A refusal (fewer than 10 hits with a sound through phone-worst: exit 34) leaves no model; the cell then
  # scores every hit missed, and the sentence is kept in .learn.log for the summary.
  s=$(date +%s.%N); "$bin/swingmaster" learn-contacts "$wav" --contacts "$track.contacts" --out "$wav.model.json" > /dev/null 2> "$wav.learn.log" || true
  m=$(date +%s.%N); [ -f "$wav.model.json" ] && "$bin/swingmaster" contacts "$other" --contact-model "$wav.model.json" --json > "$other.model.json" 2>/dev/null || true
  e=$(date +%s.%N); "$bin/swingmaster" contacts "$other" --json > "$other.default.json" 2>/dev/null || true
  f=$(date +%s.%N); awk "BEGIN{print $m-$s}" > "$wav.learn.time"; awk "BEGIN{print $e-$m}" > "$other.model.time"
  awk "BEGIN{print $f-$e}" > "$other.default.time"' "$BIN_DIR"
"$BENCH_PY" bench/contact_model.py "$work/seed1" "$work/seed2"
