"""Middleware of our own, each usable in a synchronous and an asynchronous chain (so the
feed's async views run under ASGI without a thread per request; see fbservice/asgi.py).

- ``DatabaseUnavailableMiddleware``: a lost database connection outside DRF's views (web
  pages, the admin) is a 503, not a 500 with a traceback: the same answer ``api.errors``
  gives inside the API.
- ``StaticFilesMiddleware``: WhiteNoise, which is synchronous only.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware

from api.errors import API_CODES, DATABASE_RETRY_AFTER, envelope

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Turns django.db OperationalError / InterfaceError raised by a view into a 503."""

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


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise (static files served by the web process itself) in a chain of either
    kind. WhiteNoise is synchronous only, and one synchronous middleware makes Django run
    an async view inside a thread for its whole life; here a request that is not for a
    static file goes straight on to the async chain."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.async_mode:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        found = (
            self.find_file(request.path_info)
            if self.autorefresh
            else self.files.get(request.path_info)
        )
        if found is not None:
            return self.serve(found, request)
        return await self.get_response(request)
