"""The middleware of the feed's async routes (``fbservice.asgi.FeedHandler``).

Django runs each hook of a synchronous middleware in a thread when the view is async:
for the feed that was several thread hops per request, on every long-poll. The hooks used
here do no I/O (they set headers, make the session and the user lazy: the session is read
and the user loaded later, in the feed's database threads), so they run on the event loop
itself. Were one of them to touch the database there, Django would raise
``SynchronousOnlyOperation``, not block the loop.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSession
from django.http import HttpRequest, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware as DjangoXFrameOptions
from django.middleware.security import SecurityMiddleware as DjangoSecurity

from api import proxies


def _on_the_loop(middleware: type[Any]) -> type[Any]:
    """``middleware`` with its hooks called directly in async mode (no thread hop)."""

    class OnTheLoop(middleware):  # type: ignore[misc]
        async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
            response = None
            if hasattr(self, "process_request"):
                response = self.process_request(request)
            response = response or await self.get_response(request)
            if hasattr(self, "process_response"):
                response = self.process_response(request, response)
            return response  # type: ignore[no-any-return]

    OnTheLoop.__name__ = OnTheLoop.__qualname__ = middleware.__name__
    return OnTheLoop


ProxyHeadersMiddleware = _on_the_loop(proxies.ProxyHeadersMiddleware)
SecurityMiddleware = _on_the_loop(DjangoSecurity)
SessionMiddleware = _on_the_loop(DjangoSession)
AuthenticationMiddleware = _on_the_loop(DjangoAuthentication)
XFrameOptionsMiddleware = _on_the_loop(DjangoXFrameOptions)

FEED_MIDDLEWARE = [
    "api.feed.middleware.ProxyHeadersMiddleware",
    "api.feed.middleware.SecurityMiddleware",
    "api.middleware.DatabaseUnavailableMiddleware",
    "api.feed.middleware.SessionMiddleware",
    "api.feed.middleware.AuthenticationMiddleware",
    "api.feed.middleware.XFrameOptionsMiddleware",
]
