"""The benchmark's webhook receiver (bench/webhooks.py starts it): answers 204 at once and
appends ``<arrival epoch> <webhook-id> <payload timestamp>`` per request to a file."""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, LOG = int(sys.argv[1]), sys.argv[2]
lock = threading.Lock()
out = open(LOG, "a", buffering=1)  # noqa: SIM115 - open for the life of the process


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        arrived = time.time()
        stamp = json.loads(body).get("timestamp", "")
        with lock:
            out.write(f"{arrived:.6f} {self.headers.get('webhook-id')} {stamp}\n")
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
print("listening", flush=True)
server.serve_forever()
