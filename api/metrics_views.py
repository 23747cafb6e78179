"""GET /metrics: the feed's figures (``api.feed.metrics``) in Prometheus' text format, for
staff or for a scraper that sends ``Authorization: Bearer <FB_METRICS_TOKEN>``.

They say how busy the service is and how late its feeds run, nothing of any game; still,
nobody else sees them."""

from __future__ import annotations

import hmac
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from api.feed import metrics

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class PlainTextRenderer(JSONRenderer):
    """Lets a client that accepts only ``text/plain`` (as a scraper may) through content
    negotiation; the figures are written by ``get``, a refusal as the usual JSON."""

    media_type = "text/plain"
    format = "txt"


def _scraper(request: Request) -> bool:
    """The request carries the metrics token (compared in constant time)."""
    token = settings.FB_METRICS_TOKEN
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(given, token)


class MetricsView(APIView):
    permission_classes = (AllowAny,)  # decided in ``get``: staff or the scraper's token
    renderer_classes = (JSONRenderer, PlainTextRenderer)

    def perform_authentication(self, request: Request) -> None:
        if not _scraper(request):
            request.user  # noqa: B018 - authenticates (a wrong token is a 401)

    @extend_schema(
        exclude=True,  # an operator's route (Prometheus' text), not the clients' API
        tags=["health"],
        summary="The live feed's figures (Prometheus)",
        description="Where the feed's delivery latency goes, stage by stage, with the event "
        "loop's lag and the pools' queues, added up over the server's processes "
        "(docs/scaling.md, 'Watching the feed'). For staff, or a scraper sending "
        "`Authorization: Bearer <FB_METRICS_TOKEN>`.",
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="The figures"),
            401: OpenApiResponse(description="`not_authenticated`"),
            403: OpenApiResponse(description="`forbidden`: not staff"),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        if not _scraper(request):
            if not request.user or not request.user.is_authenticated:
                raise exceptions.NotAuthenticated()
            if not request.user.is_staff:
                raise exceptions.PermissionDenied("The figures are for staff.")
        figures = metrics.read_all(settings.FB_METRICS_DIR or None)
        return HttpResponse(metrics.prometheus(figures), content_type=CONTENT_TYPE)
