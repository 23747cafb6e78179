"""Benchmark-only endpoints, routed only when ``FB_BENCH_ENDPOINTS`` is true (off by
default; see docs/benchmarks.md). ``POST /api/v1/bench/bare`` is the yardstick of
``bench.api_load``: the same DRF stack as a game command (token authentication, the
request-id wrapper, a JSON body) around a single-row INSERT, so a command's rate can be
read as a ratio of it in the same run."""

from __future__ import annotations

from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView

BARE_TABLE = "bench_bare"
CREATE_BARE_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {BARE_TABLE} "  # noqa: S608 - a constant
    "(id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), body text NOT NULL)"
)


class BareView(ApiView):
    @extend_schema(exclude=True)
    def post(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {BARE_TABLE} (body) VALUES (%s) RETURNING id",  # noqa: S608
                [str(dict(request.data).get("note", ""))[:100]],
            )
            row_id = cursor.fetchone()[0]
        return Response({"id": row_id}, status=status.HTTP_201_CREATED)
