"""API token authentication that takes the token as ``Token <key>`` (DRF's form) or as
``Bearer <key>``, which OpenAPI client generators send by default, and refuses a malformed
key before it reaches the database (a NUL byte in it was a 500: PostgreSQL text cannot
hold one)."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

KEYWORDS = (b"token", b"bearer")
_KEY = re.compile(r"^[0-9a-f]{40}$")  # rest_framework.authtoken's keys: 20 random bytes, hex


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication with a second keyword; ``WWW-Authenticate`` stays
    ``Token``."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Invalid token header: send 'Token <token>' (or 'Bearer <token>')."
            )
        try:
            token = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                "Invalid token header. Token string should not contain invalid characters."
            ) from None
        found: tuple[Any, Any] = self.authenticate_credentials(token)
        return found

    def authenticate_credentials(self, key: str) -> Any:
        if not _KEY.match(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)
