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
# The issue's row (#28): `swingmaster pose` on OpenCV's vtest.avi (795 frames, 768x576, 10 fps; from
# Debian's opencv-doc, BSD-3-Clause, fetched once with apt-get download into bench/out, SHA-256 checked),
# whole process, against MediaPipe's video mode over the same file (bench/pose_peer.py, which decodes it
# with OpenCV), three runs each alternating, the median wall time printed with the ratio.
VTEST_SHA=45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf
vtest=bench/out/vtest.avi
if [ ! -f "$vtest" ]; then
  mkdir -p bench/out; tmp="$(mktemp -d)"
  (cd "$tmp" && apt-get download opencv-doc > /dev/null 2>&1 && dpkg-deb -x opencv-doc_*.deb x) \
    && cp "$tmp/x/usr/share/doc/opencv-doc/examples/data/vtest.avi" "$vtest" || echo "pose: could not fetch opencv-doc" >&2
  rm -rf "$tmp"
fi
wall() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$s $e" | awk '{printf "%.2f", $2 - $1}'; }
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
if [ -n "${SWINGMASTER_MP_PYTHON:-}" ] && [ -f "$vtest" ] && echo "$VTEST_SHA  $vtest" | sha256sum -c --status; then
  echo "-- whole process: swingmaster pose on vtest.avi (795 frames) vs MediaPipe video mode, median of 3"
  ours=() peer=()
  for _ in 1 2 3; do
    ours+=("$(wall "$BIN_DIR/swingmaster" pose "$vtest" --json)")
    peer+=("$(wall "$SWINGMASTER_MP_PYTHON" bench/pose_peer.py --video "$vtest" --frames 0)")
  done
  o=$(median3 "${ours[@]}"); p=$(median3 "${peer[@]}")
  echo "swingmaster pose: $o s (runs: ${ours[*]}); mediapipe: $p s (runs: ${peer[*]}); ratio $(awk -v o="$o" -v p="$p" 'BEGIN{printf "%.2f", p/o}')x"
else
  echo "-- whole-process row skipped (needs the peer and bench/out/vtest.avi)"
fi
# Session option: ONNX Runtime's idle threads spin-wait (its default, ours) or sleep (--no-spin), the tracked
# video with the default two threads, alternating x3.
if [ -f "$vtest" ]; then
  echo "-- session option: spinning vs sleeping intra-op threads, vtest.avi, default threads, alternating x3"
  for _ in 1 2 3; do
    for f in "" --no-spin; do
      echo "${f:-spinning } $(env -u SWINGMASTER_MP_PYTHON "$BIN_DIR/swingbench" pose --video "$vtest" --frames 0 $f | grep inference)"
    done
  done
fi
# Lever: the landmark model without its segmentation head (tools/prune_blazepose.py; every output we read is
# bit-identical), against the model as committed before (bench/lib.sh unpruned_models).
OUT=bench/out; . bench/lib.sh
full="$(mktemp -d)"; trap 'rm -rf "$full"' EXIT
if [ -f "$vtest" ] && unpruned_models "$full"; then
  echo "-- lever: segmentation head kept vs dropped, vtest.avi, alternating x3 (inference: 1 ONNX Runtime thread; whole process: default threads)"
  for _ in 1 2 3; do
    for m in "$full" Models; do
      label=$([ "$m" = Models ] && echo "pruned  " || echo "unpruned")
      echo "$label $(env -u SWINGMASTER_MP_PYTHON "$BIN_DIR/swingbench" pose --video "$vtest" --frames 0 --threads 1 --models "$m" | grep inference)"
      echo "$label whole process, default threads: $(wall "$BIN_DIR/swingmaster" pose "$vtest" --json --models "$m") s"
    done
  done
else
  echo "-- lever row skipped: no vtest.avi, or no $UNPRUNED_COMMIT in this clone's history"
fi
