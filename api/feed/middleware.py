"""The middleware of the feed's async routes (``fbservice.asgi.FeedHandler``).

Django runs each hook of a synchronous middleware in a thread when the view is async:
for the feed that was several thread hops per request, on every long-poll. The hooks used
here do no I/O (they set headers, make the session and the user lazy: the session is read
and the user loaded later, in the feed's database threads), so they run on the event loop
itself, all in one layer (``FeedMiddleware``). Were one of them to touch the database
there, Django would raise ``SynchronousOnlyOperation``, not block the loop.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import markcoroutinefunction
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSession
from django.http import HttpRequest, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware as DjangoXFrameOptions
from django.middleware.security import SecurityMiddleware as DjangoSecurity

from api import proxies


class FeedMiddleware:
    """Django's middleware that the feed needs, in one layer on the event loop: the hooks
    of each (``process_request`` in order, ``process_response`` in reverse, as Django's
    chain runs them, a response from a ``process_request`` skipping the ones after it).
    One layer instead of one per middleware, each wrapped by Django in a coroutine that
    converts exceptions: the chain was a tenth of a long-poll's CPU."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.parts = [cls(get_response) for cls in PARTS]
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase | None = None
        ran = []
        for part in self.parts:
            ran.append(part)
            if hasattr(part, "process_request"):
                response = part.process_request(request)
                if response is not None:
                    break
        if response is None:
            response = await self.get_response(request)
        assert response is not None  # noqa: S101 - the view or a hook answered
        for part in reversed(ran):
            if hasattr(part, "process_response"):
                response = part.process_response(request, response)
        return response


PARTS: list[type[Any]] = [
    proxies.ProxyHeadersMiddleware,
    DjangoSecurity,
    DjangoSession,
    DjangoAuthentication,
    DjangoXFrameOptions,
]

FEED_MIDDLEWARE = [
    "api.middleware.DatabaseUnavailableMiddleware",
    "api.feed.middleware.FeedMiddleware",
]
