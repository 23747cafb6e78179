"""Rate limits. Rates are read from settings on each request (``FB_COMMAND_RATE``,
``FB_AUTH_RATE``), so they can be changed by the environment and in tests."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class CommandRateThrottle(UserRateThrottle):
    """Game commands (commands, resign, undo), per user."""

    scope = "commands"

    def get_rate(self) -> str | None:
        return str(settings.FB_COMMAND_RATE) or None


class AuthRateThrottle(AnonRateThrottle):
    """Sign-up and sign-in, per client address (they are tried before anyone is known)."""

    scope = "auth"

    def get_rate(self) -> str | None:
        return str(settings.FB_AUTH_RATE) or None

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
