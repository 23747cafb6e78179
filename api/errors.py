"""One error envelope for the whole API: ``{"code", "message", "extra"}``.

Every refusal has a stable ``code`` (tests assert on codes, never on messages) and one HTTP
status. The codes are the games' (each ``Game.error_codes`` with ``Game.http_status``), the
service's (``games.errors.CODES``) and the API's own (``API_CODES``); ``STATUS`` maps each
to its status and the OpenAPI schema lists them all (``api.schema``).

``exception_handler`` goes through DRF's own handler, so ``set_rollback()`` runs and DRF's
headers (``WWW-Authenticate``, ``Retry-After``) are kept; it only reshapes the body.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from api.parsers import JSONTooDeep
from games.core import RuleViolation
from games.errors import CODES as SERVICE_CODES
from games.errors import ServiceError
from games.registry import GAMES

logger = logging.getLogger(__name__)

API_CODES: dict[str, str] = {
    "bad_request": "The request is malformed.",
    "invalid": "Some fields are invalid; `extra.fields` maps each field to its errors.",
    "malformed_json": "The request body is not valid JSON.",
    "json_too_deep": "The JSON body nests deeper than `extra.limit` levels.",
    "body_too_large": "The request body is larger than `extra.limit` bytes.",
    "idempotency_key_required": "This request needs an `Idempotency-Key` header (a UUID).",
    "bad_idempotency_key": "The `Idempotency-Key` header must be a UUID.",
    "invalid_credentials": "Unknown username or wrong password.",
    "not_authenticated": "Sign in first: a token (`Authorization: Token ...`) or a session.",
    "authentication_failed": "The token or session is invalid.",
    "forbidden": "You may not do this (`message` says why).",
    "sealed_choice_pending": "A seat's sealed choice is committed and not yet revealed; the "
    "full record would show it. Try again after the reveal.",
    "csrf_failed": "A session-authenticated unsafe request needs the CSRF token.",
    "not_your_seat": "You act only for the seat you hold at this game.",
    "not_found": "No such resource.",
    "method_not_allowed": "This route does not accept that HTTP method.",
    "not_acceptable": "The server cannot produce a response in the requested media type.",
    "unsupported_media_type": "Send JSON (`Content-Type: application/json`).",
    "rate_limited": "Too many requests; retry after `extra.retry_after` seconds.",
    "too_many_feeds": "You hold as many open feed connections as allowed (`extra.limit`).",
    "feed_overloaded": "This server holds as many feed connections as it can; retry later.",
    "server_error": "An unexpected error on the server (never caused by bad input).",
    "database_unavailable": "The database cannot be reached right now; retry (same key).",
}

# HTTP status of every code. Engine refusals are 422 unless the request was malformed
# (400) or lost a race with the game's state (409); see docs/api.md for the reasoning.
STATUS: dict[str, int] = {
    # the API's own
    "bad_request": 400,
    "invalid": 400,
    "malformed_json": 400,
    "json_too_deep": 400,
    "body_too_large": 413,
    "idempotency_key_required": 400,
    "bad_idempotency_key": 400,
    "invalid_credentials": 400,
    "not_authenticated": 401,
    "authentication_failed": 401,
    "forbidden": 403,
    "sealed_choice_pending": 403,
    "csrf_failed": 403,
    "not_your_seat": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "not_acceptable": 406,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "too_many_feeds": 429,
    "feed_overloaded": 503,
    "server_error": 500,
    "database_unavailable": 503,
    # the service's
    "game_not_found": 404,
    "not_started": 409,
    "table_not_open": 409,
    "table_full": 409,
    "seat_taken": 409,
    "already_seated": 409,
    "not_seated": 409,
    "not_enough_players": 409,
    "bad_options": 400,
    "stale_version": 409,
    "idempotency_key_reused": 422,
    "undo_not_allowed": 422,
    "nothing_to_undo": 422,
    "other_seat_acted": 409,
    "undo_reveals_cards": 422,
    "undo_after_reveal": 422,
    "busy": 503,
}

# Every registered game's codes, with the status the game gives each (a code two games
# share must mean the same; the first game's text documents it).
RULE_CODES: dict[str, str] = {}
for _game in GAMES.values():
    for _code, _text in _game.error_codes.items():
        RULE_CODES.setdefault(_code, _text)
        STATUS.setdefault(_code, _game.http_status(_code))

ALL_CODES: dict[str, str] = {**API_CODES, **SERVICE_CODES, **RULE_CODES}
ALL_CODES_CHOICES = sorted(ALL_CODES)


def status_of(code: str) -> int:
    """A code's HTTP status; any engine code not in STATUS is a rule violation (422)."""
    return STATUS.get(code, 422)


class ApiError(exceptions.APIException):
    """An API refusal with its code, message and extra data, rendered as the envelope."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        *,
        status_code: int | None = None,
        **extra: Any,
    ) -> None:
        self.code = code
        self.message = message or ALL_CODES.get(code, code)
        self.extra = extra
        self.status_code = status_code or status_of(code)
        super().__init__(detail=self.message, code=code)


def from_refusal(error: RuleViolation | ServiceError) -> ApiError:
    return ApiError(error.code, error.message, **_jsonable(error.data))


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple | set | frozenset) else v for k, v in data.items()}


def envelope(code: str, message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "extra": extra or {}}


def _field_errors(detail: Any) -> Any:
    """DRF's nested error detail as plain lists of messages."""
    if isinstance(detail, dict):
        return {str(k): _field_errors(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_field_errors(v) for v in detail]
    return str(detail)


def _classify(exc: Exception) -> tuple[str, str, dict[str, Any]]:
    """The envelope's code, message and extra for an exception DRF already handled."""
    if isinstance(exc, ApiError):
        return exc.code, exc.message, exc.extra
    if isinstance(exc, JSONTooDeep):
        return "json_too_deep", str(exc.detail), {"limit": exc.limit}
    if isinstance(exc, exceptions.ParseError):
        return "malformed_json", f"The request body is not valid JSON: {exc.detail}", {}
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        if isinstance(detail, dict):
            return "invalid", "Some fields are invalid.", {"fields": _field_errors(detail)}
        return "invalid", "The request is invalid.", {"errors": _field_errors(detail)}
    if isinstance(exc, exceptions.NotAuthenticated):
        return "not_authenticated", API_CODES["not_authenticated"], {}
    if isinstance(exc, exceptions.AuthenticationFailed):
        return "authentication_failed", str(exc.detail), {}
    if isinstance(exc, exceptions.Throttled):
        return "rate_limited", API_CODES["rate_limited"], {"retry_after": exc.wait}
    if isinstance(exc, exceptions.PermissionDenied):
        message = str(exc.detail)
        if message.startswith("CSRF Failed"):
            return "csrf_failed", message, {}
        return "forbidden", message, {}
    if isinstance(exc, exceptions.NotFound):
        return "not_found", str(exc.detail), {}
    if isinstance(exc, exceptions.MethodNotAllowed):
        return "method_not_allowed", str(exc.detail), {}
    if isinstance(exc, exceptions.NotAcceptable):
        return "not_acceptable", str(exc.detail), {}
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return "unsupported_media_type", str(exc.detail), {}
    if isinstance(exc, exceptions.APIException):
        return "bad_request", str(exc.detail), {}
    return "server_error", API_CODES["server_error"], {}


# Seconds a client is asked to wait before retrying when the database is unreachable.
DATABASE_RETRY_AFTER = 1


def database_unavailable(exc: BaseException) -> Response:
    """503 for a lost or refused database connection (a restart, a failover): nothing
    was committed by the failed transaction, so the client retries with the same key."""
    logger.warning("database unavailable: %s", str(exc).strip().splitlines()[:1])
    return Response(
        envelope("database_unavailable", API_CODES["database_unavailable"]),
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler (rollback, headers), then the envelope."""
    if isinstance(exc, OperationalError | InterfaceError):
        set_rollback()
        return database_unavailable(exc)
    # a refusal answered again from the log for a retried Idempotency-Key
    replayed = bool(getattr(exc, "replayed", False))
    if isinstance(exc, RuleViolation | ServiceError):
        exc = from_refusal(exc)
    elif isinstance(exc, RequestDataTooBig):  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE
        exc = ApiError("body_too_large", limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    elif isinstance(exc, SuspiciousOperation):  # too many query fields, a bad header, ...
        exc = ApiError("bad_request", str(exc)[:300])
    response = drf_exception_handler(exc, context)
    if response is None:
        # A bug, not a refusal: log it with its traceback, answer with the envelope.
        logger.error("unhandled error in %s", context.get("view"), exc_info=exc)
        set_rollback()
        return Response(
            envelope("server_error", API_CODES["server_error"]),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    code, message, extra = _classify(exc)
    response.data = envelope(code, message, extra)
    if isinstance(exc, ApiError):
        response.status_code = exc.status_code
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def assert_codes_have_statuses() -> None:
    """The API's and the service's codes each have an explicit status (checked by the
    tests); an engine code without one is a rule violation, 422."""
    missing = sorted((set(API_CODES) | set(SERVICE_CODES)) - set(STATUS))
    if missing:
        raise AssertionError(f"codes without an HTTP status: {missing}")
