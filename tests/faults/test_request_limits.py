"""What the production server (gunicorn with docker/gunicorn.conf.py: uvicorn workers,
DEBUG off) lets through to the application.

- Heads, tried over raw sockets: a request line over 4,094 bytes is 414, a header line over
  8,190 bytes or more than 100 of them 431, each in the API's envelope, and the application
  never sees the request (gunicorn's own limits do not apply to uvicorn workers: a
  megabyte header reached Django).
- Bodies: a chunked body (no Content-Length) is read whole, not taken for empty (a table
  was created with the defaults instead of what was asked); over the size limit, chunked or
  not, the answer is 413 in the envelope and nothing is created."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from typing import Any

import pytest
import requests
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from events.models import StoredEvent
from fbservice.http_limits import MAX_HEADER_LINE, MAX_HEADERS, MAX_REQUEST_LINE
from games.models import Table
from tests.factories import UserFactory
from tests.service.helpers import human_table, state

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "fault-tests-only-not-a-secret"}
HOST = b"Host: 127.0.0.1\r\n"


def exchange(web, head: bytes, timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    """Send ``head`` (and whatever the server still reads of it) on a new connection; the
    answer's status, headers and body, read until the server closes or the body is in."""
    sock = socket.create_connection(("127.0.0.1", web.port), timeout=timeout)
    # send in another thread: a refused head may be answered while it is still going out
    sender = threading.Thread(target=_send_all, args=(sock, head), daemon=True)
    sender.start()
    answer = b""
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
            if _complete(answer):
                break
    finally:
        sock.close()
        sender.join(timeout=5)
    head_part, _, body = answer.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 "), answer[:300]
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def _send_all(sock: socket.socket, data: bytes) -> None:
    # the server may answer and stop reading before all is sent: its answer is what counts
    with contextlib.suppress(OSError):
        sock.sendall(data)


def _complete(answer: bytes) -> bool:
    head, found, body = answer.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def get(path: bytes, *headers: bytes) -> bytes:
    return b"GET " + path + b" HTTP/1.1\r\n" + HOST + b"".join(headers) + b"\r\n"


def request_line(length: int) -> bytes:
    """``GET /healthz?pad=... HTTP/1.1`` of exactly ``length`` bytes."""
    fixed = len(b"GET /healthz?pad= HTTP/1.1")
    return b"/healthz?pad=" + b"a" * (length - fixed)


def header(length: int) -> bytes:
    """An ``X-Pad: ...`` header line of exactly ``length`` bytes (its CRLF aside)."""
    return b"X-Pad: " + b"a" * (length - len(b"X-Pad: ")) + b"\r\n"


def envelope(body: bytes) -> dict[str, Any]:
    document = json.loads(body)
    assert set(document) == {"code", "message", "extra"} and document["message"], document
    return document


def refused(web, head: bytes, status: int, code: str, limit: int) -> None:
    answer, headers, body = exchange(web, head)
    assert answer == status, body[:300]
    assert headers["content-type"] == "application/json"
    assert headers["connection"] == "close" and headers["x-request-id"]
    assert envelope(body)["code"] == code and envelope(body)["extra"] == {"limit": limit}


def test_oversized_request_lines_and_headers_are_refused_by_the_server(webs) -> None:
    web = webs(**PRODUCTION)
    # what the campaign sent: a 5,000-byte request line, a 1,000,000-byte header
    refused(web, get(request_line(5000)), 414, "request_line_too_long", MAX_REQUEST_LINE)
    big = get(b"/api/v1/tables", b"X-Big: " + b"a" * 1_000_000 + b"\r\n")
    refused(web, big, 431, "header_too_large", MAX_HEADER_LINE)
    # a request line that never ends is cut off at the limit, not buffered
    refused(web, b"GET /" + b"a" * 100_000, 414, "request_line_too_long", MAX_REQUEST_LINE)
    # at the limits exactly: served; one byte or one header more: refused
    assert exchange(web, get(request_line(MAX_REQUEST_LINE)))[0] == 200
    too_long = get(request_line(MAX_REQUEST_LINE + 1))
    refused(web, too_long, 414, "request_line_too_long", MAX_REQUEST_LINE)
    assert exchange(web, get(b"/healthz", header(MAX_HEADER_LINE)))[0] == 200
    refused(web, get(b"/healthz", header(MAX_HEADER_LINE + 1)), 431, "header_too_large",
            MAX_HEADER_LINE)  # fmt: skip
    many = [b"X-N%d: 1\r\n" % i for i in range(MAX_HEADERS - 1)]  # and Host: the limit
    assert exchange(web, get(b"/healthz", *many))[0] == 200
    refused(web, get(b"/healthz", *many, b"X-One-More: 1\r\n"), 431, "too_many_headers",
            MAX_HEADERS)  # fmt: skip
    # a head the parser cannot read: 400 in the envelope too
    answer, _, body = exchange(web, get(b"/healthz", b"X-Bad: a\x00b\r\n"))
    assert (answer, envelope(body)["code"]) == (400, "bad_request")
    # none of the refused requests reached the application (it logs every request it
    # answers); the ones at the limits did
    log = web.text()
    assert log.count('"GET /healthz?pad=') == 1, log[-3000:]
    assert "/api/v1/tables" not in log and "GET /aaaa" not in log
    # and the server still serves
    assert exchange(web, get(b"/healthz"))[0] == 200


def test_a_connection_goes_on_after_requests_within_the_limits(webs) -> None:
    """The limits are per request: several heads near them on one kept-alive connection."""
    web = webs(**PRODUCTION)
    near = get(request_line(MAX_REQUEST_LINE), header(MAX_HEADER_LINE))
    sock = socket.create_connection(("127.0.0.1", web.port), timeout=20)
    try:
        for _ in range(3):
            sock.sendall(near)
            answer = b""
            while not _complete(answer):
                data = sock.recv(65536)
                assert data, "the server closed the connection"
                answer += data
            assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    finally:
        sock.close()


def test_make_runs_server_has_the_same_limits(make_run_web) -> None:
    web = make_run_web()
    refused(web, get(request_line(5000)), 414, "request_line_too_long", MAX_REQUEST_LINE)
    big = get(b"/api/v1/tables", b"X-Big: " + b"a" * 1_000_000 + b"\r\n")
    refused(web, big, 431, "header_too_large", MAX_HEADER_LINE)
    assert exchange(web, get(request_line(MAX_REQUEST_LINE), header(MAX_HEADER_LINE)))[0] == 200


# --- bodies ---------------------------------------------------------------------------------


def chunked(body: bytes, size: int = 7):
    """``body`` as requests sends a generator: Transfer-Encoding: chunked, no length."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def auth(name: str) -> dict[str, str]:
    user = User.objects.filter(username=name).first() or UserFactory(username=name)
    return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}


def post(web, path: str, body, **headers: str) -> requests.Response:
    return requests.post(
        f"{web.url}{path}",
        data=body,
        headers={"Content-Type": "application/json", **headers},
        timeout=60,
    )


def test_a_chunked_body_is_read_whole(webs) -> None:
    web = webs(**PRODUCTION)
    asked = json.dumps({"seats": 2, "join": False, "mode": "ranked"}).encode()
    response = post(web, "/api/v1/tables", chunked(asked), **auth("alice"))
    assert response.request.headers["Transfer-Encoding"] == "chunked"
    assert response.status_code == 201, response.text
    table = Table.objects.get(id=response.json()["id"])
    assert (table.mode, table.seats, table.seat_set.count()) == ("ranked", 2, 0)
    # a chunked command is the command it says
    game = human_table(2)
    before = state(game)
    card = before.state.players[0].hand[0]
    command = json.dumps({"command": {"type": "play", "card": card, "discard": True}}).encode()
    response = post(web, f"/api/v1/games/{game.id}/commands", chunked(command, 5),
                    **auth("alice"), **{"Idempotency-Key": "8d1f3c0e-5b1a-4c38-9b8e-0c6f2d7a9e11"})  # fmt: skip
    assert response.status_code == 201, response.text
    assert response.json()["events"][0]["data"]["card"] == card
    assert state(game).version > before.version


def test_bodies_over_the_limit_are_413_chunked_or_not(webs) -> None:
    web = webs(**PRODUCTION)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    big = json.dumps({"seats": 2, "options": {"pad": "a" * (limit + 10)}}).encode()
    tables = Table.objects.count()
    for is_chunked in (False, True):
        for path in ("/api/v1/tables", "/api/v1/auth/token", "/admin/login/"):
            body = chunked(big, 65536) if is_chunked else big
            response = post(web, path, body, **auth("alice"), **{"X-Request-ID": "edge-413"})
            assert response.status_code == 413, (is_chunked, path, response.text[:300])
            assert envelope(response.content) == {
                "code": "body_too_large",
                "message": response.json()["message"],
                "extra": {"limit": limit},
            }
            assert response.headers["X-Request-ID"] == "edge-413"
    assert Table.objects.count() == tables
    # a command's own, smaller limit holds for a chunked one too; nothing is appended
    game = human_table(2)
    events = StoredEvent.objects.filter(stream_id=game.id).count()
    card = state(game).state.players[0].hand[0]
    padded = {"command": {"type": "play", "card": card, "discard": True}, "pad": "a" * 20_000}
    response = post(web, f"/api/v1/games/{game.id}/commands", chunked(json.dumps(padded).encode(), 4096),
                    **auth("alice"), **{"Idempotency-Key": "0b7e2f4c-1d3a-4e5f-8a9b-2c4d6e8f0a1b"})  # fmt: skip
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "body_too_large"
    assert response.json()["extra"] == {"limit": settings.FB_MAX_COMMAND_BYTES}
    assert StoredEvent.objects.filter(stream_id=game.id).count() == events
