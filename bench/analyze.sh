#!/usr/bin/env bash
# Session analysis at product scale: a generated 10-minute 1080p60 file with 120 contacts (the demo
# clip's real footage looped and upscaled, synthetic court sound with a hit every 5 s), analysed by
# `swingmaster analyze`. Prints wall time, real-time factor, peak RSS, contacts found.
# Goal (issue 5): ≥ 10× faster than real time on 2 cores, peak RSS ≤ 500 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PYTHON="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
OUT=bench/out; mkdir -p "$OUT"
FILE="$OUT/session_10min_1080p60.mp4"
if [ ! -f "$FILE" ]; then
  echo "generating $FILE (once; cached) …"
  contacts=$(python3 -c "print(','.join(f'{2.5 + 5*i:.1f}' for i in range(120)))")
  "$PYTHON" tools/demo_sample_audio.py --duration 600 --seed 7 --contacts "$contacts" \
    --wav "$OUT/session_10min.wav" --truth "$OUT/session_10min.truth.json"
  ffmpeg -v error -y -stream_loop 49 -i Samples/demo_session.mp4 -i "$OUT/session_10min.wav" \
    -map 0:v -map 1:a -vf "scale=1920:1080:flags=bilinear,fps=60" -t 600 \
    -c:v libx264 -preset ultrafast -crf 30 -g 120 -c:a aac -b:a 96k "$FILE"
fi
export SWINGMASTER_HOME; SWINGMASTER_HOME=$(mktemp -d)
log=$(mktemp)
start=$(date +%s.%N)
/usr/bin/time -v "$BIN_DIR/swingmaster" analyze "$FILE" --hand right --no-store --json "$OUT/session_10min.result.json" >"$OUT/session_10min.summary.txt" 2>"$log"
end=$(date +%s.%N)
rss_kb=$(awk -F: '/Maximum resident set size/ {gsub(/ /,"",$2); print $2}' "$log")
"$PYTHON" - "$start" "$end" "$rss_kb" "$OUT/session_10min.result.json" "$OUT/session_10min.truth.json" <<'PY'
import json, sys
start, end, rss_kb = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
doc = json.load(open(sys.argv[4]))["session"]; truth = json.load(open(sys.argv[5]))["contacts"]
found = sum(any(abs(s["time"] - t) <= 0.02 for s in doc["shots"]) for t in truth)
wall = end - start
print(f"analyze 10-min 1080p60, {len(truth)} contacts: wall {wall:.1f} s, real-time factor {600/wall:.1f}x "
      f"(goal >= 10x), peak RSS {rss_kb/1024:.0f} MB (goal <= 500 MB)")
print(f"contacts found {found}/{len(truth)} within 20 ms; shots with a person {doc['stats']['shotCount']}")
PY
grep -E "timings" "$OUT/session_10min.summary.txt" || true
rm -rf "$SWINGMASTER_HOME" "$log"
