#!/usr/bin/env bash
# BlazePose throughput: SwingPose vs MediaPipe Python 0.10.14 on the same frames, one run, with the ratio.
# The peer needs mediapipe==0.10.14 (numpy<2), kept in its own venv .deps/venv-mp (created here on first use
# from PyPI; override with SWINGMASTER_MP_PYTHON).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
if [ -z "${SWINGMASTER_MP_PYTHON:-}" ]; then
  if [ ! -x .deps/venv-mp/bin/python ] || ! .deps/venv-mp/bin/python -c "import mediapipe" 2>/dev/null; then
    echo "creating .deps/venv-mp (mediapipe==0.10.14) for the peer …" >&2
    python3 -m venv .deps/venv-mp && .deps/venv-mp/bin/pip install -q "mediapipe==0.10.14" "numpy<2"
  fi
  SWINGMASTER_MP_PYTHON="$PWD/.deps/venv-mp/bin/python"
fi
export SWINGMASTER_MP_PYTHON
echo "-- video (tracking), 1 ONNX Runtime thread per model"
"$BIN_DIR/swingbench" pose --video Tests/SwingPoseTests/Fixtures/pose_clip.mp4 --threads 1
echo "-- video (tracking), ONNX Runtime default threads"
"$BIN_DIR/swingbench" pose --video Tests/SwingPoseTests/Fixtures/pose_clip.mp4
echo "-- still images (detector + landmarks every image)"
"$BIN_DIR/swingbench" pose --images Tests/SwingPoseTests/Fixtures/astronaut.png Tests/SwingPoseTests/Fixtures/basketball1.png \
  Tests/SwingPoseTests/Fixtures/camera.png Tests/SwingPoseTests/Fixtures/messi5.png --repeat 3 --threads 1
