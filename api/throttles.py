"""Rate limits. Rates are read from settings on each request (``FB_COMMAND_RATE``,
``FB_AUTH_RATE``, ``FB_AUTH_USERNAME_RATE``, ``FB_READ_RATE``), so they can be changed by
the environment and in tests.

Requests are counted against the client's address as ``api.proxies`` decided it: the peer,
or, from a proxy named in ``TRUSTED_PROXIES``, the client it forwarded for. A header any
client can set must not decide whose counter a request counts against, or one attacker
gets a fresh limit per request.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from api.proxies import client_address
from api.usernames import username_key


class _ByAddress:
    def get_ident(self, request: Request) -> str:
        return client_address(request)


class CommandRateThrottle(_ByAddress, UserRateThrottle):
    """Game commands (commands, resign, undo), per user."""

    scope = "commands"

    def get_rate(self) -> str | None:
        return str(settings.FB_COMMAND_RATE) or None


class AuthRateThrottle(_ByAddress, SimpleRateThrottle):
    """Sign-up and sign-in, per client address (they are tried before anyone is known)."""

    scope = "auth"

    def get_rate(self) -> str | None:
        return str(settings.FB_AUTH_RATE) or None

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AuthUsernameRateThrottle(SimpleRateThrottle):
    """Sign-up and sign-in, per username (normalised as usernames are compared), from any
    address: many addresses guessing one account's password are still one counter."""

    scope = "auth_username"

    def get_rate(self) -> str | None:
        return str(settings.FB_AUTH_USERNAME_RATE) or None

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        data = request.data  # parsed (and size- and depth-checked) by the JSON parser
        username = data.get("username") if isinstance(data, dict) else None
        if not isinstance(username, str) or not username or len(username) > 150:
            return None  # the serializer refuses it; nothing to count against
        return self.cache_format % {"scope": self.scope, "ident": username_key(username)}


AUTH_THROTTLES = (AuthRateThrottle, AuthUsernameRateThrottle)


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
