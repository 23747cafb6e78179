"""Sign-in limits that cannot be turned against a user (docs/api.md, "Sign-in limits").

A failed sign-in (a wrong password, an unknown username) is counted twice, in PostgreSQL
(``api.limits``, shared by every web process): for its username from its client address
(``FB_SIGN_IN_FAILURES``) and for its address, whatever the username
(``FB_SIGN_IN_ADDRESS_FAILURES``), over the last ``FB_SIGN_IN_WINDOW`` seconds. Never per
username alone: then anyone could lock a user out by failing on purpose from elsewhere.
So a correct password from an address that is not over its own limits always signs in.

An address over a limit is refused (429 ``too_many_failed_sign_ins``) before the password
is checked: the refusal says nothing of the password, and a guess past the limit costs no
hash. Each attempt is counted as a failure before the check, so concurrent guesses cannot
all slip under the limit; a right password then forgets it, with that username's earlier
failures from the address (in both counts; the address's failures for other usernames
stay).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.http import HttpRequest
from rest_framework.request import Request

from api import limits
from api.errors import ApiError
from api.proxies import client_address
from api.serializers import CredentialsSerializer
from api.usernames import username_key

SCOPE = "sign_in"


def sign_in_limits() -> tuple[limits.Limit, limits.Limit]:
    """Per username from one address, and per address (the settings are read each time:
    tests and the environment change them)."""
    window = int(settings.FB_SIGN_IN_WINDOW)
    return (
        limits.Limit("username", int(settings.FB_SIGN_IN_FAILURES), window, per_sub=True),
        limits.Limit("address", int(settings.FB_SIGN_IN_ADDRESS_FAILURES), window),
    )


def authenticated(request: Request) -> Any:
    """The user the body's credentials name (``signed_in``), or 400 ``invalid``."""
    body = CredentialsSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    return signed_in(
        request._request, body.validated_data["username"], body.validated_data["password"]
    )


def signed_in(request: HttpRequest, username: str, password: str) -> Any:
    """The user these credentials name, or 400 ``invalid_credentials``; 429
    ``too_many_failed_sign_ins`` (``extra.retry_after``, ``per``, ``limit``) for an address
    over its limits. For the API and for the pages' forms alike."""
    address = limits.key_part(client_address(request))
    account = username_key(username)  # look-alike spellings are one username
    taken = limits.take(SCOPE, address, sign_in_limits(), sub=account)
    if isinstance(taken, limits.Over):
        raise ApiError(
            "too_many_failed_sign_ins",
            retry_after=taken.retry_after,
            per=taken.limit.name,
            limit=taken.limit.count,
        )
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise ApiError("invalid_credentials")  # (the hit just taken is its failure)
    limits.forget(SCOPE, address, account)  # this one and the username's earlier failures
    return user
