"""ASGI entry point: the whole service on one address (``make run``: uvicorn; production:
gunicorn with uvicorn workers, docker/gunicorn.conf.py).

Requests are split by the kind of view their URL resolves to:

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

import os
from typing import Any

from asgiref.sync import iscoroutinefunction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fbservice.settings")

import django  # noqa: E402 - after the settings variable

django.setup(set_prefix=False)

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.urls import Resolver404, resolve  # noqa: E402

from api.feed.middleware import FEED_MIDDLEWARE  # noqa: E402
from fbservice.startup import freeze_loaded_objects  # noqa: E402


class FeedHandler(ASGIHandler):
    """Django's ASGI handler with the feed's own middleware (``api.feed.middleware``:
    the hooks the feed needs, run on the event loop) instead of ``settings.MIDDLEWARE``,
    and without a thread of its own per request: Django's handler runs each request in a
    ``ThreadSensitiveContext``, whose thread (made for the request signals' receivers)
    lives as long as the request, so an open feed would hold an idle thread after all.
    Here those receivers run on asgiref's one shared thread, a moment each."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"FeedHandler serves HTTP only, not {scope['type']!r}")
        await self.handle(scope, receive, send)

    def load_middleware(self, is_async: bool = False) -> None:
        configured = settings.MIDDLEWARE
        settings.MIDDLEWARE = FEED_MIDDLEWARE  # once, at start, before any request
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = configured


async_app = FeedHandler()
sync_app = WSGIMiddleware(get_wsgi_application(), workers=settings.FB_WEB_THREADS)


def is_async_route(path: str) -> bool:
    """Whether ``path`` resolves to an async view (served on the event loop)."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http" and is_async_route(scope["path"]):
        await async_app(scope, receive, send)
    else:
        await sync_app(scope, receive, send)  # type: ignore[arg-type]


async def _lifespan(receive: Any, send: Any) -> None:
    from api.feed import views as feed

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await feed.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return


freeze_loaded_objects()
