#!/usr/bin/env bash
# The cost of `contacts --contact-model` against the hand-built detector on a 10-minute recording (issue
# #26): a model learnt from a 60-s synthetic track (seed 1, mixed), then both runs on the 600-s track
# (seed 2, mixed) as whole processes, median of 3, and learn-contacts on the 60-s track and on 10 minutes;
# then the peak memory (resident set) of each run, once, by /usr/bin/time.
#   bench/contact_model_speed.sh BIN_DIR      (BIN_DIR holds swingmaster and swingbench; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
[ -x "$BIN_DIR/swingbench" ] && [ -x "$BIN_DIR/swingmaster" ] \
  || { echo "contact_model_speed: no swingbench and swingmaster in $BIN_DIR (build them: swift build -c release)"; exit 1; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
echo "# bench/contact_model_speed.sh, $(date -u +%F), $(git rev-parse --short HEAD 2>/dev/null || echo unknown commit)"
"$BIN_DIR/swingbench" contacts --synthesize "$work/learn.wav" --seconds 60 --seed 1 --condition mixed > /dev/null
"$BIN_DIR/swingbench" contacts --synthesize "$work/long.wav" --seconds 600 --seed 2 --condition mixed > /dev/null
to_contacts() { python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["contacts"]; json.dump({"contacts":[{"time":x} for x in t]}, open(sys.argv[2],"w"))' "$1" "$2"; }
to_contacts "$work/learn.wav.truth.json" "$work/learn.contacts"
to_contacts "$work/long.wav.truth.json" "$work/long.contacts"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {  # timed N CMD…: median wall seconds of N runs
  local n=$1; shift
  for _ in $(seq "$n"); do
    local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk "BEGIN{print $e-$s}"
  done | median
}
learn60=$(timed 3 "$BIN_DIR/swingmaster" learn-contacts "$work/learn.wav" --contacts "$work/learn.contacts" --out "$work/m.json")
learn600=$(timed 1 "$BIN_DIR/swingmaster" learn-contacts "$work/long.wav" --contacts "$work/long.contacts" --out "$work/m600.json")
model=$(timed 3 "$BIN_DIR/swingmaster" contacts "$work/long.wav" --contact-model "$work/m.json" --json)
plain=$(timed 3 "$BIN_DIR/swingmaster" contacts "$work/long.wav" --json)
peak() {  # peak CMD…: maximum resident set, MB (10^6 bytes)
  /usr/bin/time -f "%M" -o "$work/rss" "$@" > /dev/null 2>&1
  awk '{printf "%d", $1 / 1000}' "$work/rss"  # kB to MB, as docs/contacts.md counts
}
model_mb=$(peak "$BIN_DIR/swingmaster" contacts "$work/long.wav" --contact-model "$work/m.json" --json)
plain_mb=$(peak "$BIN_DIR/swingmaster" contacts "$work/long.wav" --json)
awk -v l60="$learn60" -v l600="$learn600" -v m="$model" -v p="$plain" -v mm="$model_mb" -v pm="$plain_mb" 'BEGIN {
  printf "learn-contacts, 60-s track: %.2f s; 600-s track: %.2f s\n", l60, l600
  printf "contacts --contact-model, 600-s track, whole process: %.2f s (%.0f× real time), peak %d MB\n", m, 600 / m, mm
  printf "contacts (the hand-built detector), same file: %.2f s (%.0f× real time), peak %d MB; the model costs %.1f×\n", p, 600 / p, pm, m / p
}'
