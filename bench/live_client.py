#!/usr/bin/env python3
"""Camera clients for bench/live.sh (stdlib only): N WebSocket clients on loopback, each sending one JPEG
frame after another to `GET /api/detect/live` the way the studio page does (at most two frames in flight),
for a bounded time. Prints one JSON line: per client the answers per second, and the server's timings.

Run: python3 bench/live_client.py URL MODEL_ID JPEG CLIENTS SECONDS [QUERY]   (QUERY: more of the socket's query,
     e.g. mode=tennis; the answers' poseMs / yoloMs are averaged when present)
"""
import base64, json, os, socket, statistics, struct, sys, threading, time, urllib.parse

url, model, jpeg, clients, seconds = sys.argv[1], sys.argv[2], open(sys.argv[3], "rb").read(), int(sys.argv[4]), float(sys.argv[5])
extra = f"&{sys.argv[6]}" if len(sys.argv) > 6 and sys.argv[6] else ""
u = urllib.parse.urlparse(url)


def connect():
    s = socket.create_connection((u.hostname, u.port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /api/detect/live?model={model}{extra} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    if b" 101 " not in head.split(b"\r\n")[0]:
        raise SystemExit(f"upgrade refused: {head[:200]!r}")
    return s


def send(s, payload, opcode=2):
    mask = os.urandom(4)
    n = len(payload)
    hdr = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536
                                     else bytes([0x80 | 127]) + struct.pack(">Q", n))
    s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def recv(s):
    b0, b1 = recv_exact(s, 2)
    n = b1 & 0x7F
    if n == 126: n = struct.unpack(">H", recv_exact(s, 2))[0]
    elif n == 127: n = struct.unpack(">Q", recv_exact(s, 8))[0]
    data = recv_exact(s, n)
    return b0 & 0x0F, data


def client(index, out):
    s = connect()
    op, ready = recv(s)
    results, in_flight, sent = [], 0, 0
    end = time.time() + seconds
    first = None
    while time.time() < end:
        while in_flight < 2:
            send(s, jpeg); sent += 1; in_flight += 1
        op, data = recv(s)
        if op != 1:
            continue
        m = json.loads(data)
        if m.get("type") == "result":
            in_flight = max(0, sent - m["frameId"])   # frames after this one are still coming (or were dropped)
            if first is None: first = time.time()
            results.append(m)
    span = time.time() - (first or time.time())
    s.close()
    t = lambda k: statistics.mean(r["timings"].get(k, 0) for r in results) if results else 0
    out[index] = {"answers": len(results), "fps": (len(results) - 1) / span if span > 0 else 0, "sent": sent,
                  "dropped": results[-1]["dropped"] if results else 0,
                  "decodeMs": t("decodeMs"), "preMs": t("preMs"), "inferenceMs": t("inferenceMs"),
                  "postMs": t("postMs"), "serverMs": t("serverMs"), "poseMs": t("poseMs"), "yoloMs": t("yoloMs"),
                  "withPose": sum(1 for r in results if r.get("pose"))}


out = [None] * clients
threads = [threading.Thread(target=client, args=(i, out)) for i in range(clients)]
for th in threads: th.start()
for th in threads: th.join()
print(json.dumps({"clients": clients, "perClient": out}))
