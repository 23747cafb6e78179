"""Tournaments over HTTP (docs/tournaments.md): create (directors), register and withdraw,
start a round, read one (rounds, tables, standings and their history, its log), a
player's own pairings, and the export bundle ``python -m tournaments.verify`` checks.
Thin: each view parses, calls one function of ``tournaments.services`` or
``tournaments.reads``, and serialises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView
from api.serializers import Serializer, StrictCharField, StrictIntegerField, StrictSerializer
from games.registry import game_names
from tournaments import formats, reads, services

F = TypeVar("F", bound=Callable[..., Any])

TOURNAMENT_ID = OpenApiParameter(
    "tournament_id",
    type={"type": "string", "format": "uuid"},
    location=OpenApiParameter.PATH,
    description="The tournament's UUID.",
)

FLAG_NUMBER = OpenApiParameter(
    "flag",
    type={"type": "integer", "minimum": 1, "maximum": 2_147_483_647},
    location=OpenApiParameter.PATH,
    description="The flag's number in the tournament, from 1.",
)


class TournamentCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=120)
    game = serializers.ChoiceField(choices=list(game_names()))
    format = serializers.ChoiceField(choices=list(formats.FORMATS), default=formats.SWISS)
    rounds = StrictIntegerField(min_value=1, max_value=services.MAX_ROUNDS, default=3)
    table_min = StrictIntegerField(min_value=1, max_value=20, required=False)
    table_max = StrictIntegerField(min_value=1, max_value=20, required=False)
    options = serializers.DictField(required=False, help_text="The games' table options.")
    turn_seconds = StrictIntegerField(min_value=0, max_value=600, default=0)
    turn_action = serializers.CharField(required=False, max_length=20)
    abandon_after = StrictIntegerField(min_value=0, max_value=20, required=False)
    round_minutes = StrictIntegerField(
        min_value=1, max_value=7 * 24 * 60, default=services.DEFAULT_ROUND_MINUTES
    )
    auto = serializers.BooleanField(
        default=True, help_text="Seat and start each next round when the last one ends."
    )


class TournamentEntrySerializer(StrictSerializer):
    bot = serializers.CharField(
        required=False, max_length=20, help_text="Directors: register a bot entrant of this kind."
    )
    name = StrictCharField(required=False, max_length=60)


class TournamentWithdrawSerializer(StrictSerializer):
    entrant = StrictIntegerField(
        min_value=1, max_value=100_000, required=False, help_text="Directors: whom."
    )


class FlagCreateSerializer(StrictSerializer):
    table = serializers.UUIDField(help_text="The game (its table's id) to put in the queue.")
    reason = StrictCharField(
        max_length=services.MAX_FLAG_TEXT,
        help_text="Why it needs a look. Part of the tournament's record: everyone sees it.",
    )


class FlagCloseSerializer(StrictSerializer):
    note = StrictCharField(max_length=services.MAX_FLAG_TEXT, help_text="What was found.")


class FlagSerializer(Serializer):
    flag = serializers.IntegerField()
    table = serializers.UUIDField()
    entrant = serializers.IntegerField(allow_null=True, help_text="Null: a director's flag.")
    reason = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "closed"])
    closed_by = serializers.ChoiceField(
        choices=["director", "ruling"], allow_null=True, help_text="Null while open."
    )
    note = serializers.CharField(help_text="The director's, when closed by one.")
    ruling = serializers.IntegerField(allow_null=True, help_text="The ruling that closed it.")


class QueueItemSerializer(Serializer):
    round = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The table's number in its round, from 1.")
    table = serializers.UUIDField()
    why = serializers.ListField(
        child=serializers.DictField(),
        help_text="Each with `kind`: `flagged` (flag, by, reason), `ruling_pending` "
        "(ruling, decision: award or void), `abandoned` (seats, names), `timeouts` (moves), `unfinished`.",
    )


class QueueSerializer(Serializer):
    tournament = serializers.UUIDField()
    items = QueueItemSerializer(many=True)
    flags = FlagSerializer(many=True)


class TournamentStandingSerializer(Serializer):
    rank = serializers.IntegerField()
    entrant = serializers.IntegerField()
    name = serializers.CharField(required=False)
    points = serializers.CharField(help_text="Exact, as a fraction: `5/2`.")
    buchholz = serializers.CharField()
    head_to_head = serializers.IntegerField()
    draw = serializers.IntegerField(help_text="The seed's draw: the last tie-break.")
    games = serializers.IntegerField()
    byes = serializers.IntegerField()


class TournamentSerializer(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["registering", "round_running", "between_rounds", "finished"]
    )
    format = serializers.ChoiceField(choices=list(formats.FORMATS))
    rounds_planned = serializers.IntegerField()
    table_min = serializers.IntegerField()
    table_max = serializers.IntegerField()
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Revealed once finished.")
    entrants = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
    standings = TournamentStandingSerializer(many=True)
    history = serializers.ListField(child=serializers.DictField())
    log = serializers.ListField(child=serializers.DictField())
    version = serializers.IntegerField()


class TournamentPairingsSerializer(Serializer):
    tournament = serializers.UUIDField()
    entrants = serializers.ListField(child=serializers.IntegerField())
    pairings = serializers.ListField(child=serializers.DictField())
    flags = FlagSerializer(many=True, help_text="Your own flags.")


class TournamentBundleSerializer(Serializer):
    format = serializers.CharField()
    tournament = serializers.UUIDField()
    log = serializers.ListField(child=serializers.DictField())
    seed = serializers.CharField(allow_null=True)
    games = serializers.DictField()
    seatings = serializers.ListField(child=serializers.DictField())
    standings = TournamentStandingSerializer(many=True)
    history = serializers.ListField(child=serializers.DictField())


class TournamentWriteView(ApiView):
    command_methods = frozenset({"POST"})


def valid(serializer: type[Serializer], request: Request) -> dict[str, Any]:
    """The request's body checked by ``serializer`` (400 ``invalid`` naming the fields)."""
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    return cast(dict[str, Any], body.validated_data)


def document(
    request: Request, tournament_id: str, code_status: int = status.HTTP_200_OK
) -> Response:
    """The tournament as the caller now sees it: what every change answers with."""
    return Response(reads.tournament_document(tournament_id, request.user), status=code_status)


def tournament_schema(**kwargs: Any) -> Callable[[F], F]:
    return extend_schema(tags=["tournaments"], **kwargs)


class TournamentSummarySerializer(Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["registering", "round_running", "between_rounds", "finished"]
    )
    format = serializers.ChoiceField(choices=list(formats.FORMATS))
    rounds_planned = serializers.IntegerField()
    rounds_started = serializers.IntegerField()
    entrants = serializers.IntegerField(help_text="Entered and not withdrawn.")
    created_at = serializers.DateTimeField()
    entered = serializers.BooleanField(help_text="You are entered (and not withdrawn).")
    may_enter = serializers.BooleanField(help_text="You may register now.")


class TournamentListView(TournamentWriteView):
    @tournament_schema(
        summary="The newest tournaments (50): where each stands, and whether you may enter",
        responses={200: TournamentSummarySerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(reads.tournament_list(request.user))

    @tournament_schema(
        summary="Create a tournament (directors: staff)",
        description="Its settings are checked once, here (`400 bad_tournament` naming the "
        "field); every round's tables are ranked tables made with them.",
        request=TournamentCreateSerializer,
        responses={201: TournamentSerializer},
    )
    def post(self, request: Request) -> Response:
        body = valid(TournamentCreateSerializer, request)
        created = services.tournament_create(user=cast(User, request.user), **body)
        return document(request, str(created.id), status.HTTP_201_CREATED)


class TournamentView(ApiView):
    @tournament_schema(
        summary="A tournament: rounds, tables, standings and their history, its log",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentSerializer},
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        return document(request, tournament_id)


class RegisterView(TournamentWriteView):
    @tournament_schema(
        summary="Register yourself (or, a director, a bot entrant)",
        description="A late entry (Swiss) plays from the next round.",
        parameters=[TOURNAMENT_ID],
        request=TournamentEntrySerializer,
        responses={201: TournamentSerializer},
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        body = valid(TournamentEntrySerializer, request)
        services.register(
            tournament_id=tournament_id,
            user=cast(User, request.user),
            bot=body.get("bot"),
            name=body.get("name", ""),
        )
        return document(request, tournament_id, status.HTTP_201_CREATED)


class WithdrawView(TournamentWriteView):
    @tournament_schema(
        summary="Withdraw from the next round on (yourself; a director: any entrant)",
        parameters=[TOURNAMENT_ID],
        request=TournamentWithdrawSerializer,
        responses={200: TournamentSerializer},
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        body = valid(TournamentWithdrawSerializer, request)
        services.withdraw(
            tournament_id=tournament_id, user=cast(User, request.user), entrant=body.get("entrant")
        )
        return document(request, tournament_id)


class RoundStartView(TournamentWriteView):
    takes_body = False

    @tournament_schema(
        summary="Seat and start the next round (directors)",
        description="No body. `409 round_running` while a round runs; later rounds start "
        "by themselves when the tournament's `auto` is on.",
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={201: TournamentSerializer},
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        services.round_start(tournament_id=tournament_id, user=cast(User, request.user))
        return document(request, tournament_id, status.HTTP_201_CREATED)


class FlagsView(TournamentWriteView):
    @tournament_schema(
        summary="Flag one of your games for the directors' review, saying why",
        description="An entrant seated at the game (or a director). Open until a director "
        "closes it with a note, or a deciding ruling on the game is taken in.",
        parameters=[TOURNAMENT_ID],
        request=FlagCreateSerializer,
        responses={201: FlagSerializer},
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        body = valid(FlagCreateSerializer, request)
        number = services.flag(
            tournament_id=tournament_id,
            user=cast(User, request.user),
            table=str(body["table"]),
            reason=body["reason"],
        )
        return Response(reads.flag_document(tournament_id, number), status=status.HTTP_201_CREATED)


class FlagCloseView(TournamentWriteView):
    @tournament_schema(
        summary="Close a flag with what was found (directors)",
        parameters=[TOURNAMENT_ID, FLAG_NUMBER],
        request=FlagCloseSerializer,
        responses={200: FlagSerializer},
    )
    def post(self, request: Request, tournament_id: str, flag: int) -> Response:
        body = valid(FlagCloseSerializer, request)
        services.flag_close(
            tournament_id=tournament_id, user=cast(User, request.user), flag=flag, note=body["note"]
        )
        return Response(reads.flag_document(tournament_id, flag))


class QueueView(ApiView):
    @tournament_schema(
        summary="The review queue: the games that need a look, and why (directors)",
        parameters=[TOURNAMENT_ID],
        responses={200: QueueSerializer},
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        services.director(request.user)
        return Response(reads.review_queue(tournament_id))


class PairingsView(ApiView):
    @tournament_schema(
        summary="Your own pairings: each round's table and seat (or bye) and result",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentPairingsSerializer},
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        return Response(reads.pairings_document(tournament_id, cast(User, request.user)))


class ExportView(ApiView):
    @tournament_schema(
        summary="The tournament's bundle for `python -m tournaments.verify`",
        description="Its log (the seed revealed once it is finished), every finished game's "
        "record as `GET /games/{id}/export` gives it, the seatings, standings and history.",
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentBundleSerializer},
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        return Response(reads.export_bundle(tournament_id))
