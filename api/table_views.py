"""The lobby over HTTP: create, list, show, join, leave, add bots, start."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView
from api.errors import ApiError
from api.serializers import (
    AddBotSerializer,
    JoinSerializer,
    TableCreateSerializer,
    TableListQuerySerializer,
)
from games import lobby, reads
from games.models import Table
from games.positions import POSITION
from games.reads import Access, access_for, parse_game_id

TABLE_ID = schema.table_id_parameter()


def _user(request: Request) -> User:
    """The signed-in caller (every route here needs one: ``IsAuthenticated``)."""
    return cast(User, request.user)


def _table(request: Request, table_id: str) -> Access:
    return access_for(parse_game_id(table_id), request.user)


def _fresh(access: Access, request: Request) -> dict[str, Any]:
    return reads.table_detail_document(access.table.id, request.user)


class TableListView(ApiView):
    @extend_schema(
        tags=["tables"],
        summary="Open tables, or your own",
        description="Open tables, newest first; with `mine=true`, the tables you sit at or "
        "created, in any status.",
        parameters=[TableListQuerySerializer],
        responses={200: schema.TableListSerializer},
    )
    def get(self, request: Request) -> Response:
        query = TableListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        if not params["mine"] and params.get("status", Table.Status.OPEN) != Table.Status.OPEN:
            raise ApiError(
                "invalid",
                "Only open tables are listed for everyone; add mine=true for your own.",
                fields={"status": ["Use mine=true for tables that are not open."]},
            )
        return Response(
            reads.tables_document(
                request.user,
                mine=params["mine"],
                status=params.get("status"),
                limit=params["limit"],
            )
        )

    @extend_schema(
        tags=["tables"],
        summary="Create a table (and take a seat at it unless join is false)",
        description="You take a seat unless `join` is false. Sandbox tables (a given "
        "`seed`, a `stacked_deck`) are for staff only; undo is for casual tables.",
        request=TableCreateSerializer,
        examples=schema.TABLE_EXAMPLES,
        responses={201: schema.TableSerializer},
    )
    def post(self, request: Request) -> Response:
        body = TableCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        if data["mode"] == Table.Mode.SANDBOX and not request.user.is_staff:
            # anyone may practise a position (unranked, their own cards: nothing hidden from
            # them is theirs to learn); a given seed or stacked deck stays staff only
            options = data.get("options") or {}
            if "seed" in data or set(options) != {POSITION}:
                raise ApiError(
                    "forbidden",
                    "Sandbox tables are for staff only, but for one started from a position "
                    "(options: {position} and nothing else).",
                )
        join = data.pop("join")
        position = data.pop("position", None)
        with transaction.atomic():
            table = lobby.table_create(created_by=_user(request), **data)
            if join:
                lobby.seat_join(table_id=table.id, user=_user(request), position=position)
        return Response(
            reads.table_detail_document(table.id, request.user),
            status=status.HTTP_201_CREATED,
        )


class TableDetailView(ApiView):
    @extend_schema(
        tags=["tables"],
        summary="A table and its seats",
        description="Any signed-in user may read any table; never its seed.",
        parameters=[TABLE_ID],
        responses={200: schema.TableSerializer},
    )
    def get(self, request: Request, table_id: str) -> Response:
        access = _table(request, table_id)
        return Response(reads.table_detail_document(access.table.id, request.user))


class TableJoinView(ApiView):
    @extend_schema(
        tags=["tables"],
        summary="Take a seat (the first free one, or `position`)",
        description="Optionally with a display `name`. Only while the table is open.",
        parameters=[TABLE_ID],
        request=JoinSerializer,
        examples=[schema.JOIN_EXAMPLE],
        responses={201: schema.TableSerializer},
    )
    def post(self, request: Request, table_id: str) -> Response:
        access = _table(request, table_id)
        body = JoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        lobby.seat_join(
            table_id=access.table.id,
            user=_user(request),
            position=body.validated_data.get("position"),
            name=body.validated_data.get("name", ""),
        )
        return Response(_fresh(access, request), status=status.HTTP_201_CREATED)


class TableLeaveView(ApiView):
    takes_body = False

    @extend_schema(
        tags=["tables"],
        summary="Give up your seat before the game starts",
        description="No body. Only while the table is open.",
        parameters=[TABLE_ID],
        request=None,
        responses={200: schema.TableSerializer},
    )
    def post(self, request: Request, table_id: str) -> Response:
        access = _table(request, table_id)
        lobby.seat_leave(table_id=access.table.id, user=_user(request))
        return Response(_fresh(access, request))


class TableBotView(ApiView):
    @extend_schema(
        tags=["tables"],
        summary="Seat a bot (the table's creator or staff)",
        description="A `heuristic` or `random` bot in the first free seat, or `position`.",
        parameters=[TABLE_ID],
        request=AddBotSerializer,
        examples=[schema.BOT_EXAMPLE],
        responses={201: schema.TableSerializer},
    )
    def post(self, request: Request, table_id: str) -> Response:
        access = _table(request, table_id)
        if not (access.staff or access.table.created_by_id == request.user.pk):
            raise ApiError("forbidden", "Only the table's creator may seat bots.")
        body = AddBotSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        lobby.seat_add_bot(
            table_id=access.table.id,
            bot=body.validated_data["kind"],
            position=body.validated_data.get("position"),
        )
        return Response(_fresh(access, request), status=status.HTTP_201_CREATED)


class TableStartView(ApiView):
    takes_body = False

    @extend_schema(
        tags=["tables"],
        summary="Deal and start (the creator, any seated player, or staff)",
        description="No body. Every seat must be filled. Answers your view of the new "
        "game (as GET /games/{id}).",
        parameters=[TABLE_ID],
        request=None,
        responses={200: schema.GameDocumentSerializer},
    )
    def post(self, request: Request, table_id: str) -> Response:
        access = _table(request, table_id)
        allowed = (
            access.staff or access.seat is not None or access.table.created_by_id == request.user.pk
        )
        if not allowed:
            raise ApiError("forbidden", "Only the creator or a seated player may start the table.")
        lobby.table_start(table_id=access.table.id, actor=f"user:{request.user.pk}")
        return Response(reads.started_document(access.table.id, request.user))
