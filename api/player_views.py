"""Players' profiles over HTTP: ratings, their history and recent games (docs/ratings.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView
from ratings.reads import profile_document

USERNAME = OpenApiParameter(
    "username",
    type=str,
    location=OpenApiParameter.PATH,
    description="The player's username (case as registered).",
)


class PlayerView(ApiView):
    """A player's profile: their ratings (one per game), its history, recent games."""

    @extend_schema(
        tags=["players"],
        summary="A player's profile: ratings, rating history, recent games",
        description="Their rating in each game they were rated in (openskill Weng-Lin: "
        "`mu`, `sigma` and the `display` rating), the latest rating changes and their "
        "recent games (links: `/api/v1/games/{id}`, the page `/games/{id}/replay`). "
        "Ratings follow from finished ranked games (docs/ratings.md). An unknown or "
        "inactive username is 404 `player_not_found`.",
        parameters=[USERNAME],
        responses={200: schema.PlayerSerializer, **schema.errors(404)},
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(profile_document(username))
