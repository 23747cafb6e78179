"""The OpenAPI shapes of a replay's marks (``GET /games/{id}/marks``): generic over games,
since every game declares its turns and moments the same way (``games.core.ReviewMarks``)."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers import Serializer


class MomentKindSerializer(Serializer):
    kind = serializers.CharField(help_text="The game's name for it in `moments[].kind`.")
    name = serializers.CharField(help_text="What a reviewer reads: `Mob War`, `auction won`.")

    class Meta:
        ref_name = "MomentKind"


class TurnMarkSerializer(Serializer):
    seq = serializers.IntegerField(help_text="The event that starts the turn.")
    number = serializers.IntegerField(help_text="The game's own count, from 1, increasing.")
    label = serializers.CharField(  # type: ignore[assignment]  # the JSON's key, not Field.label
        help_text="What a reviewer reads: `Turn 4: Ann`."
    )

    class Meta:
        ref_name = "TurnMark"


class MomentSerializer(Serializer):
    seq = serializers.IntegerField(help_text="The event it happens at.")
    kind = serializers.CharField(help_text="One of `kinds[].kind`.")
    label = serializers.CharField(  # type: ignore[assignment]  # the JSON's key, not Field.label
        help_text="What a reviewer reads: `Round 3: Ann wins the Fixer auction`."
    )
    turn = serializers.IntegerField(
        allow_null=True, help_text="The number of the turn it falls in (null before the first)."
    )

    class Meta:
        ref_name = "Moment"


class MarksSerializer(Serializer):
    game_id = serializers.UUIDField()
    game = serializers.CharField(help_text="The table's game (the registry's name).")
    version = serializers.IntegerField(
        help_text="The last event the marks cover: the latest you may see (a spectator of a "
        "table with `spectator_delay` sees the game that many events late)."
    )
    turn_name = serializers.CharField(help_text="What the game calls a turn: `turn`, `round`.")
    kinds = MomentKindSerializer(many=True, help_text="The game's kinds of moments, in order.")
    turns = TurnMarkSerializer(many=True)
    moments = MomentSerializer(many=True)

    class Meta:
        ref_name = "ReplayMarks"
