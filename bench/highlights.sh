#!/usr/bin/env bash
# Highlights of a generated 10-minute session with 120 shots (issue #41: at least 1× real time of the kept
# footage on 2 cores) against the ffmpeg CLI cutting and re-encoding the same clips with the same settings.
set -euo pipefail
cd "$(dirname "$0")/.."
"${1:-.build/release}/swingbench" highlights
