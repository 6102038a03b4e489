#!/usr/bin/env bash
# Audio contact detector: Swift vs the Python reference on the same 10-minute synthetic track.
#   bench/contacts.sh BIN_DIR      (BIN_DIR holds a release `swingbench`; default .build/release)
# Prints both timings (median of 3 detect() calls, WAV loading excluded), the ratio, and the real-time
# factors. Wall time is what a user waits; CPU time is also shown because the shared CI/dev machines are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
SECONDS_OF_AUDIO="${CONTACTS_BENCH_SECONDS:-600}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
wav="$work/session.wav"
"$BIN_DIR/swingbench" contacts --synthesize "$wav" --seconds "$SECONDS_OF_AUDIO" --condition mixed --seed 1
swift_json="$("$BIN_DIR/swingbench" contacts --wav "$wav" --repeats 3)"
py_json="$("$PY" tools/reference_contacts.py "$wav" --time --repeats 3 2>&1 >/dev/null | tail -1)"
"$PY" - "$swift_json" "$py_json" <<'PYEOF'
import json, sys
s, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
audio = s["audioSeconds"]
print(f"contacts bench: {audio:.0f} s of 44.1 kHz audio (synthetic 'mixed' session)")
print(f"  swift  : {s['seconds']:.3f} s wall, {s['cpuSeconds']:.3f} s CPU  -> {audio / s['seconds']:.0f}x real time (CPU: {audio / s['cpuSeconds']:.0f}x), {s['contacts']} contacts")
print(f"  python : {p['seconds']:.3f} s wall, {p['cpuSeconds']:.3f} s CPU  -> {audio / p['seconds']:.0f}x real time, {p['contacts']} contacts")
print(f"  ratio  : swift is {p['seconds'] / s['seconds']:.1f}x faster (wall), {p['cpuSeconds'] / s['cpuSeconds']:.1f}x (CPU)")
print(json.dumps({"audioSeconds": audio, "swiftSeconds": s["seconds"], "pythonSeconds": p["seconds"],
                  "swiftCpuSeconds": s["cpuSeconds"], "pythonCpuSeconds": p["cpuSeconds"],
                  "ratio": p["seconds"] / s["seconds"], "swiftRealtimeFactor": audio / s["seconds"]}))
PYEOF
