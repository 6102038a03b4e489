#!/usr/bin/env bash
# SwingMedia decode speed vs the ffmpeg CLI on the same generated clip (video → RGB, audio → mono PCM).
set -euo pipefail
cd "$(dirname "$0")/.."
"${1:-.build/release}/swingbench" media
