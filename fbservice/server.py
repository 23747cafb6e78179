"""The HTTP server in front of ``fbservice.asgi``, as every shape of this project runs it:
gunicorn's worker class (``docker/gunicorn.conf.py``) has these options, and ``make run``'s
uvicorn command line (``fbservice/devserver.py``, ``SERVER_ARGS``) says the same.

- **No proxy headers.** uvicorn would otherwise rewrite the client address and scheme from
  ``X-Forwarded-For`` / ``-Proto`` for the peers in ``forwarded_allow_ips`` (gunicorn
  passes its own setting, ``*`` in the old config: anyone). The application decides alone,
  from the raw peer address and ``TRUSTED_PROXIES`` (``api.proxies``).
- **Limits on the request's head** (``HttpProtocol``): gunicorn's ``limit_request_*``
  settings do not reach uvicorn workers, and uvicorn's httptools protocol has no limit of
  its own: a megabyte header reached Django. The limits and codes are in
  ``fbservice.http_limits``.

Imported by the gunicorn master before Django is set up: no Django here.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker as _UvicornWorker

from fbservice import http_limits as limits

log = logging.getLogger("uvicorn.error")

# Seconds a refused connection still reads (and drops) what the client sends after the
# answer: closing a socket with unread data makes the kernel reset the connection, and the
# reset can destroy the answer before the client has read it.
LINGER_SECONDS = 2.0


class _Refused(Exception):
    """Raised in a parser callback to stop parsing a head that is over a limit."""


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with limits on the request line and the headers.

    The request line is checked as it arrives, each header line when it is complete, and
    the bytes of a head not complete yet against ``MAX_HEAD`` (httptools holds a header
    line that is still arriving out of our sight). Over a limit, the request is answered
    414 or 431 in the API's envelope (a head the parser cannot read: 400 ``bad_request``)
    and the connection is closed: the application never sees it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True  # reading a request's line and headers
        self._head_bytes = 0  # received since that head began (an upper bound)
        self._refused: str | None = None  # the refusal's code, once answered or pending

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:
            return  # dropped while the refusal drains (LINGER_SECONDS)
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > limits.MAX_HEAD:
                self._refuse("header_too_large")
                return
        super().data_received(data)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        line = len(self.parser.get_method()) + 1 + len(self.url) + len(b" HTTP/1.1")
        if line > limits.MAX_REQUEST_LINE:
            self._stop("request_line_too_long")

    def on_header(self, name: bytes, value: bytes) -> None:
        if len(name) + 2 + len(value) > limits.MAX_HEADER_LINE:
            self._stop("header_too_large")
        if len(self.headers) >= limits.MAX_HEADERS:
            self._stop("too_many_headers")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head, self._head_bytes = False, 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True  # the next request on this connection

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a parser error (a callback's ``_Refused`` becomes one): the
        refusal, or ``400 bad_request``, in the envelope like every other answer."""
        self._refuse(self._refused or limits.MALFORMED[0])

    def _stop(self, code: str) -> None:
        self._refused = code
        raise _Refused(code)

    def _refuse(self, code: str) -> None:
        self._refused = code
        if self.transport.is_closing():
            return
        client = "%s:%d" % self.client if self.client else "?"  # noqa: UP031 - uvicorn's form
        log.info("%s - refused: %s", client, code)
        self._unset_keepalive_if_required()
        self.transport.write(limits.refusal(code, self.server_state.default_headers))
        if self.transport.can_write_eof():
            self.transport.write_eof()  # the answer is all; the client may still be sending
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()


class UvicornWorker(_UvicornWorker):
    """gunicorn's uvicorn worker with this project's server options."""

    CONFIG_KWARGS: dict[str, Any] = {  # noqa: RUF012 - the base class's hook
        **_UvicornWorker.CONFIG_KWARGS,
        "http": HttpProtocol,
        "proxy_headers": False,
    }
