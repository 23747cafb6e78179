"""The sign-up and log-in forms sent by the browser itself.

auth.js normally sends them to the API (POST /auth/register, /auth/session). A form sent
before the script has loaded, or with scripts off, comes here as a plain POST (Django's
CSRF middleware has checked its token) and goes through the same code: the same
validators, the same sign-in limits, the same session. A refusal renders the form again
with the API's message and status; the password is never echoed back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import login
from django.http import HttpRequest
from rest_framework.exceptions import ValidationError

from api.auth_views import registered
from api.errors import ApiError
from api.serializers import CredentialsSerializer
from api.signin import signed_in
from api.throttles import auth_attempt_refused


@dataclass(frozen=True)
class Refusal:
    status: int
    message: str


def submit(request: HttpRequest, mode: str) -> Refusal | None:
    """Signs the browser in (creating the account first for ``signup``); None when done."""
    if (wait := auth_attempt_refused(request)) is not None:
        return Refusal(
            429, f"Too many sign-ups and log-ins from your address; try again in {wait} s."
        )
    credentials = {
        "username": request.POST.get("username", "").strip(),
        "password": request.POST.get("password", ""),
    }
    try:
        if mode == "signup":
            if credentials["password"] != request.POST.get("password2", ""):
                return Refusal(400, "The two passwords differ.")
            user, _token = registered(credentials)
        else:
            body = CredentialsSerializer(data=credentials)
            body.is_valid(raise_exception=True)
            user = signed_in(request, credentials["username"], credentials["password"])
    except ValidationError as exc:
        return Refusal(400, " ".join(_messages(exc.detail)))
    except ApiError as exc:
        if exc.code == "too_many_failed_sign_ins":
            wait = exc.extra["retry_after"]
            return Refusal(
                429, f"Too many failed log-ins from your address; try again in {wait} s."
            )
        return Refusal(exc.status_code, exc.message)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return None


def _messages(detail: Any) -> list[str]:
    """DRF's nested error detail, flattened to its sentences."""
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _messages(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _messages(value)]
    return [str(detail)]
