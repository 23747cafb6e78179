"""OpenAPI documentation: response shapes and the error envelope.

These serializers document what the views return (the views build plain dicts from the
engine's projection); the ``Error`` component's ``code`` is an enum of every code the API
can answer with, and each error response lists the codes that use its status.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers

from api.errors import ALL_CODES, STATUS, status_of

_REASONS = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    409: "Conflict with the game's current state",
    415: "Unsupported media type",
    422: "Refused by the rules",
    429: "Rate limited",
    503: "Busy; retry",
}


def codes_with_status(code_status: int) -> list[str]:
    return sorted(code for code in ALL_CODES if status_of(code) == code_status)


def _code_table() -> str:
    lines = ["| code | status | meaning |", "| --- | --- | --- |"]
    for code in sorted(ALL_CODES, key=lambda c: (status_of(c), c)):
        lines.append(f"| `{code}` | {status_of(code)} | {ALL_CODES[code]} |")
    return "\n".join(lines)


class ErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=sorted(ALL_CODES),
        help_text="Stable machine code; its HTTP status is fixed:\n\n" + _code_table(),
    )
    message = serializers.CharField(help_text="For people; may change.")
    extra = serializers.DictField(
        help_text="Structured data: `fields` (400 invalid), `current_version` "
        "(stale_version), `winning_seq` (window_closed), `retry_after` (rate_limited), "
        "or the engine's data (e.g. `choices`)."
    )

    class Meta:
        ref_name = "Error"


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """Error responses for an operation, each listing the codes that use that status."""
    out: dict[int, OpenApiResponse] = {}
    for code_status in statuses:
        codes = codes_with_status(code_status)
        reason = _REASONS.get(code_status, "Error")
        listed = ", ".join(f"`{c}`" for c in codes)
        out[code_status] = OpenApiResponse(
            ErrorSerializer, description=f"{reason}. Codes: {listed}."
        )
    return out


GAME_ERRORS = (400, 401, 403, 404, 409, 429)


def all_statuses() -> list[int]:
    return sorted(set(STATUS.values()))


# --- shapes ------------------------------------------------------------------------------


class CardSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="c01 ... c56; ability cards a01 ... a10 (advanced).")
    kind = serializers.CharField()
    name = serializers.CharField()
    category = serializers.ChoiceField(choices=["attack", "rescue", "counter", "ability"])
    text = serializers.CharField(required=False, help_text="Ability cards only: their text.")
    reconstructed = serializers.BooleanField(
        required=False, help_text="Ability cards only (true): the text is reconstructed."
    )


class MobsterSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    family = serializers.CharField()
    ability = CardSerializer(
        required=False, help_text="Advanced rules: the ability card under it (public)."
    )


class AbilityHeldSerializer(serializers.Serializer):
    mobster = MobsterSerializer()
    seat = serializers.IntegerField(help_text="The mobster's owner.")
    card = CardSerializer()


class PlayerViewSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    family = inline_serializer(
        "Family", fields={"id": serializers.CharField(), "name": serializers.CharField()}
    )
    crew = MobsterSerializer(many=True, help_text="Mobsters in front of the player.")
    listed = MobsterSerializer(many=True, help_text="The player's mobsters on the Hit List.")
    in_play = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    hand = CardSerializer(
        many=True,
        required=False,
        help_text="Only in your own seat's view, staff's, and everyone's once the game ends.",
    )
    out = serializers.BooleanField()
    resigned = serializers.BooleanField()


class WindowViewSerializer(serializers.Serializer):
    id = serializers.CharField()
    seat = serializers.IntegerField(help_text="Whose card is pending (or who decides).")
    card = CardSerializer(allow_null=True)
    targets = MobsterSerializer(many=True)
    eligible = serializers.ListField(child=serializers.IntegerField())
    passed = serializers.ListField(child=serializers.IntegerField())
    waiting_on = serializers.ListField(child=serializers.IntegerField())
    counters = serializers.ListField(child=serializers.CharField())
    deadline = serializers.IntegerField(help_text="Server time in ms since the epoch.")
    decision = serializers.ChoiceField(
        choices=["draw", "unforgiving", "short_tempered"],
        required=False,
        help_text="Advanced rules: a pending decision of `seat` (not a reaction window).",
    )
    count = serializers.IntegerField(
        required=False, help_text="A `draw` decision: cards still to draw."
    )


class OptionSerializer(serializers.Serializer):
    command = serializers.ChoiceField(
        choices=[
            "play",
            "discard",
            "counter",
            "pass",
            "close_window",
            "resign",
            "draw",
            "use_butcher",
            "unforgiving",
            "end_turn",
        ],
        help_text="draw, use_butcher, unforgiving and end_turn: advanced rules only.",
    )
    card = serializers.CharField(required=False)
    kind = serializers.CharField(required=False)
    window = serializers.CharField(required=False)
    choices = serializers.DictField(
        required=False, help_text="What the command must name; see docs/rules.md."
    )


class GameViewSerializer(serializers.Serializer):
    """The engine's projection of the game for one viewer (``view(state, viewer)``)."""

    rules_version = serializers.IntegerField()
    viewer = serializers.JSONField(help_text='Your seat number, "spectator" or "staff".')
    players = PlayerViewSerializer(many=True)
    turn = serializers.IntegerField()
    turn_seat = serializers.IntegerField()
    awaiting = serializers.ListField(child=serializers.IntegerField())
    hit_list = MobsterSerializer(many=True, help_text="Position 0 is against the wall.")
    graveyard = MobsterSerializer(many=True)
    deck_size = serializers.IntegerField()
    discard = CardSerializer(many=True)
    mob_war = inline_serializer(
        "MobWar", fields={"on": serializers.BooleanField(), "rate": serializers.IntegerField()}
    )
    window = WindowViewSerializer(allow_null=True)
    reaction_seconds = serializers.IntegerField()
    advanced = serializers.BooleanField()
    abilities = AbilityHeldSerializer(
        many=True, required=False, help_text="Advanced tables: which mobster holds which ability."
    )
    seed_hash = serializers.CharField()
    over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.IntegerField())
    deck = CardSerializer(many=True, required=False, help_text="Staff, or after the end.")
    seed = serializers.CharField(required=False, help_text="After the end only.")
    legal = OptionSerializer(
        many=True, required=False, help_text="What your seat may do now (seats only)."
    )
    revealed = serializers.BooleanField(help_text="Every hand and the deck are shown.")

    class Meta:
        ref_name = "GameView"


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    user = serializers.IntegerField(allow_null=True)


class TableSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="The table's id, which is also its game's id.")
    game = serializers.CharField()
    mode = serializers.ChoiceField(choices=["casual", "ranked", "sandbox"])
    status = serializers.ChoiceField(choices=["open", "started", "finished"])
    seats = SeatSerializer(many=True, help_text="The filled seats.")
    size = serializers.IntegerField(help_text="How many seats the table has.")
    reaction_seconds = serializers.IntegerField()
    advanced = serializers.BooleanField(help_text="Advanced rules (ability cards).")
    undo = serializers.ChoiceField(choices=["off", "own_last"])
    spectator_delay = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    turn_action = serializers.ChoiceField(choices=["discard", "bot"])
    created_by = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    your_seat = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The winning seats once the game is over (several: a shared draw); null before.",
    )

    class Meta:
        ref_name = "Table"


class TableListSerializer(serializers.Serializer):
    tables = TableSerializer(many=True)


class GameDocumentSerializer(serializers.Serializer):
    game_id = serializers.UUIDField()
    version = serializers.IntegerField(help_text="The last event's seq you can see.")
    server_time = serializers.IntegerField(help_text="Server clock, ms since the epoch.")
    viewer = serializers.JSONField(help_text='Your seat number, "spectator" or "staff".')
    seat = serializers.IntegerField(allow_null=True, help_text="The seat you hold, if any.")
    delayed_by = serializers.IntegerField(help_text="Events hidden from you (spectator delay).")
    window_remaining_ms = serializers.IntegerField(allow_null=True)
    undo_available = serializers.BooleanField(
        help_text="Your seat may undo now (POST undo would be accepted, unless someone "
        "moves first)."
    )
    turn_deadline = serializers.IntegerField(
        allow_null=True,
        help_text="Tables with turn_seconds: when the running human turn times out "
        "(server time, ms); null otherwise.",
    )
    table = TableSerializer()
    state = GameViewSerializer()

    class Meta:
        ref_name = "Game"


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField(
        help_text="`family_business.<Event>` (docs/rules.md#events) or `stream.Undone`."
    )
    actor = serializers.CharField(help_text="`user:<id>`, `bot:<seat>` or `system`.")
    recorded_at = serializers.DateTimeField()
    data = serializers.DictField(
        help_text="The event redacted for you: hidden cards are `null` with a `count`."
    )

    class Meta:
        ref_name = "Event"


class FeedSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    has_more = serializers.BooleanField(help_text="Ask again with after = the last seq.")
    revealed = serializers.BooleanField()
    server_time = serializers.IntegerField()


class CommandResultSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The game's version now (bots may have moved after your command)."
    )
    first_seq = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    events = EventSerializer(many=True, help_text="The events your command appended.")
    state = GameViewSerializer()
    server_time = serializers.IntegerField()
    undo_available = serializers.BooleanField(
        help_text="Your seat may undo now (POST undo would be accepted, unless someone "
        "moves first)."
    )
    turn_deadline = serializers.IntegerField(
        allow_null=True,
        help_text="Tables with turn_seconds: when the running human turn times out "
        "(server time, ms); null otherwise.",
    )
    table = TableSerializer()


class ReplaySerializer(serializers.Serializer):
    game_id = serializers.UUIDField()
    at = serializers.IntegerField()
    version = serializers.IntegerField()
    viewer = serializers.JSONField()
    server_time = serializers.IntegerField()
    hash = serializers.CharField(
        allow_null=True,
        help_text="The audit hash of event `at` (once the game is over, or for staff).",
    )
    prev_hash = serializers.CharField(allow_null=True)
    state = GameViewSerializer()


class AuditEventSerializer(EventSerializer):
    command_id = serializers.UUIDField(allow_null=True)
    hash = serializers.CharField()
    prev_hash = serializers.CharField()
    metadata = serializers.DictField(help_text="seat, request_id (and ip, for staff).")

    class Meta:
        ref_name = "AuditEvent"


class AuditCommandSerializer(serializers.Serializer):
    command_id = serializers.UUIDField()
    actor = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    command = serializers.DictField()
    expected_version = serializers.IntegerField(allow_null=True)
    now_ms = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["accepted", "refused"])
    error_code = serializers.CharField(allow_null=True)
    error_message = serializers.CharField(allow_null=True)
    error_data = serializers.DictField()
    first_seq = serializers.IntegerField(allow_null=True)
    last_seq = serializers.IntegerField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    metadata = serializers.DictField()


class AuditSerializer(serializers.Serializer):
    game_id = serializers.UUIDField()
    version = serializers.IntegerField()
    revealed = serializers.BooleanField()
    events = AuditEventSerializer(many=True)
    commands = AuditCommandSerializer(many=True)


ExportSerializer = inline_serializer(
    "GameRecord",
    fields={
        "format": serializers.CharField(),
        "game": serializers.CharField(),
        "stream_id": serializers.UUIDField(),
        "table": serializers.DictField(),
        "seats": serializers.ListField(child=serializers.DictField()),
        "seed": serializers.CharField(),
        "events": serializers.ListField(child=serializers.DictField()),
        "commands": serializers.ListField(child=serializers.DictField()),
    },
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    type=str,
    location=OpenApiParameter.HEADER,
    required=True,
    description="A UUID you choose per command. A retry with the same key returns the "
    "first answer (same status, equivalent body) and appends nothing.",
)

REQUEST_ID = OpenApiParameter(
    "X-Request-ID",
    type=str,
    location=OpenApiParameter.HEADER,
    required=False,
    description="Echoed back; stored with your command. Generated when absent.",
)


def game_id_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "game_id", type=str, location=OpenApiParameter.PATH, description="The game's UUID."
    )


# One server-sent event as a client parses it (the fields of a `text/event-stream` message):
# the schema of each event of GET /games/{id}/events/stream, as OpenAPI tools check it.
SERVER_SENT_EVENT = inline_serializer(
    "ServerSentEvent",
    fields={
        "id": serializers.CharField(required=False, help_text="The event's seq."),
        "event": serializers.CharField(
            required=False, help_text="The event's type, `end`, or `error`."
        ),
        "data": serializers.CharField(
            required=False, help_text="JSON: the event as in the feed, or an error envelope."
        ),
        "retry": serializers.IntegerField(required=False, help_text="Reconnect delay (ms)."),
    },
)


def stream_errors(*statuses: int) -> dict[tuple[int, str], OpenApiResponse]:
    """``errors()`` for the event stream: the envelope as JSON, or as one `event: error`
    message when the client accepts only `text/event-stream`."""
    out: dict[tuple[int, str], OpenApiResponse] = {}
    for code_status, response in errors(*statuses).items():
        out[(code_status, "application/json")] = response
        out[(code_status, "text/event-stream")] = OpenApiResponse(
            SERVER_SENT_EVENT, description=response.description
        )
    return out
