"""Your standing reactions at a game: read them, change them (docs/api.md, "Standing
reactions"; the rule that keeps hands hidden is in docs/rules.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api import schema
from api.base import ApiView
from api.serializers import (
    MAX_VERSION,
    Serializer,
    StrictBooleanField,
    StrictIntegerField,
    StrictSerializer,
)
from games import standing
from games.models import Table
from games.reads import Access, access_for, iso, parse_game_id
from games.service import clock_ms, game_load

# Counter kind -> the attack kinds it answers, of every game with standing reactions (the
# form's choices; the table's game checks a declaration against its own).
ANSWERS = standing.every_counter_answer()
ATTACKS = sorted({a for attacks in ANSWERS.values() for a in attacks})


class NestedStrict(Serializer):
    """Unknown fields refused in a nested object too (StrictSerializer reads initial_data,
    which only the outer serializer has)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)


class DeclaredCounterSerializer(serializers.Serializer[Any]):
    counter = serializers.ChoiceField(choices=sorted(ANSWERS), help_text="A counter kind.")
    against = serializers.ListField(
        child=serializers.ChoiceField(choices=ATTACKS),
        max_length=len(ATTACKS),
        required=False,
        default=list,
        help_text="The attack kinds it answers (empty: every card the counter answers).",
    )
    mine_only = StrictBooleanField(
        required=False,
        default=True,
        help_text="Only when the card names one of your own mobsters.",
    )


# Exactly one of the two: said in the schema itself, so a schema-valid body is accepted.
PASS_ALL_SCHEMA = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "seconds": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": standing.MAX_PASS_SECONDS,
                    "description": "Pass on everything for this many seconds from now.",
                }
            },
            "required": ["seconds"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "end_of_turn": {
                    "const": True,
                    "description": "Pass on everything until the current turn ends.",
                }
            },
            "required": ["end_of_turn"],
            "additionalProperties": False,
        },
    ],  # (and null: the field allows it)
    "description": "null: stop passing on everything.",
}


@extend_schema_field(PASS_ALL_SCHEMA)
class PassAllSerializer(NestedStrict):
    seconds = StrictIntegerField(
        min_value=1,
        max_value=standing.MAX_PASS_SECONDS,
        required=False,
        help_text="Pass on everything for this many seconds from now.",
    )
    end_of_turn = StrictBooleanField(
        required=False, help_text="Pass on everything until the current turn ends."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("seconds" in attrs) == bool(attrs.get("end_of_turn")):
            raise serializers.ValidationError(
                {"non_field_errors": ["Give either seconds or end_of_turn: true."]}
            )
        return attrs


class StandingChangeSerializer(StrictSerializer):
    auto_pass = StrictBooleanField(
        required=False, help_text="Pass automatically when you hold no counter that applies."
    )
    pass_all = PassAllSerializer(
        required=False, allow_null=True, help_text="null: stop passing on everything."
    )
    counters = serializers.ListField(  # a ListField: its max_length is in the schema
        child=DeclaredCounterSerializer(),
        required=False,
        max_length=standing.MAX_COUNTERS,
        help_text="Declared counters, tried in this order; [] clears them.",
    )
    expected_version = StrictIntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        help_text="Refuse the change (409 stale_version) unless this is the current version.",
    )


class PassAllStateSerializer(Serializer):
    active = serializers.BooleanField()
    until = serializers.DateTimeField(allow_null=True)
    until_ms = serializers.IntegerField(allow_null=True, help_text="Server time, ms.")
    turn = serializers.IntegerField(allow_null=True, help_text="Until this turn ends.")


class StandingSerializer(Serializer):
    game_id = serializers.UUIDField()
    seat = serializers.IntegerField()
    version = serializers.IntegerField(help_text="0 until you change anything (the defaults).")
    auto_pass = serializers.BooleanField()
    pass_all = PassAllStateSerializer()
    counters = DeclaredCounterSerializer(many=True)
    window_pass = schema.WindowPassSerializer(allow_null=True, help_text=schema.SEALED_ANSWER_HELP)
    answers = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Each counter kind and the attack kinds it answers.",
    )
    server_time = serializers.IntegerField()


def _document(access: Access, seat: int, prefs: standing.Preferences) -> dict[str, Any]:
    now = clock_ms()
    table = access.table
    rules = standing.rules_of(table)  # 409 no_standing_reactions, not_started
    turn = window = None
    if table.status == Table.Status.STARTED:
        state = game_load(game_id=table.id, table=table).state
        turn = rules.current_turn(state)
        window = standing.open_window(table, state)
    until = prefs.pass_until_ms
    by_time = until is not None and now < until
    by_turn = prefs.pass_turn is not None and prefs.pass_turn == turn
    return {
        "game_id": str(table.id),
        "seat": seat,
        "version": prefs.version,
        "auto_pass": prefs.auto_pass,
        "pass_all": {
            "active": by_time or by_turn,
            "until": iso_ms(until) if until is not None else None,
            "until_ms": until,
            "turn": prefs.pass_turn,
        },
        "counters": prefs.counters,
        "window_pass": standing.standing_pass_of(table.id, seat, window) if window else None,
        "answers": {k: list(v) for k, v in standing.counter_answers(table.game).items()},
        "server_time": now,
    }


def iso_ms(ms: int) -> str:
    return iso(datetime.fromtimestamp(ms / 1000, tz=UTC))


class StandingView(ApiView):
    command_methods = frozenset({"PATCH"})  # a change is a new row; a read is a read

    @extend_schema(
        tags=["games"],
        summary="Your standing reactions at this game",
        description="What the server answers for your seat when a reaction window opens: "
        "pass when you hold no counter that applies (on by default), pass on everything "
        "for a while, declared counters. Only your own seat's (docs/rules.md). Only games "
        "with reaction windows answered out of turn have them (409 `no_standing_reactions` "
        "at another game's table), once the table has started (409 `not_started`).",
        parameters=[schema.game_id_parameter()],
        responses={200: StandingSerializer, **schema.errors(403, 404, 409)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        access = access_for(parse_game_id(game_id), request.user)
        seat = access.require_seat()
        standing.rules_of(access.table)  # before any read: 409 if there is nothing to read
        prefs = standing.standing_get(game_id=access.table.id, seat=seat)
        return Response(_document(access, seat, prefs))

    @extend_schema(
        tags=["games"],
        summary="Change your standing reactions",
        description="Fields you leave out keep their value. A change made while a window "
        "is open applies to it at once. Each change is a new version (the old ones are "
        "kept): 409 `stale_version` if `expected_version` is not the current one. 409 "
        "`no_standing_reactions` at a game without reaction windows, `not_started` before "
        "the table starts, `game_over` after the end.",
        parameters=[schema.game_id_parameter()],
        request=StandingChangeSerializer,
        responses={200: StandingSerializer, **schema.errors(400, 403, 404, 409, 422)},
    )
    def patch(self, request: Request, game_id: str) -> Response:
        access = access_for(parse_game_id(game_id), request.user)
        seat = access.require_seat()
        standing.rules_of(access.table)  # (before the body: the route has nothing here)
        body = StandingChangeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        changes = dict(body.validated_data)
        expected = changes.pop("expected_version", None)
        with transaction.atomic():
            prefs = standing.standing_set(
                table=access.table,
                seat=seat,
                actor=f"user:{request.user.pk}",
                changes=changes,
                expected_version=expected,
            )
        return Response(_document(access, seat, prefs))
