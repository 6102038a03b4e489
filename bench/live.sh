#!/usr/bin/env bash
# The studio's live loop (GET /api/detect/live) on loopback: our release server with a YOLO11n-architecture
# model at 640 (tools/make_realistic_yolo.py: the fixture with trained-like scores), 1 and then 3 camera
# clients (bench/live_client.py) sending a 1280×720 JPEG as fast as answers come, SECONDS each.
# Prints per client: answers per second, frames the server dropped, and the server's time per frame
# (decode + letterbox + inference + post-processing) as a ratio to the bare inference time in the same run
# (goal ≤ 1.2×; goal ≥ 10 FPS with one client).
# Usage: bench/live.sh [BIN_DIR] [SECONDS]   (BIN_DIR holds swingmaster; default .build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-.build/release}/swingmaster"; SECONDS_EACH="${2:-15}"
PY="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
export SWINGMASTER_ONNXRUNTIME="${SWINGMASTER_ONNXRUNTIME:-$PWD/.deps/onnxruntime/lib/libonnxruntime.so}"
OUT="$(mktemp -d)"; PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$OUT"; }
trap cleanup EXIT
"$PY" tools/make_realistic_yolo.py "$OUT/yolo11n-640.onnx" >/dev/null
ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720 -frames:v 1 -q:v 3 "$OUT/frame.jpg"
PORT=$("$PY" -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
SWINGMASTER_HOME="$OUT/home" "$BIN" serve --host 127.0.0.1 --port "$PORT" >"$OUT/serve.log" 2>&1 & PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
curl -sf -X POST -H 'Content-Type: application/octet-stream' -H 'X-Filename: yolo11n-640.onnx' \
  --data-binary @"$OUT/yolo11n-640.onnx" "http://127.0.0.1:$PORT/api/models" >/dev/null
{
  echo "Live loop: $(basename "$BIN") serve, yolo11n-640 (YOLO11n architecture, 640×640), 1280×720 JPEG frames, ${SECONDS_EACH} s per run, $(nproc) cores, ONNX Runtime $(basename "$(readlink -f "$SWINGMASTER_ONNXRUNTIME")" | sed 's/libonnxruntime.so.//')"
  for n in 1 3; do
    "$PY" bench/live_client.py "http://127.0.0.1:$PORT" yolo11n-640 "$OUT/frame.jpg" "$n" "$SECONDS_EACH" > "$OUT/live$n.json"
    "$PY" - "$OUT/live$n.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{d['clients']} client(s):")
for i, c in enumerate(d["perClient"]):
    work = c["decodeMs"] + c["preMs"] + c["inferenceMs"] + c["postMs"]
    print(f"  client {i + 1}: {c['fps']:5.1f} FPS ({c['answers']} answers, {c['dropped']} frames dropped of {c['sent']} sent); "
          f"decode {c['decodeMs']:.1f} + letterbox {c['preMs']:.1f} + inference {c['inferenceMs']:.1f} + post {c['postMs']:.1f} = {work:.1f} ms, "
          f"{work / c['inferenceMs']:.2f}x the bare inference (goal <= 1.2x); wait + work {c['serverMs']:.1f} ms")
fps = [c["fps"] for c in d["perClient"]]
if len(fps) > 1:
    print(f"  fairness: slowest / fastest client {min(fps) / max(fps):.2f}, total {sum(fps):.1f} FPS")
PYEOF
  done
}
