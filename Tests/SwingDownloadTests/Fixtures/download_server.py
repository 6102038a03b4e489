#!/usr/bin/env python3
"""A misbehaving download server on 127.0.0.1, for the download tests and bench/download.sh.

    python3 download_server.py [--file PATH] [--log PATH] [--lifetime SECONDS] [--endless-limit BYTES]
                               [--exit-on-stdin-eof]

Prints "PORT <n>" on stdout once it listens, then serves until SIGTERM, --lifetime seconds, or (with
--exit-on-stdin-eof, as the tests run it) its stdin closing because the parent went away. A path is /<behaviour>/.../<name>; the body is the --file's bytes, or
with ?bytes=N the N bytes (i * 7 + 3) % 256 for i = 0 … N-1 (the tests make the same bytes).

  /file/<name>              200 with Content-Length; Range "bytes=N-" answered with 206 (416 past the end)
  /norange/<name>           200 with the whole body, whatever Range says
  /endless/<name>           200, no Content-Length, zeros until the client hangs up (or --endless-limit)
  /short/<name>             Content-Length 64 bytes less than the body, then the whole body (a lie)
  /long/<name>              Content-Length 64 bytes more than the body, the body, then close (a lie)
  /announce/<n>/<name>      Content-Length n, 1 KiB of zeros, then close
  /cut-once/<k>/<name>      the first request: Content-Length of the whole body, k bytes, close;
                            later requests: as /file/
  /stall-once/<k>/<name>    the first request: Content-Length of the whole body, k bytes, then silence
                            (the connection stays open for 30 s); later requests: as /file/
  /silent/<name>            reads the request and never answers (30 s)
  /redirect/<n>/<rest>      302 to /redirect/<n-1>/<rest>, and /redirect/0/<rest> to /<rest>
  /loop/<name>              302 to itself

--log appends one line per request: "<path>\t<Range header or ->".
"""
import argparse
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STALL_SECONDS = 30
CHUNK = bytes(1 << 20)


def generated(n):
    pattern = bytes((i * 7 + 3) % 256 for i in range(256))
    return (pattern * (n // 256 + 1))[:n]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    served_once = set()
    once_lock = threading.Lock()

    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        segments = [s for s in parts.path.split("/") if s]
        rng = self.headers.get("Range")
        if self.server.log_path:
            with self.server.log_lock, open(self.server.log_path, "a") as log:
                log.write(f"{parts.path}\t{rng or '-'}\n")
        if not segments:
            return self.status(404)
        body = generated(int(query["bytes"][0])) if "bytes" in query else self.server.body
        kind, rest = segments[0], segments[1:]
        try:
            if kind in ("cut-once", "stall-once"):
                with Handler.once_lock:
                    first = parts.path not in Handler.served_once
                    Handler.served_once.add(parts.path)
                if first:
                    keep = int(rest[0])
                    self.head(200, len(body))
                    self.wfile.write(body[:keep])
                    self.wfile.flush()
                    if kind == "stall-once":
                        time.sleep(STALL_SECONDS)
                    return
                return self.ranged(body, rng)
            if kind == "file":
                return self.ranged(body, rng)
            if kind == "norange":
                self.head(200, len(body))
                return self.wfile.write(body)
            if kind == "endless":
                self.head(200, None)
                sent = 0
                while sent < self.server.endless_limit:
                    self.wfile.write(CHUNK)
                    sent += len(CHUNK)
                return
            if kind == "short":
                self.head(200, len(body) - 64)
                return self.wfile.write(body)
            if kind == "long":
                self.head(200, len(body) + 64)
                return self.wfile.write(body)
            if kind == "announce":
                self.head(200, int(rest[0]))
                return self.wfile.write(bytes(1024))
            if kind == "silent":
                time.sleep(STALL_SECONDS)
                return
            if kind == "redirect":
                n = int(rest[0])
                target = "/" + "/".join(rest[1:]) if n == 0 else f"/redirect/{n - 1}/" + "/".join(rest[1:])
                return self.redirect(target + (f"?{parts.query}" if parts.query else ""))
            if kind == "loop":
                return self.redirect(self.path)
            return self.status(404)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up, as it should at its size limit

    def ranged(self, body, rng):
        if rng and rng.startswith("bytes=") and rng[6:-1].isdigit() and rng.endswith("-"):
            start = int(rng[6:-1])
            if start >= len(body):
                return self.status(416, extra={"Content-Range": f"bytes */{len(body)}"})
            self.head(206, len(body) - start, extra={"Content-Range": f"bytes {start}-{len(body) - 1}/{len(body)}"})
            return self.wfile.write(body[start:])
        self.head(200, len(body))
        self.wfile.write(body)

    def head(self, code, length, extra=None):
        self.send_response(code)
        self.send_header("Content-Type", "application/octet-stream")
        if length is not None:
            self.send_header("Content-Length", str(length))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def status(self, code, extra=None):
        text = f"error {code}".encode()
        self.head(code, len(text), extra)
        self.wfile.write(text)

    def redirect(self, location):
        self.head(302, 0, {"Location": location})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file")
    ap.add_argument("--log")
    ap.add_argument("--lifetime", type=float, default=600)
    ap.add_argument("--endless-limit", type=int, default=3 << 30)
    ap.add_argument("--exit-on-stdin-eof", action="store_true")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.body = open(args.file, "rb").read() if args.file else b""
    server.log_path = args.log
    server.log_lock = threading.Lock()
    server.endless_limit = args.endless_limit
    # A parent's thread may have spawned us with signals blocked (Foundation's Process does): unblock them.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))

    def watch_stdin():
        # EOF on stdin: the parent (test process or bench script) is gone, so nothing outlives it.
        while sys.stdin.buffer.read(4096):
            pass
        os._exit(0)

    if args.exit_on_stdin_eof:
        threading.Thread(target=watch_stdin, daemon=True).start()
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
