"""Rate limits. Rates are read from settings on each request (``FB_COMMAND_RATE``,
``FB_AUTH_RATE``, ``FB_READ_RATE``), so they can be changed by the environment and in
tests. Commands and reads are counted in Django's cache; sign-up and sign-in in PostgreSQL
(``api.limits``), shared by every web process; failed sign-ins have limits of their own
(``api.signin``).

Requests are counted against the client's address as ``api.proxies`` decided it: the peer,
or, from a proxy named in ``TRUSTED_PROXIES``, the client it forwarded for. A header any
client can set must not decide whose counter a request counts against, or one attacker
gets a fresh limit per request.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, UserRateThrottle

from api import limits
from api.proxies import client_address


class _ByAddress:
    def get_ident(self, request: Request) -> str:
        return client_address(request)


class CommandRateThrottle(_ByAddress, UserRateThrottle):
    """Game commands (commands, resign, undo), per user."""

    scope = "commands"

    def get_rate(self) -> str | None:
        return str(settings.FB_COMMAND_RATE) or None


def parse_rate(rate: str) -> tuple[int, int]:
    """``"N/s"``, ``"N/min"``, ``"N/hour"``, ``"N/day"``: (N, seconds), as DRF reads them."""
    count, period = rate.split("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period.strip()[0]]


class AuthRateThrottle(BaseThrottle):
    """Sign-up and sign-in attempts per client address (``FB_AUTH_RATE``; they are tried
    before anyone is known), counted in PostgreSQL: one count for every web process."""

    scope = "auth"

    def __init__(self) -> None:
        self.retry_after: int | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        self.retry_after = auth_attempt_refused(request)
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after


def auth_attempt_refused(request: Request | HttpRequest) -> int | None:
    """Counts one sign-up or sign-in attempt from the request's address: None while under
    ``FB_AUTH_RATE``, else the seconds to wait. The API's throttle and the pages' forms."""
    rate = str(settings.FB_AUTH_RATE)
    if not rate:
        return None
    count, seconds = parse_rate(rate)
    address = limits.key_part(client_address(request))
    taken = limits.take(AuthRateThrottle.scope, address, [limits.Limit("attempts", count, seconds)])
    return taken.retry_after if isinstance(taken, limits.Over) else None


AUTH_THROTTLES = (AuthRateThrottle,)


# The feed's routes wait and poll by design; their limits are the feed's own.
READ_EXEMPT_ROUTES = frozenset({"api:game-events", "api:game-events-stream"})


class ReadRateThrottle(_ByAddress, UserRateThrottle):
    """Reads (GET, HEAD) of the API, per user (per address when signed out): generous,
    against scraping loops, not play. Not the event feed's routes."""

    scope = "reads"

    def get_rate(self) -> str | None:
        return str(settings.FB_READ_RATE) or None

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method not in ("GET", "HEAD"):
            return True
        match = getattr(request, "resolver_match", None)
        if match is not None and match.view_name in READ_EXEMPT_ROUTES:
            return True
        return bool(super().allow_request(request, view))
