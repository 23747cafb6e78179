"""API token authentication that takes the token as ``Token <key>`` (DRF's form) or as
``Bearer <key>``, which OpenAPI client generators send by default, and refuses a malformed
key before it reaches the database (a NUL byte in it was a 500: PostgreSQL text cannot
hold one)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
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
        found = _token_and_user(key)
        if found is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        token, user = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return (user, token)


@cache
def _statement() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    user_fields = get_user_model()._meta.concrete_fields
    token_fields = Token._meta.concrete_fields
    columns = [f'u."{f.column}"' for f in user_fields] + [f't."{f.column}"' for f in token_fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {Token._meta.db_table} t "  # noqa: S608 - names
        f"JOIN {get_user_model()._meta.db_table} u ON u.id = t.user_id WHERE t.key = %s"
    )
    return sql, tuple(f.attname for f in user_fields), tuple(f.attname for f in token_fields)


def _token_and_user(key: str) -> tuple[Token, Any] | None:
    """DRF's ``Token.objects.select_related("user").get(key=key)`` as one statement of text
    (every API request makes it: the ORM's compiling was most of its cost, events.rows)."""
    sql, user_names, token_names = _statement()
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    user = get_user_model().from_db("default", user_names, row[: len(user_names)])
    token = Token.from_db("default", token_names, row[len(user_names) :])
    token.user = user  # as select_related leaves it: no second query for token.user
    return token, user
