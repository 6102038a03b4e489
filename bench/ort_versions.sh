#!/usr/bin/env bash
# ONNX Runtime, the version we pin against the one before it, side by side in one run: the same binary
# loads each library (SWINGMASTER_ONNXRUNTIME), alternating, ROUNDS times; medians.
#   YOLO:     detect on 100 frames of 1280×720 H.264 with a YOLO11n-architecture model at 640
#             (tools/make_realistic_yolo.py) — mean inference ms per frame from the --json timings, and wall s
#   BlazePose: pose on the bundled demo clip — wall s
#   analyze:  the whole session analysis of the bundled demo clip (--no-store) — wall s
# The old library comes from the onnxruntime 1.23.2 wheel on PyPI (SHA-256 pinned below), into .deps.
# Usage: bench/ort_versions.sh [BIN_DIR] [ROUNDS]   (BIN_DIR holds swingmaster; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-.build/release}/swingmaster"; ROUNDS="${2:-3}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
NEW="$PWD/.deps/onnxruntime/lib/libonnxruntime.so"
OLD_VERSION=1.23.2
OLD_WHEEL=".deps/wheels/onnxruntime-${OLD_VERSION}-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"
OLD_SHA256=da44b99206e77734c5819aa2142c69e64f3b46edc3bd314f6a45a932defc0b3e
OLD="$PWD/.deps/onnxruntime-$OLD_VERSION/lib/libonnxruntime.so.$OLD_VERSION"
if [ ! -f "$OLD" ]; then
  if [ ! -f "$OLD_WHEEL" ] || ! echo "$OLD_SHA256  $OLD_WHEEL" | sha256sum -c --status; then
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_27_x86_64 \
      -d .deps/wheels "onnxruntime==$OLD_VERSION"
  fi
  echo "$OLD_SHA256  $OLD_WHEEL" | sha256sum -c --status || { echo "ort_versions: the $OLD_VERSION wheel does not have the pinned SHA-256." >&2; exit 1; }
  mkdir -p "$(dirname "$OLD")"
  unzip -q -o -j "$OLD_WHEEL" "onnxruntime/capi/libonnxruntime.so.$OLD_VERSION" -d "$(dirname "$OLD")"
fi
OUT="$(mktemp -d)"; trap 'rm -rf "$OUT"' EXIT
"$PY" tools/make_realistic_yolo.py "$OUT/yolo.onnx" >/dev/null
ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 100 -c:v libx264 -pix_fmt yuv420p "$OUT/v.mp4"
export SWINGMASTER_HOME="$OUT/home"
wall() { local s; s=$(date +%s%N); "$@" >"$OUT/last.out" 2>/dev/null; echo "$(( ($(date +%s%N) - s) / 1000000 ))e-3"; }
for r in $(seq "$ROUNDS"); do
  for which in old new; do
    lib=$OLD; [ $which = new ] && lib=$NEW
    export SWINGMASTER_ONNXRUNTIME=$lib
    echo "$which yolo_wall $(wall "$BIN" detect "$OUT/v.mp4" --model "$OUT/yolo.onnx" --vid-stride 1 --json --no-store)" >> "$OUT/t"
    echo "$which yolo_infer $("$PY" -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; print(sum(f['speed']['inferenceMs'] for f in r)/len(r))" "$OUT/last.out")" >> "$OUT/t"
    echo "$which pose_wall $(wall "$BIN" pose Samples/demo_session.mp4 --json)" >> "$OUT/t"
    echo "$which analyze_wall $(wall "$BIN" analyze Samples/demo_session.mp4 --hand right --no-store)" >> "$OUT/t"
  done
done
"$PY" - "$OUT/t" "$OLD_VERSION" "$(readlink -f "$NEW" | sed 's/.*libonnxruntime.so.//')" "$ROUNDS" <<'PYEOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = lambda w, k: statistics.median(float(v) for a, b, v in rows if a == w and b == k)
old, new, rounds = sys.argv[2], sys.argv[3], sys.argv[4]
print(f"ONNX Runtime {old} vs {new}, same binary, alternating, median of {rounds} rounds")
for k, what in [("yolo_infer", "YOLO11n 640 inference, ms/frame"), ("yolo_wall", "detect, 100 frames 1280x720, s"),
                ("pose_wall", "pose, demo clip, s"), ("analyze_wall", "analyze, demo clip, s")]:
    a, b = med("old", k), med("new", k)
    print(f"{what:<36} {old}: {a:8.2f}   {new}: {b:8.2f}   {a / b:5.2f}x")
PYEOF
