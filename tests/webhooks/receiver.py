"""A webhook receiver for the tests, run as its own process on 127.0.0.1.

    python tests/webhooks/receiver.py PORT LOG [MODE]

Appends one JSON line per request to LOG (arrival time, headers, body) and answers as MODE
says: ``ok`` (204), ``fail`` (500), ``hold-first`` (the first request waits 30 s before
its 204: a worker can be killed while it waits). Prints ``listening`` once bound.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, LOG = int(sys.argv[1]), sys.argv[2]
MODE = sys.argv[3] if len(sys.argv) > 3 else "ok"
lock = threading.Lock()
seen = {"count": 0}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with lock:
            seen["count"] += 1
            first = seen["count"] == 1
            with open(LOG, "a") as out:
                out.write(
                    json.dumps(
                        {
                            "at": time.time(),
                            "headers": {k.lower(): v for k, v in self.headers.items()},
                            "body": body.decode(),
                        }
                    )
                    + "\n"
                )
        if MODE == "hold-first" and first:
            time.sleep(30)
        self.send_response(500 if MODE == "fail" else 204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
print("listening", flush=True)
server.serve_forever()
