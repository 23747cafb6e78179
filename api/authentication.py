"""DRF's token authentication, refusing a malformed key before it reaches the database (a
NUL byte in it was a 500: PostgreSQL text cannot hold one)."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import authentication, exceptions

_KEY = re.compile(r"^[0-9a-f]{40}$")  # rest_framework.authtoken's keys: 20 random bytes, hex


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> Any:
        if not _KEY.match(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)
