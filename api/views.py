from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularAPIView
from rest_framework import exceptions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import health
from api.errors import ApiError
from games.registry import GAMES

# What anyone may see of a probe; staff also see where the broker is and why a probe failed.
PUBLIC_PROBE_FIELDS = (
    "ok", "vendor", "ms", "overdue", "oldest_overdue_seconds", "tolerance_seconds",
)  # fmt: skip
# Of the webhook relay, only whether it is well: where it runs and its backlog are staff's.
PUBLIC_RELAY_FIELDS = ("ok",)


class HealthView(APIView):
    """GET /healthz: 200 when the database and the broker answer, 503 otherwise. The
    broker's address, the probes' error texts and the webhook relay's figures are for staff
    only (a session or token)."""

    permission_classes = (AllowAny,)

    def perform_authentication(self, request: Request) -> None:
        # A load balancer's probe sends no credentials; a bad or stale one is anonymous
        # here rather than a 401, so the probe never fails because of it.
        try:
            request.user  # noqa: B018 - authenticates
        except exceptions.AuthenticationFailed:
            request.user = AnonymousUser()

    @extend_schema(
        tags=["health"],
        summary="Database and broker health",
        description="200 `ok` when the database and the broker answer, 503 `degraded` "
        "otherwise (for load balancers and monitoring). `clock` reports deadlines (reaction "
        "windows, turn limits, bot moves) more than `tolerance_seconds` past due: how many "
        "games have one (`overdue`) and how late the oldest is; it never makes the status "
        "degraded. `webhook_relay` says whether a webhook relay runs and is caught up (`ok`; "
        "staff also see `running`, the session holding the relay's lock, how many games it "
        "has not relayed yet and how long the oldest has waited, and the deliveries waiting "
        "to be sent); it never makes the status degraded either.",
        auth=[],
        responses={
            (code, "application/json"): inline_serializer(
                f"Health{code}",
                fields={
                    "status": serializers.ChoiceField(choices=["ok", "degraded"]),
                    "database": serializers.DictField(),
                    "broker": serializers.DictField(),
                    "clock": serializers.DictField(),
                    "webhook_relay": serializers.DictField(),
                },
            )
            for code in (200, 503)
        },
    )
    def get(self, request: Request) -> Response:
        database = health.check_database()
        broker = health.check_broker()
        clock = health.check_clock() if database["ok"] else {"ok": False}
        relay = health.check_relay() if database["ok"] else {"ok": False}
        ok = database["ok"] and broker["ok"]
        if not request.user.is_staff:
            database, broker, clock = _public(database), _public(broker), _public(clock)
            relay = _public(relay, PUBLIC_RELAY_FIELDS)
        return Response(
            {
                "status": "ok" if ok else "degraded",
                "database": database,
                "broker": broker,
                "clock": clock,
                "webhook_relay": relay,
            },
            status=status.HTTP_200_OK if ok else status.HTTP_503_SERVICE_UNAVAILABLE,
        )


def _public(probe: dict[str, Any], fields: tuple[str, ...] = PUBLIC_PROBE_FIELDS) -> dict[str, Any]:
    return {k: v for k, v in probe.items() if k in fields}


class NotFoundView(APIView):
    """Any unknown path under /api/v1/: a 404 in the error envelope."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    schema = None  # not part of the API

    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        raise NotFound("No such route.")

    post = put = patch = delete = get


class SchemaView(SpectacularAPIView):
    """The OpenAPI document: every game's, or one game's alone with ``?game=<name>``
    (docs/api.md, "Typed per game"); an unknown game is refused (400 invalid)."""

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = request.query_params.get("game")
        if game is not None and game not in GAMES:
            raise ApiError(
                "invalid",
                f"Unknown game {game!r}; known: {', '.join(GAMES)}.",
                fields={"game": [f"One of: {', '.join(GAMES)}."]},
            )
        response: Response = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
        return response
