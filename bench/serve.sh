#!/usr/bin/env bash
# The web server (issue #12), our `swingmaster serve` and its named peer side by side in one run:
#  1. a 1 GB upload: throughput, and the server's RSS growth while it streams to disk (goal < 50 MB);
#     peer: Python's ThreadingHTTPServer streaming the same body to disk with SHA-256 (bench/serve_client.py).
#  2. the 10-minute, 120-hit synthetic session uploaded and analysed by the server's job: time from the
#     upload's end to the first SSE event (goal < 200 ms) and the job's wall time.
#  3. GET /api/sessions/{id} for that 120-shot session under wrk (2 threads, 8 connections, 10 s):
#     p50/p95/p99 (goal p95 < 50 ms); peer: the same JSON bytes served by the Python server.
# All traffic goes to 127.0.0.1 and stops when the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR="${1:-.build/release}"
PYTHON="${SWINGMASTER_PYTHON:-.deps/venv/bin/python}"
OUT=bench/out; mkdir -p "$OUT"
. bench/lib.sh
FILE="$OUT/session_10min_1080p60.mp4"
generate "$FILE" session_10min 600 49 7 2.5 5 120
BIG="$OUT/upload_1GB.bin"
[ -f "$BIG" ] || head -c 1000000000 /dev/urandom >"$BIG"

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 1 200); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer from $1" >&2; exit 1; }

PORT=$(free_port)
SWINGMASTER_HOME="$work/home" "$BIN_DIR/swingmaster" serve --port "$PORT" --max-upload-mb 2048 >"$work/serve.log" 2>&1 &
pids+=($!); SERVER=$!
PEER_PORT=$(free_port); mkdir -p "$work/peer"
"$PYTHON" bench/serve_client.py peer "$PEER_PORT" "$work/peer" &
pids+=($!); PEER=$!
wait_http "http://127.0.0.1:$PORT/healthz"; wait_http "http://127.0.0.1:$PEER_PORT/none"

echo "== 1 GB upload (random bytes: refused as media after it has fully arrived, as any bad upload is)"
ours=$("$PYTHON" bench/serve_client.py upload "http://127.0.0.1:$PORT/api/uploads" "$BIG" "$SERVER")
peer=$("$PYTHON" bench/serve_client.py upload "http://127.0.0.1:$PEER_PORT/upload" "$BIG" "$PEER")
echo "swingmaster: $ours"; echo "python peer: $peer"
left=$(find "$work/home/media" -type f 2>/dev/null | wc -l)
echo "files left in media/ after the refused upload: $left"

echo "== the 10-minute, 120-hit session through the job queue"
sess=$("$PYTHON" bench/serve_client.py session "http://127.0.0.1:$PORT" "$FILE")
echo "swingmaster: $sess"
ID=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['session'])" "$sess")
curl -s "http://127.0.0.1:$PORT/api/sessions/$ID" >"$work/peer/session.json"
shots=$(python3 -c "import json; print(len(json.load(open('$work/peer/session.json'))['session']['shots']))")
echo "session $ID: $shots shots, $(wc -c <"$work/peer/session.json") bytes of JSON"

echo "== GET /api/sessions/$ID under wrk -t2 -c8 -d10s"
w_ours=$(wrk -t2 -c8 -d10s -s bench/p95.lua "http://127.0.0.1:$PORT/api/sessions/$ID" | tail -1)
w_peer=$(wrk -t2 -c8 -d10s -s bench/p95.lua "http://127.0.0.1:$PEER_PORT/session.json" | tail -1)
echo "swingmaster: $w_ours"; echo "python peer: $w_peer"

python3 - "$ours" "$peer" "$sess" "$w_ours" "$w_peer" <<'PY'
import json, sys
ours, peer, sess = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
def kv(line): t = line.split(); return {t[i]: float(t[i + 1]) for i in range(0, len(t) - 1, 2)}
wo, wp = kv(sys.argv[4]), kv(sys.argv[5])
print("\nsummary (ratios: swingmaster / python peer)")
print(f"  upload throughput  {ours['mb_per_s']:7.1f} MB/s vs {peer['mb_per_s']:7.1f} MB/s  ratio {ours['mb_per_s']/peer['mb_per_s']:.2f}")
print(f"  RSS growth (1 GB)  {ours['rss_growth_mb']:7.1f} MB   vs {peer['rss_growth_mb']:7.1f} MB    goal < 50 MB: {'met' if ours['rss_growth_mb'] < 50 else 'NOT met'}")
print(f"  first SSE event    {sess['first_event_ms']:7.1f} ms after the upload ended          goal < 200 ms: {'met' if sess['first_event_ms'] < 200 else 'NOT met'}")
print(f"  session job        {sess['job_seconds']:7.1f} s for 600 s of 1080p60 ({sess['state']})")
print(f"  GET session p95    {wo['p95_ms']:7.2f} ms   vs {wp['p95_ms']:7.2f} ms   ratio {wo['p95_ms']/max(wp['p95_ms'],1e-9):.2f}   goal < 50 ms: {'met' if wo['p95_ms'] < 50 else 'NOT met'}")
print(f"  GET session rps    {wo['rps']:7.0f}      vs {wp['rps']:7.0f}      ratio {wo['rps']/max(wp['rps'],1e-9):.2f}")
PY
