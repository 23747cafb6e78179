"""The limits on a request's head that the HTTP server enforces before the application
sees anything (``fbservice.server.HttpProtocol``), and the codes it answers with. They are
gunicorn's defaults (``limit_request_line``, ``limit_request_field_size``,
``limit_request_fields``), which gunicorn itself does not apply to uvicorn workers.

Django-free: the gunicorn master imports it with the worker class; ``api.errors``
registers the codes with the API's.
"""

from __future__ import annotations

import json
import uuid

MAX_REQUEST_LINE = 4094  # bytes of "METHOD target HTTP/1.1"
MAX_HEADER_LINE = 8190  # bytes of "Name: value"
MAX_HEADERS = 100  # header lines
# Bytes a head may take before it is complete: the most the three limits allow, with line
# ends. Bounds what one connection makes the server hold while a header is still arriving.
MAX_HEAD = MAX_REQUEST_LINE + 2 + MAX_HEADERS * (MAX_HEADER_LINE + 2) + 2

# code: (status, message, extra.limit)
REFUSALS: dict[str, tuple[int, str, int]] = {
    "request_line_too_long": (
        414,
        "The request line (method, path and query, version) is longer than `extra.limit` bytes.",
        MAX_REQUEST_LINE,
    ),
    "header_too_large": (
        431,
        "A header line (name and value) is longer than `extra.limit` bytes.",
        MAX_HEADER_LINE,
    ),
    "too_many_headers": (431, "The request has more than `extra.limit` header lines.", MAX_HEADERS),
}
# What the server answers to a head its parser cannot read at all (a NUL in a header...).
MALFORMED = ("bad_request", 400, "The request is not valid HTTP/1.1.")
_REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}


def refusal(code: str, server_headers: list[tuple[bytes, bytes]]) -> bytes:
    """The whole HTTP answer refusing a request's head: the API's envelope, closing the
    connection (the rest of that request cannot be read reliably)."""
    if code == MALFORMED[0]:
        status, message, extra = MALFORMED[1], MALFORMED[2], {}
    else:
        status, message, limit = REFUSALS[code]
        extra = {"limit": limit}
    body = json.dumps({"code": code, "message": message, "extra": extra}).encode()
    lines = [b"HTTP/1.1 %d %s" % (status, _REASONS[status])]
    lines += [name + b": " + value for name, value in server_headers]
    lines += [
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"x-request-id: " + uuid.uuid4().hex.encode(),  # every answer has one
        b"connection: close",
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
