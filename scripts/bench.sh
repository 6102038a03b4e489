#!/usr/bin/env bash
# `make bench`: each benchmark runs our code and its named peer side by side, in one run, and prints
# the ratio. Results are also written to bench/results/<area>.txt (committed: the numbers in the repo).
# Areas: contacts (audio DSP vs the Python/scipy reference), contacts_process (`swingmaster contacts` from
# process start to JSON vs the Python reference), contacts_suite (the synthetic suite's F1 per condition and
# parameter variant), recorded_contacts (F1 on recorded sound, ours and the Python reference), media
# (decode vs the ffmpeg CLI), yolo (end-to-end detect vs Python ORT+numpy), pose (BlazePose vs MediaPipe
# Python), pose_int8 (an int8 landmark model: speed and how far its landmarks move), biomech (measure vs numpy), interpret (interpreter overhead), analyze_phone (120-s sessions
# encoded as phones do: against the floor and OpenCV + MediaPipe), analyze_cores (the phone file on 1, 2, 4 … cores), analyze (10-min 1080p60 session:
# real-time factor, peak RSS), fusion (audio-only vs audio+visual contacts with a colour-keyed stand-in
# detector), serve (uploads, job events and session latency vs a Python stdlib server), real (the labelled
# real recordings in ../shared/real, when present: hits, who hit, the instant, the stroke; bench/real.sh),
# highlights (a 10-minute session's highlights vs the ffmpeg CLI cutting the same clips).
# Pick some with BENCH="contacts yolo".
set -uo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="$(cd "$(dirname "${1:-.build/release/swingmaster}")" && pwd)"
command -v swift >/dev/null || export PATH="${SWIFT_HOME:-/opt/swift}/usr/bin:$PATH"
swift build -c release --product swingbench >/dev/null
mkdir -p bench/results bench/out
AREAS="${BENCH:-contacts contacts_process contacts_suite recorded_contacts media yolo detect_video live ort_versions pose pose_int8 biomech interpret analyze_phone analyze_cores analyze fusion serve download real highlights}"
status=0
for area in $AREAS; do
  script="bench/$area.sh"
  [ -x "$script" ] || { echo "bench: no $script, skipped"; continue; }
  echo "================ $area ================"
  arg="$BIN_DIR"; [ "$area" = yolo ] && arg="$BIN_DIR/swingbench"
  if "$script" "$arg" 2>&1 | tee "bench/results/$area.txt"; then :; else status=1; fi
done
exit $status
