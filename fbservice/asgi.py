"""ASGI entry point: the whole service on one address (``make run``: uvicorn; production:
gunicorn with uvicorn workers, docker/gunicorn.conf.py).

Every HTTP request's body gets a ``Content-Length`` first (``with_length``: a chunked body
is read whole, up to ``DATA_UPLOAD_MAX_MEMORY_SIZE``, else 413). Then requests are split by
the kind of view their URL resolves to:

- **async views** (the feed's long-poll and event stream, ``api.feed.views``) run on the
  event loop through Django's ASGI handler: a waiting client holds no thread and no
  database connection, so one process holds thousands of them;
- **everything else** (commands, reads, pages, the admin, ``/healthz``) runs in the WSGI
  application on a pool of ``FB_WEB_THREADS`` threads, as under gunicorn's threaded
  workers: each thread keeps its database connection (``CONN_MAX_AGE``). Django's ASGI
  path would run each synchronous view in a new thread with a new connection
  (docs/performance.md has the measurements behind this choice).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import weakref
from typing import Any

from asgiref.sync import iscoroutinefunction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")

import django  # noqa: E402 - after the settings variable

django.setup(set_prefix=False)

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import RequestAborted  # noqa: E402
from django.core.handlers.asgi import ASGIHandler, get_script_prefix  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.http import HttpRequest, HttpResponseBase  # noqa: E402
from django.urls import Resolver404, ResolverMatch, resolve, set_script_prefix  # noqa: E402

from api.base import REQUEST_ID_HEADER, sane_request_id  # noqa: E402
from api.errors import API_CODES, envelope  # noqa: E402
from api.feed.metrics import watch_queue  # noqa: E402
from api.feed.middleware import FEED_MIDDLEWARE  # noqa: E402
from fbservice.startup import freeze_loaded_objects  # noqa: E402


@functools.lru_cache(maxsize=20_000)
def _match(path: str) -> ResolverMatch | None:
    """What ``path`` resolves to (None: nothing). URL resolution walks every pattern; a
    long-poll comes back to the same path many times, so each path is resolved once."""
    try:
        return resolve(path)
    except Resolver404:
        return None


# Receivers of the request signals that need nothing done on the event loop (see
# ``FeedHandler``), by module and name.
_LOOP_NEEDS_NOT = {
    ("django.db", "reset_queries"),
    ("django.db", "close_old_connections"),
    ("django.core.cache", "close_caches"),
    # undoes a request's own URLconf; every request sets the URLconf it runs with first
    ("django.core.handlers.base", "reset_urlconf"),
}


@functools.cache
def _signals_matter() -> bool:
    """Whether a receiver of the request signals other than Django's own is connected
    (looked at once, at the first feed request: receivers connect when apps load)."""
    for signal in (signals.request_started, signals.request_finished):
        for entry in signal.receivers:  # (lookup key, receiver or its weakref, is async)
            receiver = entry[1]
            found = receiver() if isinstance(receiver, weakref.ReferenceType) else receiver
            if found is None:
                continue
            if (
                getattr(found, "__module__", ""),
                getattr(found, "__name__", ""),
            ) not in _LOOP_NEEDS_NOT:
                return True
    return False


def _close_quietly(response: HttpResponseBase) -> None:
    """``response.close()`` without the ``request_finished`` signal."""
    closers: list[Any] = getattr(response, "_resource_closers", [])
    for closer in closers:
        with contextlib.suppress(Exception):
            closer()
    closers.clear()
    response.closed = True


class FeedHandler(ASGIHandler):
    """Django's ASGI handler for the feed's async views, made to cost no thread:

    - the feed's own middleware (``api.feed.middleware``: the hooks it needs, run on the
      event loop) instead of ``settings.MIDDLEWARE``;
    - no ``ThreadSensitiveContext`` per request (its thread would live as long as the
      request: an open feed would hold an idle thread after all);
    - no ``request_started`` / ``request_finished`` signals while their only receivers
      are Django's (``reset_queries``, ``close_old_connections``, ``close_caches``,
      ``reset_urlconf``): they tend the connections of the thread they run in, and the loop holds none (a feed's
      database work runs in ``api.feed.dbthreads``, which tends its own). Sent in
      asgiref's one shared thread they were two hops per request, a queue under thousands
      of reconnecting long-polls; sent on the loop, a tenth of a long-poll's CPU spent on
      nothing. Should an app connect a receiver of its own, they are sent on the loop;
    - URL resolution once per path (``_match``).
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"FeedHandler serves HTTP only, not {scope['type']!r}")
        await self.handle(scope, receive, send)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's ``ASGIHandler.handle`` (5.2) without the signals and thread hops."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        if _signals_matter():
            signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            assert error_response is not None  # noqa: S101 - create_request gives one
            body_file.close()
            await self.send_response(error_response, send)
            error_response.close()
            return

        async def process_request() -> HttpResponseBase:
            response = await self.run_get_response(request)
            with contextlib.suppress(asyncio.CancelledError):  # the client went away
                await self.send_response(response, send)
            return response

        tasks = [
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(process_request()),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                with contextlib.suppress(RequestAborted, asyncio.CancelledError):
                    task.result()
            else:
                task.cancel()  # the view handles its cancellation
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if tasks[1].cancelled() or tasks[1].exception() is not None:
            if _signals_matter():
                signals.request_finished.send(sender=self.__class__)
        elif (response := tasks[1].result()) is not None:
            if _signals_matter():
                response.close()  # sends request_finished
            else:
                _close_quietly(response)
        body_file.close()

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        match = _match(request.path_info)
        if match is None:
            raise Resolver404({"path": request.path_info})
        request.resolver_match = match
        return match

    def load_middleware(self, is_async: bool = False) -> None:
        configured = settings.MIDDLEWARE
        settings.MIDDLEWARE = FEED_MIDDLEWARE  # once, at start, before any request
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = configured


async_app = FeedHandler()
sync_app = WSGIMiddleware(get_wsgi_application(), workers=settings.FB_WEB_THREADS)  # type: ignore[arg-type]
# requests waiting for a web thread (api.feed.metrics' web_queue)
watch_queue("web_queue", sync_app.executor._work_queue.qsize)


def is_async_route(path: str) -> bool:
    """Whether ``path`` resolves to an async view (served on the event loop)."""
    match = _match(path)
    return match is not None and iscoroutinefunction(match.func)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    if scope["type"] == "http":
        framed = await with_length(scope, receive, send)
        if framed is None:
            return  # answered (413), or the client left
        scope, receive = framed
        if is_async_route(scope["path"]):
            await async_app(scope, receive, send)
            return
    await sync_app(scope, receive, send)  # type: ignore[arg-type]


async def with_length(
    scope: dict[str, Any], receive: Any, send: Any
) -> tuple[dict[str, Any], Any] | None:
    """The request with a body Django can read, or None once it was answered here.

    Django reads as many bytes of a body as ``Content-Length`` says, and a chunked body
    (``Transfer-Encoding: chunked``) has none: it was taken for empty, and the request
    served with defaults. Such a body is read whole here (the server has decoded the
    chunks) and handed on with its length. A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``,
    declared or counted, is ``413 body_too_large`` before any of it is kept."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    chunked = False
    for name, value in headers:
        if name == b"transfer-encoding":
            chunked = True
        elif name == b"content-length" and value.isdigit() and _over(int(value), limit):
            await _body_too_large(headers, send, limit)
            return None
    if not chunked:
        return scope, receive
    body = bytearray()
    more = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        more = message.get("more_body", False)
        if _over(len(body), limit):
            await _body_too_large(headers, send, limit)
            return None
    framed = [(n, v) for n, v in headers if n not in (b"transfer-encoding", b"content-length")]
    framed.append((b"content-length", b"%d" % len(body)))
    pending = [{"type": "http.request", "body": bytes(body), "more_body": False}]

    async def replay() -> Any:
        return pending.pop() if pending else await receive()  # then: the disconnect

    return {**scope, "headers": framed}, replay


def _over(length: int, limit: int | None) -> bool:
    return limit is not None and length > limit


async def _body_too_large(headers: list[tuple[bytes, bytes]], send: Any, limit: int | None) -> None:
    given = next((v for n, v in headers if n == b"x-request-id"), b"").decode("latin-1")
    body = json.dumps(envelope("body_too_large", API_CODES["body_too_large"], {"limit": limit}))
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
                (REQUEST_ID_HEADER.lower().encode(), sane_request_id(given).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})


async def _lifespan(receive: Any, send: Any) -> None:
    from api.feed import views as feed

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            feed.start_metrics()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await feed.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return


freeze_loaded_objects()
