#!/usr/bin/env bash
# YOLO benchmark for `make bench`: Swingmaster (swingbench yolo) vs the same pipeline in Python
# (onnxruntime + numpy, bench/yolo_peer.py) and Ultralytics' predictor when importable.
# Usage: bench/yolo.sh [SWINGBENCH] [MODEL.onnx] [IMAGE]
#   defaults: .build/release/swingbench, Tests/SwingVisionTests/Fixtures/yolo/yolo11n.onnx,
#             a 1280×720 test pattern JPEG generated with the ffmpeg CLI.
# Env: BENCH_RUNS (default 20), SWINGMASTER_PYTHON (peer), SWINGMASTER_YOLO_PYTHON (a venv with
#      opencv/ultralytics, e.g. /work/venvs/yolo/bin/python; preferred for the peer when set).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH="${1:-.build/release/swingbench}"
MODEL="${2:-Tests/SwingVisionTests/Fixtures/yolo/yolo11n.onnx}"
IMAGE="${3:-}"
RUNS="${BENCH_RUNS:-20}"
PY="${SWINGMASTER_YOLO_PYTHON:-${SWINGMASTER_PYTHON:-.deps/venv/bin/python}}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

if [ -z "$IMAGE" ]; then
  # The peer decodes JPEG only with cv2/Pillow; without them both sides read the same PPM.
  if "$PY" -c "import cv2" 2>/dev/null || "$PY" -c "import PIL" 2>/dev/null; then IMAGE="$OUT/bench_1280x720.jpg"
  else IMAGE="$OUT/bench_1280x720.ppm"; fi
  ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=1280x720 -frames:v 1 -q:v 3 "$IMAGE"
fi

"$BENCH" yolo --model "$MODEL" --image "$IMAGE" --runs "$RUNS" --json > "$OUT/swift.json"
"$PY" bench/yolo_peer.py --model "$MODEL" --image "$IMAGE" --runs "$RUNS" --json 2>/dev/null | tail -n 1 > "$OUT/python.json"

"$PY" - "$OUT/swift.json" "$OUT/python.json" "$(basename "$MODEL")" "$(basename "$IMAGE")" <<'PYEOF'
import json, sys
s, p = (json.load(open(f)) for f in sys.argv[1:3])
print(f"YOLO bench: {sys.argv[3]} on {sys.argv[4]} {s['image'][0]}x{s['image'][1]}, median of runs, ms "
      f"({s['candidatesAboveConf']} of {s['outputShape'][-1]} anchors above conf; {s['detections']} detections ours, {p['detections']} python)")
print(f"{'stage':<10}{'swingmaster':>14}{'python':>12}{'ratio':>9}")
for k in ["decode", "pre", "infer", "post", "total"]:
    a, b = s["medianMs"][k], p["medianMs"][k]
    print(f"{k:<10}{a:>14.2f}{b:>12.2f}{(b / a if a else float('nan')):>8.2f}x")
a, b = s["postOnlyMs"], p["postOnlyMs"]
print(f"{'post only':<10}{a:>14.3f}{b:>12.3f}{(b / a if a else float('nan')):>8.2f}x   (goal: ours < 0.5 ms on a real model at conf 0.25)")
if s.get("postSyntheticMs") is not None:
    a, b = s["postSyntheticMs"], p["postSyntheticMs"]
    print(f"{'post real':<10}{a:>14.3f}{b:>12.3f}{b / a:>8.2f}x   (realistic output, {s['syntheticCandidates']} candidates above conf)")
if p.get("ultralyticsMs"):
    u = p["ultralyticsMs"]
    print(f"{'ultralytics':<10}{s['medianMs']['total']:>14.2f}{u:>12.2f}{u / s['medianMs']['total']:>8.2f}x   (Ultralytics predictor end to end)")
t = p["medianMs"]["total"] / s["medianMs"]["total"]
print(f"end-to-end speed-up vs python onnxruntime+numpy: {t:.2f}x (goal >= 1.3x) — python decoder: {p['decoder']}")
PYEOF
