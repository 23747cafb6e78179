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
from fbservice.http_limits import REFUSALS
from games.core import RuleViolation
from games.errors import SERVICE, Code, ServiceError
from games.registry import GAMES
from ratings.errors import RATINGS
from tournaments.errors import TOURNAMENTS
from webhooks.errors import WEBHOOKS

logger = logging.getLogger(__name__)

# The API's own codes (the service's are in games.errors, each game's in its package).
API: dict[str, Code] = {
    "bad_request": Code(400, "The request is malformed."),
    "invalid": Code(400, "Some fields are invalid; `extra.fields` maps each field to its errors."),
    "malformed_json": Code(400, "The request body is not valid JSON."),
    "json_too_deep": Code(400, "The JSON body nests deeper than `extra.limit` levels (32)."),
    "body_too_large": Code(
        413,
        "The request body is larger than `extra.limit` bytes (`DATA_UPLOAD_MAX_MEMORY_SIZE`; "
        "commands `FB_MAX_COMMAND_BYTES`).",
    ),
    "idempotency_key_required": Code(
        400, "This request needs an `Idempotency-Key` header (a UUID)."
    ),
    "bad_idempotency_key": Code(400, "The `Idempotency-Key` header must be a UUID."),
    "invalid_credentials": Code(400, "Unknown username or wrong password."),
    "not_authenticated": Code(
        401, "Sign in first: a token (`Authorization: Token ...`) or a session."
    ),
    "authentication_failed": Code(401, "The token or session is invalid."),
    "csrf_failed": Code(403, "A session-authenticated unsafe request needs the CSRF token."),
    "not_found": Code(404, "No such resource."),
    "method_not_allowed": Code(405, "This route does not accept that HTTP method."),
    "not_acceptable": Code(
        406, "The server cannot produce a response in the requested media type."
    ),
    "unsupported_media_type": Code(415, "Send JSON (`Content-Type: application/json`)."),
    "rate_limited": Code(429, "Too many requests; retry after `extra.retry_after` seconds."),
    "too_many_failed_sign_ins": Code(
        429,
        "Too many failed sign-ins from your address, for this username or for any "
        "(`extra.per`: `username` or `address`); retry after `extra.retry_after` seconds.",
    ),
    "too_many_feeds": Code(
        429, "You hold as many open feed connections as allowed (`extra.limit`)."
    ),
    "feed_overloaded": Code(
        503, "This server holds as many feed connections as it can; retry later."
    ),
    "server_error": Code(500, "An unexpected error on the server (never caused by bad input)."),
    "database_unavailable": Code(
        503,
        "The database cannot be reached right now (a restart, a failover); retry, same key "
        "(`Retry-After`).",
    ),
    # Answered by the HTTP server itself (fbservice.server), before any view.
    **{code: Code(status, message) for code, (status, message, _) in REFUSALS.items()},
}


def _game_codes() -> dict[str, Code]:
    """Every registered game's codes with the status the game gives each (a code two
    games share must mean the same: the first game's text documents it)."""
    found: dict[str, Code] = {}
    for game in GAMES.values():
        for code, text in game.error_codes.items():
            found.setdefault(code, Code(game.http_status(code), text))
    return found


# The one registry: every code the API can answer with, its status and its message.
ERRORS: dict[str, Code] = {**_game_codes(), **SERVICE, **API, **WEBHOOKS, **RATINGS, **TOURNAMENTS}

API_CODES: dict[str, str] = {code: c.message for code, c in API.items()}
RULE_CODES: dict[str, str] = {code: c.message for code, c in _game_codes().items()}
STATUS: dict[str, int] = {code: c.status for code, c in ERRORS.items()}
ALL_CODES: dict[str, str] = {code: c.message for code, c in ERRORS.items()}
ALL_CODES_CHOICES = sorted(ALL_CODES)


def code_table() -> str:
    """docs/api.md's table of codes, by status then code (``python manage.py error_table``)."""
    lines = ["| code | status | meaning |", "| --- | --- | --- |"]
    for code, c in sorted(ERRORS.items(), key=lambda item: (item[1].status, item[0])):
        lines.append(f"| `{code}` | {c.status} | {c.message} |")
    return "\n".join(lines)


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
        return (
            "rate_limited",
            API_CODES["rate_limited"],
            {"retry_after": getattr(exc, "wait", None)},
        )
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
        if "retry_after" in exc.extra:  # as DRF's own throttles say it
            response["Retry-After"] = str(exc.extra["retry_after"])
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def assert_codes_have_statuses() -> None:
    """The API's and the service's codes each have an explicit status (checked by the
    tests); an engine code without one is a rule violation, 422."""
    missing = sorted((set(API) | set(SERVICE) | set(WEBHOOKS) | set(TOURNAMENTS)) - set(STATUS))
    if missing:
        raise AssertionError(f"codes without an HTTP status: {missing}")
