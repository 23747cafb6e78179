from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import health


class HealthView(APIView):
    """GET /healthz: 200 when the database and the broker answer, 503 otherwise."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get(self, request: Request) -> Response:
        database = health.check_database()
        broker = health.check_broker()
        ok = database["ok"] and broker["ok"]
        return Response(
            {"status": "ok" if ok else "degraded", "database": database, "broker": broker},
            status=status.HTTP_200_OK if ok else status.HTTP_503_SERVICE_UNAVAILABLE,
        )
