#!/usr/bin/env bash
# Issue #28's int8 lever: ONNX Runtime's static quantization of the BlazePose landmark model, its speed and
# how far its landmarks move (bench/pose_int8.py). Calibration crops: OpenCV's vtest.avi (bench/pose.sh
# fetches it), every 2nd frame; comparison crops: the pose fixtures' photos and clip and the demo clip.
# Needs make bench-setup (MediaPipe finds the people) and the project venv (ONNX Runtime's quantizer).
set -euo pipefail
cd "$(dirname "$0")/.."
MP="${SWINGMASTER_MP_PYTHON:-.deps/bench-venv/bin/python}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
[ -f bench/out/vtest.avi ] || { echo "pose_int8: run bench/pose.sh first (it fetches vtest.avi)"; exit 1; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
F=Tests/SwingPoseTests/Fixtures
STEP=2 "$MP" bench/pose_int8_crops.py "$work/calib.npy" bench/out/vtest.avi 2>/dev/null | tail -1
"$MP" bench/pose_int8_crops.py "$work/test.npy" $F/*.png $F/pose_clip.mp4 Samples/demo_session.mp4 2>/dev/null | tail -1
"$PY" bench/pose_int8.py "$work/calib.npy" "$work/test.npy" 2>&1 | grep -v "^WARNING\|Please consider\|^Collecting\|^Finding\|^Number of\|^Percentile :"
