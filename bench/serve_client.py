#!/usr/bin/env python3
"""Client and peer for bench/serve.sh (stdlib only).

  upload URL FILE PID          POST FILE as a raw body in 1 MiB writes; prints seconds, MB/s and the
                               server's RSS (from /proc/PID/status) before and at its peak during the upload.
  session URL FILE             uploads a session video, opens the job's SSE stream as soon as the 202
                               arrives, prints the time from upload end to the first event, follows the
                               stream to the final state and prints the session id and job time.
  peer PORT DIR                the peer: Python's ThreadingHTTPServer taking uploads the way a careful
                               stdlib server would (streamed to disk in 1 MiB reads, SHA-256 on the way)
                               and serving DIR's files (GET) — the same work, without our framework.
"""
import hashlib
import http.client
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

CHUNK = 1 << 20


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def post_file(url, path, headers):
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=600)
    size = os.path.getsize(path)
    conn.putrequest("POST", u.path + ("?" + u.query if u.query else ""))
    for k, v in {**headers, "Content-Length": str(size)}.items():
        conn.putheader(k, v)
    conn.endheaders()
    with open(path, "rb") as f:
        while True:
            b = f.read(CHUNK)
            if not b:
                break
            conn.send(b)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, body


def cmd_upload(url, path, pid):
    pid = int(pid)
    before = rss_mb(pid)
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            time.sleep(0.05)
    t = threading.Thread(target=sample)
    t.start()
    start = time.perf_counter()
    status, body = post_file(url, path, {"Content-Type": "video/mp4", "X-Filename": "big.mp4"})
    seconds = time.perf_counter() - start
    done.set()
    t.join()
    mb = os.path.getsize(path) / 1e6
    print(json.dumps({"status": status, "seconds": round(seconds, 3), "mb_per_s": round(mb / seconds, 1),
                      "rss_before_mb": round(before, 1), "rss_peak_mb": round(peak[0], 1),
                      "rss_growth_mb": round(peak[0] - before, 1), "answer": body[:200].decode(errors="replace")}))


def cmd_session(url, path):
    status, body = post_file(url + "/api/uploads?hand=right", path,
                             {"Content-Type": "video/mp4", "X-Filename": os.path.basename(path)})
    uploaded = time.perf_counter()
    if status != 202:
        sys.exit(f"upload refused: {status} {body[:300]!r}")
    job = json.loads(body)["job"]["id"]
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=900)
    conn.request("GET", f"/api/jobs/{job}/events")
    r = conn.getresponse()
    first = None
    last = None
    while True:
        line = r.fp.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            if first is None:
                first = time.perf_counter() - uploaded
            last = json.loads(line[6:])
            if last["state"] in ("done", "failed", "cancelled"):
                break
    total = time.perf_counter() - uploaded
    print(json.dumps({"first_event_ms": round(first * 1000, 1) if first is not None else None,
                      "state": last and last["state"], "session": last and last.get("sessionId"),
                      "job_seconds": round(total, 1), "error": last and last.get("error")}))


def cmd_peer(port, directory):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            sha = hashlib.sha256()
            with open(os.path.join(directory, ".upload.part"), "wb") as f:
                while n > 0:
                    b = self.rfile.read(min(CHUNK, n))
                    if not b:
                        break
                    sha.update(b)
                    f.write(b)
                    n -= len(b)
            body = json.dumps({"sha256": sha.hexdigest()}).encode()
            self.send_response(202)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            name = os.path.basename(urllib.parse.urlparse(self.path).path)
            try:
                with open(os.path.join(directory, name), "rb") as f:
                    body = f.read()
            except OSError:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass   # wrk closes its connections mid-keep-alive when it stops; that is not an error

    Server(("127.0.0.1", int(port)), Handler).serve_forever()


if __name__ == "__main__":
    {"upload": cmd_upload, "session": cmd_session, "peer": cmd_peer}[sys.argv[1]](*sys.argv[2:])
