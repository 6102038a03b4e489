#!/usr/bin/env bash
# BlazePose throughput: SwingPose vs MediaPipe Python 0.10.14 on the same frames, one run, with the ratio.
# The peer needs mediapipe==0.10.14, kept in the bench's own venv .deps/bench-venv (`make bench-setup`;
# override with SWINGMASTER_MP_PYTHON); without it the peer is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
if [ -z "${SWINGMASTER_MP_PYTHON:-}" ] && .deps/bench-venv/bin/python -c "import mediapipe" 2>/dev/null; then
  SWINGMASTER_MP_PYTHON="$PWD/.deps/bench-venv/bin/python"
fi
[ -n "${SWINGMASTER_MP_PYTHON:-}" ] || echo "peer: no Python with mediapipe; run make bench-setup" >&2
[ -z "${SWINGMASTER_MP_PYTHON:-}" ] || export SWINGMASTER_MP_PYTHON
echo "-- video (tracking), 1 ONNX Runtime thread per model"
"$BIN_DIR/swingbench" pose --video Tests/SwingPoseTests/Fixtures/pose_clip.mp4 --threads 1
echo "-- video (tracking), ONNX Runtime default threads"
"$BIN_DIR/swingbench" pose --video Tests/SwingPoseTests/Fixtures/pose_clip.mp4
echo "-- still images (detector + landmarks every image)"
"$BIN_DIR/swingbench" pose --images Tests/SwingPoseTests/Fixtures/astronaut.png Tests/SwingPoseTests/Fixtures/basketball1.png \
  Tests/SwingPoseTests/Fixtures/camera.png Tests/SwingPoseTests/Fixtures/messi5.png --repeat 3 --threads 1
