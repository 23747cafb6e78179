"""A webhook receiver on 127.0.0.1, run as its own process, for the webhook tests
(tests/webhooks/conftest.py) and the webhooks benchmark (bench/webhooks.py). Plain Python
(standard library only, no pytest): the benchmark imports it.

    python tests/webhooks/receiver.py PORT LOG [MODE]

Appends one JSON line per request to LOG (arrival time ``at``, headers, body; ``read(LOG)``
gives them back) and answers as MODE says: ``ok`` (204 at once), ``fail`` (500),
``hold-first`` (the first request waits 30 s before its 204: a worker can be killed while
it waits). Prints ``listening`` once bound.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve()


def read(log: Path) -> list[dict[str, Any]]:
    """What the receiver logged: one dict a request (``at``, ``headers``, ``body``)."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def serve(port: int, log: str, mode: str = "ok") -> None:
    lock = threading.Lock()
    seen = {"count": 0}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with lock:
                seen["count"] += 1
                first = seen["count"] == 1
                with open(log, "a") as out:
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
            if mode == "hold-first" and first:
                time.sleep(30)
            self.send_response(500 if mode == "fail" else 204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("listening", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "ok")
