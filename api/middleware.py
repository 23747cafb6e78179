"""A lost database connection outside DRF's views (web pages, the admin) is a 503, not a
500 with a traceback: the same answer ``api.errors`` gives inside the API."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from api.errors import API_CODES, DATABASE_RETRY_AFTER, envelope

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    """Turns django.db OperationalError / InterfaceError raised by a view into a 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable: %s", str(exc).strip().splitlines()[:1])
        message = API_CODES["database_unavailable"]
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                envelope("database_unavailable", message), status=503
            )
        else:
            response = HttpResponse(message, status=503, content_type="text/plain")
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
