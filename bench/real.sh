#!/usr/bin/env bash
# The real-footage bench (issue #38): every recording in ../shared/real that has a truth file in
# bench/real/truth/ is analysed twice — with the sound delay measured from the body (the default) and with
# `--sound-delay-ms 0` (the heard time, as before) — and scored against our hand-made labels by
# bench/real_score.py: the player's hits found, how many counted shots are the player's, each shot's
# instant against the ball-on-strings frame, the stroke type. Audio-only truth (tennis_cut) is scored on
# `contacts` alone. The recordings are never committed or shipped (../shared/real/README.md): without them
# this prints one sentence and exits 0.
#   bench/real.sh [BIN_DIR]     (the folder of the swingmaster binary; default .build/release)
#   SWINGMASTER_REAL=DIR        another folder laid out like ../shared/real
#   REAL_MODES="auto 0"         the --sound-delay-ms values to run (default both)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-.build/release}/swingmaster"
[ -d "${1:-}" ] || [ -z "${1:-}" ] || BIN=$1   # a binary's path works too
REAL=${SWINGMASTER_REAL:-../shared/real}
if [ ! -d "$REAL" ]; then
  echo "bench/real.sh: $REAL is not here (the real recordings are for development only and never shipped); nothing measured."
  exit 0
fi
[ -x "$BIN" ] || { echo "bench/real.sh: $BIN is not built; run 'make build' first." >&2; exit 1; }
PYTHON=${PYTHON:-python3}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
TRUTH=bench/real/truth
# REAL_MODES="0" scores one mode only (e.g. a build from before `auto` existed).
read -r -a MODES <<< "${REAL_MODES:-auto 0}"

for truth in "$TRUTH"/*.json; do
  name=$(basename "$truth" .json)
  file=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["file"])' "$truth")
  hand=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("playerHand") or "right")' "$truth")
  media="$REAL/$file"
  if [ ! -f "$media" ]; then echo "skipping $name: $media is missing"; continue; fi
  # The broadcast clips are 1 s long and `analyze` needs 5: each is padded at its end with its last frame
  # and silence (re-encoded at CRF 16, frame times kept), so its own timeline and labels are unchanged.
  case "$media" in
    *.mp4|*.mov)
      long=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$media")
      if "$PYTHON" -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)' "$long"; then
        ffmpeg -v error -y -i "$media" -vf "tpad=stop_mode=clone:stop_duration=4" -af "apad=pad_dur=4" \
          -fps_mode passthrough -c:v libx264 -preset veryfast -crf 16 -c:a aac -b:a 192k "$OUT/$name.mp4"
        media="$OUT/$name.mp4"
      fi ;;
  esac
  for mode in "${MODES[@]}"; do
    case "$media" in
      *.wav|*.m4a|*.mp3)
        "$BIN" contacts "$media" --json > "$OUT/$name.$mode.json" 2> "$OUT/$name.$mode.err" || true ;;
      *)
        # A refusal (e.g. "No person was found …", exit 30) is scored as such: the scorer prints its sentence.
        "$BIN" analyze "$media" --hand "$hand" --no-store --sound-delay-ms "$mode" --json "$OUT/$name.$mode.json" --save-track "$OUT/$name.$mode.track.json" \
          > /dev/null 2> "$OUT/$name.$mode.err" || true ;;
    esac
  done
done
echo "# Real recordings against our hand-made truth (bench/real/truth; $(date -u +%Y-%m-%d), $(git rev-parse --short HEAD))"
# (the padded copies' temporary folder is left out of the sentences the program printed)
"$PYTHON" bench/real_score.py "$TRUTH" "$OUT" "${MODES[@]}" | sed "s|$OUT/||g"
