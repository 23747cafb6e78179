from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import health


class HealthView(APIView):
    """GET /healthz: 200 when the database and the broker answer, 503 otherwise."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=["health"],
        summary="Database and broker health",
        description="200 `ok` when the database and the broker answer, 503 `degraded` "
        "otherwise (for load balancers and monitoring).",
        auth=[],
        responses={
            (code, "application/json"): inline_serializer(
                f"Health{code}",
                fields={
                    "status": serializers.ChoiceField(choices=["ok", "degraded"]),
                    "database": serializers.DictField(),
                    "broker": serializers.DictField(),
                },
            )
            for code in (200, 503)
        },
    )
    def get(self, request: Request) -> Response:
        database = health.check_database()
        broker = health.check_broker()
        ok = database["ok"] and broker["ok"]
        return Response(
            {"status": "ok" if ok else "degraded", "database": database, "broker": broker},
            status=status.HTTP_200_OK if ok else status.HTTP_503_SERVICE_UNAVAILABLE,
        )


class NotFoundView(APIView):
    """Any unknown path under /api/v1/: a 404 in the error envelope."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    schema = None  # not part of the API

    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        raise NotFound("No such route.")

    post = put = patch = delete = get
