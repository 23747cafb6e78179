"""Reviewing a game over HTTP: annotations on positions and tournament directors' rulings.
Each is an append-only record beside the game (``games.reviews``): these routes list and
append; nothing edits or deletes one (other methods answer 405)."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView
from api.serializers import AnnotationCreateSerializer, RulingCreateSerializer
from games import reviews
from games.reads import Access, access_for, parse_game_id

GAME_ID = schema.game_id_parameter()


def _access(request: Request, game_id: str) -> Access:
    return access_for(parse_game_id(game_id), request.user)


class ReviewView(ApiView):
    """Appending is limited like commands (a record, once written, stays forever)."""

    command_methods = frozenset({"POST"})


class AnnotationsView(ReviewView):
    @extend_schema(
        tags=["history"],
        summary="The comments reviewers attached to positions of this game",
        description="In position order. Shown once the game is over (at any time to staff who "
        "do not play in it).",
        parameters=[GAME_ID],
        responses={200: schema.AnnotationListSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        return Response(
            {
                "game_id": str(access.table.id),
                "annotations": reviews.annotations_of(access.table, request.user),
            }
        )

    @extend_schema(
        tags=["history"],
        summary="Attach a comment to a position (the game after event `seq`)",
        description="Staff who do not play in the game, at any time; the game's players "
        "once it is over (staff seated at it before then: `403 seated_at_table`). Appended "
        "with who and when; never edited or deleted.",
        parameters=[GAME_ID],
        request=AnnotationCreateSerializer,
        responses={201: schema.AnnotationSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        body = AnnotationCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        created = reviews.annotation_add(
            table=access.table,
            user=cast(User, request.user),  # signed in: IsAuthenticated
            seat=access.seat,
            seq=body.validated_data["seq"],
            text=body.validated_data["text"],
        )
        return Response(created, status=status.HTTP_201_CREATED)


class RulingsView(ReviewView):
    @extend_schema(
        tags=["history"],
        summary="Tournament directors' rulings on this game",
        description="Notes and decided results (a win awarded, the game voided), oldest "
        "first; the latest deciding ruling is the game's result (`table.result`). Shown "
        "once the game is over (at any time to staff who do not play in it): a note made "
        "during play may discuss hidden cards.",
        parameters=[GAME_ID],
        responses={200: schema.RulingListSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        return Response(
            {
                "game_id": str(access.table.id),
                "rulings": reviews.rulings_of(access.table, request.user),
            }
        )

    @extend_schema(
        tags=["history"],
        summary="Record a ruling (staff who do not play in the game: tournament directors)",
        description="A `note`, or a result decided by the director: `award` (the win to "
        "`winners`) or `void`. A result decided for a running game ends it at once (the "
        "table finishes; later commands answer 409 `game_over`). Appended with who and "
        "why; the game's events are never rewritten. Staff seated at the game are "
        "players there: `403 seated_at_table`.",
        parameters=[GAME_ID],
        request=RulingCreateSerializer,
        responses={201: schema.RulingSerializer},
    )
    def post(self, request: Request, game_id: str) -> Response:
        access = _access(request, game_id)
        body = RulingCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        created = reviews.ruling_record(
            table=access.table,
            user=cast(User, request.user),  # signed in: IsAuthenticated
            kind=data["kind"],
            reason=data["reason"],
            winners=data.get("winners") or [],
            seq=data.get("seq"),
        )
        return Response(created, status=status.HTTP_201_CREATED)
