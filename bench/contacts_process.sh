#!/usr/bin/env bash
# `swingmaster contacts` from process start to JSON (issue #10, part 4): a 590 s two-channel session at
# 44.1 and 48 kHz, as WAV and as AAC, against the Python reference (numpy/scipy, which reads WAV only) on
# the same WAVs. Prints the median wall time of 3 runs, the real-time factor, peak RSS, and the ratio.
#   bench/contacts_process.sh BIN_DIR      (BIN_DIR holds a release `swingmaster`; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
SECONDS_OF_AUDIO=590
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$BIN_DIR/swingbench" contacts --synthesize "$work/mono.wav" --seconds "$SECONDS_OF_AUDIO" --condition mixed --seed 1 >/dev/null
for rate in 44100 48000; do
  ffmpeg -v error -y -i "$work/mono.wav" -ac 2 -ar "$rate" -c:a pcm_s16le "$work/s$rate.wav"
  ffmpeg -v error -y -i "$work/mono.wav" -ac 2 -ar "$rate" -c:a aac -b:a 128k "$work/s$rate.m4a"
done
# run LABEL CMD…: median of 3 (wall seconds, peak RSS MB) as "wall rss".
measure() {
  local out=()
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    out+=("$(cat "$work/time")")
  done
  printf '%s\n' "${out[@]}" | sort -n | sed -n 2p
}
echo "contacts, process start to JSON: ${SECONDS_OF_AUDIO} s stereo session (synthetic 'mixed'), median of 3"
printf '%-16s %10s %10s %9s | %10s %10s %9s | %s\n' file swift_s x_realtime rss_MB python_s x_realtime rss_MB ratio
json="{"
for f in s44100.wav s48000.wav s44100.m4a s48000.m4a; do
  read -r sw sm <<<"$(measure "$BIN_DIR/swingmaster" contacts "$work/$f" --json)"
  if [[ $f == *.wav ]]; then
    read -r pw pm <<<"$(measure "$PY" tools/reference_contacts.py "$work/$f" --json)"
    ratio=$(python3 -c "print(f'{$pw/$sw:.1f}x')")
    prt=$(python3 -c "print(f'{$SECONDS_OF_AUDIO/$pw:.0f}')"); prss=$((pm / 1024))
  else
    pw="-"; prt="-"; prss="-"; ratio="(no peer: the reference reads WAV only)"
  fi
  srt=$(python3 -c "print(f'{$SECONDS_OF_AUDIO/$sw:.0f}')")
  printf '%-16s %10s %10s %9s | %10s %10s %9s | %s\n' "$f" "$sw" "$srt" "$((sm / 1024))" "$pw" "$prt" "$prss" "$ratio"
  json+="\"$f\": {\"swiftSeconds\": $sw, \"swiftPeakRSSMB\": $((sm / 1024))},"
done
echo "${json%,}}"
