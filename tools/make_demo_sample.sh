#!/usr/bin/env bash
# Builds Samples/demo_session.mp4, the bundled session clip used by `make demo` and the end-to-end tests.
#
# Video: real footage of people walking across a lawn — OpenCV's sample clip `vtest.avi`, taken from
#        Debian's `opencv-doc` package (4.6.0+dfsg-12, examples/data, BSD-3-Clause per the package's
#        copyright file), seconds 53–65, cropped to the lawn (512×288 at x=100, y=230) and scaled to
#        1280×720 (the product's minimum resolution), 10 fps as in the source, H.264.
# Audio: synthetic court sound — ambience plus racket–ball impacts at known times — made by
#        tools/demo_sample_audio.py with a fixed seed, AAC. The impact times are written to
#        Samples/demo_session.truth.json.
#
# Needs: apt-get (to download opencv-doc, ~95 MB, not installed), ffmpeg, and $PYTHON with numpy/scipy.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-${SWINGMASTER_PYTHON:-.deps/venv/bin/python}}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

(cd "$work" && apt-get download opencv-doc >/dev/null && dpkg-deb -x opencv-doc_*.deb x)
src="$work/x/usr/share/doc/opencv-doc/examples/data/vtest.avi"
[ -f "$src" ] || { echo "vtest.avi not found in opencv-doc" >&2; exit 1; }

ffmpeg -v error -y -ss 53 -t 12 -i "$src" \
  -vf "crop=512:288:100:230,scale=1280:720:flags=bicubic,format=yuv420p" -r 10 \
  -c:v libx264 -preset slow -crf 23 -an "$work/video.mp4"

"$PYTHON" tools/demo_sample_audio.py --duration 12 --seed 2026 \
  --contacts 2.0,4.6,7.1,9.7 \
  --wav "$work/audio.wav" --truth Samples/demo_session.truth.json

ffmpeg -v error -y -i "$work/video.mp4" -i "$work/audio.wav" -map 0:v -map 1:a \
  -c:v copy -c:a aac -b:a 128k -shortest -movflags +faststart Samples/demo_session.mp4
echo "wrote Samples/demo_session.mp4 ($(du -h Samples/demo_session.mp4 | cut -f1))"
