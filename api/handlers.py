"""Django's own error answers (``handler400``, ``handler404``, ``handler500``) in the API's
envelope for API paths (``/api/``, ``/healthz``): what Django answers before or outside DRF,
such as a ``Host`` not in ``ALLOWED_HOSTS`` or an unknown API version. Other paths (the
pages, the admin) keep Django's plain pages.

What never reaches Django is answered by the HTTP server, in the same envelope: an oversized
request line or header (414, 431) or a head it cannot parse (400; fbservice/server.py)."""

from __future__ import annotations

from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from api.errors import API_CODES, envelope

API_PREFIXES = ("/api/", "/healthz")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIXES)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not _is_api(request):
        return defaults.bad_request(request, exception)  # type: ignore[arg-type]
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse(envelope("body_too_large", API_CODES["body_too_large"]), status=413)
    if isinstance(exception, DisallowedHost):
        message = "The Host header names no site this server answers for."
    else:
        message = str(exception) if exception is not None else API_CODES["bad_request"]
    return JsonResponse(envelope("bad_request", message[:300]), status=400)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse(envelope("not_found", "No such route."), status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse(envelope("server_error", API_CODES["server_error"]), status=500)
