"""What one delivery attempt does on the wire (``webhooks.ssrf.post``) against a small
server on 127.0.0.1: redirects are not followed, answers are read only so far, slow
receivers time out, and the address is checked before connecting."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from webhooks import ssrf


class Handler(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Handler.hits.append(self.path)
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/target")
            self.end_headers()
        elif self.path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", str(1_000_000))
            self.end_headers()
            self.wfile.write(b"x" * 1_000_000)
        elif self.path == "/slow":
            time.sleep(3)
            self.send_response(204)
            self.end_headers()
        else:
            self.send_response(204)
            self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server(settings: Any) -> Iterator[str]:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True
    Handler.hits = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_a_redirect_is_an_answer_not_followed(server: str) -> None:
    response = ssrf.post(f"{server}/redirect", b"{}", {})
    assert response.status == 302
    assert Handler.hits == ["/redirect"]


def test_only_the_start_of_a_big_answer_is_read(server: str, settings: Any) -> None:
    settings.FB_WEBHOOK_MAX_RESPONSE_BYTES = 100
    response = ssrf.post(f"{server}/big", b"{}", {})
    assert response.status == 200 and response.body == "x" * 100


def test_a_slow_receiver_times_out(server: str, settings: Any) -> None:
    settings.FB_WEBHOOK_TIMEOUT_SECONDS = 0.5
    began = time.monotonic()
    with pytest.raises(OSError):
        ssrf.post(f"{server}/slow", b"{}", {})
    assert time.monotonic() - began < 2.5


def test_the_address_is_checked_before_connecting(server: str, settings: Any) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = False
    with pytest.raises(ssrf.UrlRefused):
        ssrf.post(f"{server}/ok", b"{}", {})
    assert Handler.hits == []
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True
    assert ssrf.post(f"{server}/ok", b"{}", {"webhook-id": "msg_1"}).status == 204
    assert Handler.hits == ["/ok"]
