#!/usr/bin/env bash
# The studio's live loop (GET /api/detect/live) on loopback: our release server with a YOLO11n-architecture
# model at 640 (tools/make_realistic_yolo.py: the fixture with trained-like scores), 1 and then 3 camera
# clients (bench/live_client.py) sending a 1280×720 JPEG as fast as answers come, SECONDS each.
# Prints per client: answers per second, frames the server dropped, and the server's time per frame
# (decode + letterbox + inference + post-processing) as a ratio to the bare inference time in the same run
# (goal ≤ 1.2×; goal ≥ 10 FPS with one client).
# Then tennis mode (mode=tennis: BlazePose beside the model) with one client on a 1280×720 JPEG of a player
# (SwingPose's messi5.jpg scaled), against the plain mode on that frame in the same run, with each model's
# time per frame; and `swingbench tennis` (when BIN_DIR has it): the two models one after the other vs at once.
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
ffmpeg -v error -y -i Tests/SwingPoseTests/Fixtures/messi5.jpg -vf scale=1280:720 -q:v 3 "$OUT/player.jpg"
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
  echo "Tennis mode, 1 client, the player frame (1280×720), each run ${SECONDS_EACH} s:"
  for mode in "" mode=tennis; do
    "$PY" bench/live_client.py "http://127.0.0.1:$PORT" yolo11n-640 "$OUT/player.jpg" 1 "$SECONDS_EACH" "$mode" > "$OUT/tennis.json"
    "$PY" - "$OUT/tennis.json" "${mode:-plain}" <<'PYEOF'
import json, sys
c = json.load(open(sys.argv[1]))["perClient"][0]
if sys.argv[2] == "plain":
    print(f"  plain:  {c['fps']:5.1f} FPS ({c['answers']} answers, {c['dropped']} dropped); decode {c['decodeMs']:.1f} + yolo "
          f"{c['preMs'] + c['inferenceMs'] + c['postMs']:.1f} ms (inference {c['inferenceMs']:.1f}); wait + work {c['serverMs']:.1f} ms")
else:
    print(f"  tennis: {c['fps']:5.1f} FPS ({c['answers']} answers, {c['dropped']} dropped, pose in {c['withPose']}); decode {c['decodeMs']:.1f} + yolo "
          f"{c['yoloMs']:.1f} (inference {c['inferenceMs']:.1f}) + pose {c['poseMs']:.1f} ms; wait + work {c['serverMs']:.1f} ms "
          f"(goal >= 10 FPS: {'met' if c['fps'] >= 10 else 'NOT met'})")
PYEOF
  done
  if [ -x "$(dirname "$BIN")/swingbench" ]; then
    "$(dirname "$BIN")/swingbench" tennis --model "$OUT/yolo11n-640.onnx" --image "$OUT/player.jpg" --runs 20 --rounds 3
  fi
}
