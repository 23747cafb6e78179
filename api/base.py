"""What every API view shares: the request id, the idempotency key, request metadata."""

from __future__ import annotations

import os
import random
import re
import uuid
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiError
from api.proxies import client_address
from api.throttles import CommandRateThrottle, ReadRateThrottle

REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:/+=-]{1,128}$")


# Request ids need to be unique, not unpredictable: drawn from a generator seeded once per
# process (and again in a forked child) rather than the system's (``uuid4``: a syscall on
# every request, which on the feed's event loop also gives up the GIL).
_ids = random.Random()  # noqa: S311 - an identifier, not a secret
os.register_at_fork(after_in_child=_ids.seed)


def sane_request_id(given: str) -> str:
    """``given`` (a client's ``X-Request-ID``) if it is sane, else a new id."""
    return given if _REQUEST_ID.match(given) else f"{_ids.getrandbits(128):032x}"


def request_id(request: Request | HttpRequest) -> str:
    """The client's ``X-Request-ID`` if it is sane, else a new one; fixed per request."""
    raw: HttpRequest = getattr(request, "_request", request)
    cached = getattr(raw, "fb_request_id", None)
    if cached is None:
        cached = sane_request_id(raw.META.get("HTTP_X_REQUEST_ID", ""))
        raw.fb_request_id = cached  # type: ignore[attr-defined]
    return str(cached)


def request_metadata(request: Request) -> dict[str, Any]:
    """Stored with each command and event: which request, from where."""
    return {"request_id": request_id(request), "ip": client_address(request)}


def idempotency_key(request: Request) -> uuid.UUID:
    raw = request.headers.get("Idempotency-Key")
    if raw is None or not raw.strip():
        raise ApiError("idempotency_key_required")
    try:
        return uuid.UUID(raw.strip())
    except ValueError:
        raise ApiError("bad_idempotency_key") from None


class ApiView(APIView):
    """An APIView that echoes the request id on every response, errors included, and
    parses every request body (after authentication), so malformed JSON is a 400 even on
    routes that take no body; those (``takes_body = False``) accept only nothing or ``{}``.
    """

    takes_body = True
    # The setting that holds the largest body this route reads, in bytes.
    body_limit_setting = "DATA_UPLOAD_MAX_MEMORY_SIZE"

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self._check_body_size(request)
        super().initial(request, *args, **kwargs)
        if request.method in ("POST", "PUT", "PATCH", "DELETE"):
            data = request.data  # parses now: malformed JSON raises ParseError
            if not self.takes_body and data not in ({}, None) and len(data):
                raise ApiError(
                    "invalid",
                    "This request takes no body.",
                    fields={"non_field_errors": ["This request takes no body."]},
                )

    # Methods whose requests count against the command rate (each writes a record that
    # stays: a review, a standing preference), besides the view's own throttle_classes.
    command_methods: frozenset[str] = frozenset()

    def get_throttles(self):  # type: ignore[no-untyped-def]
        """The view's own limits, the read limit on every GET, and the command limit on
        ``command_methods`` (api.throttles)."""
        throttles = [*super().get_throttles(), ReadRateThrottle()]
        if self.request.method in self.command_methods:
            throttles.append(CommandRateThrottle())
        return throttles

    def _check_body_size(self, request: Request) -> None:
        """413 before reading a body that is too big (its Content-Length: a chunked body
        was given one by fbservice.asgi, which read it whole)."""
        limit = getattr(settings, self.body_limit_setting)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            raise ApiError("body_too_large", limit=limit)

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        response[REQUEST_ID_HEADER] = request_id(request)
        return response
