#!/usr/bin/env bash
# How `analyze` scales with cores (issue #28): the 120-s phone file (H.264 High 16 Mbit/s, 60 fps; bench/lib.sh
# generate_phone) analysed on 1, 2, 4, 8, 16 … cores, as many as the machine has, each run pinned with
# taskset to the first N cores with N pose workers (--pose-workers N, past the default's cap of 4), each
# with a one-thread ONNX Runtime session (--pose-threads 1: left to choose, ONNX Runtime made a thread for
# every core of the machine, and /proc showed them allowed on cores taskset had not given). Prints
# wall and CPU time, real-time factor and the speed-up over one core, and whether every shot's metrics are
# identical to the one-core run's (the windows are independent, so they must be).
#   bench/analyze_cores.sh [BIN_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PYTHON="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
OUT=bench/out; mkdir -p "$OUT"
. bench/lib.sh
FILE="$OUT/phone_120s_h264_60.mp4"
generate_phone "$FILE" h264 60
export SWINGMASTER_HOME; SWINGMASTER_HOME=$(mktemp -d); trap 'rm -rf "$SWINGMASTER_HOME"' EXIT
cores=$(nproc); n=1; list=()
while [ "$n" -le "$cores" ]; do list+=("$n"); n=$((n * 2)); done
echo "analyze on 1..$cores cores, $FILE (120 s), one pose worker per core"
for n in "${list[@]}"; do
  log=$(mktemp); start=$(date +%s.%N)
  /usr/bin/time -v taskset -c "0-$((n - 1))" "$BIN_DIR/swingmaster" analyze "$FILE" --hand right --no-store \
    --pose-workers "$n" --pose-threads 1 --json "$OUT/cores_$n.result.json" > /dev/null 2> "$log"
  end=$(date +%s.%N)
  cpu=$(awk -F: '/(User|System) time \(seconds\)/ {s += $2} END {print s}' "$log"); rm -f "$log"
  echo "$n $start $end $cpu"
done | "$PYTHON" -c '
import json, sys
base = None
for line in sys.stdin:
    n, start, end, cpu = line.split(); n = int(n); wall = float(end) - float(start)
    shots = json.load(open(f"bench/out/cores_{n}.result.json"))["session"]["shots"]
    if base is None:
        base, ref = wall, shots
    same = "yes" if shots == ref else "NO"
    print(f"{n:3d} cores: wall {wall:5.1f} s = {120 / wall:4.1f}x real time, CPU {float(cpu):5.1f} s, "
          f"{base / wall:4.2f}x one core ({base / wall / n:4.2f} of linear); shots identical to one core: {same}")
'
