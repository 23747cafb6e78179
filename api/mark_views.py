"""A replay's marks over HTTP: the game's turns and notable moments (``games.marks``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView
from api.mark_serializers import MarksSerializer
from games.marks import marks_document
from games.reads import access_for, parse_game_id


class MarksView(ApiView):
    @extend_schema(
        tags=["history"],
        summary="Where the game's turns start and its notable moments happen",
        description="What a replay steps and jumps by, declared by each game: its turns "
        "(a player's turn, a round: `turn_name` says which) and its moments (an "
        "attack, an auction won, a round's end), each at an event `seq` to open with "
        "`/replay?at=`, with a label to read. Computed from the events as you may see them: "
        "before the end they name nothing hidden from you; once the game is over, everything.",
        parameters=[schema.game_id_parameter()],
        responses={200: MarksSerializer},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = access_for(parse_game_id(game_id), request.user)
        return Response(marks_document(access))
