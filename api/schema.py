"""OpenAPI documentation: response shapes, the error envelope, and each operation's id,
description, errors and links.

The serializers here document what the views return (the views build plain dicts from the
engine's projection). The per-game parts (a game's state and its `legal` options, event
`data`, commands) come from every game's contract (``api.game_schema``). ``postprocess``
(a drf-spectacular hook) adds them, and finishes the schema from the table ``OPERATIONS``:
one place says every operation's id and the codes it answers with, so each error status
lists exactly that operation's codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers

from api.errors import ALL_CODES, RULE_CODES, status_of
from api.explain_schema import add_explanations
from api.game_schema import (
    add_game_components,
    command_examples,
    drop_unused_components,
    error_extra,
)
from api.serializers import Serializer
from fbservice.http_limits import REFUSALS
from games.registry import GAMES

JsonSchema = dict[str, Any]


def ref(name: str) -> JsonSchema:
    return {"$ref": f"#/components/schemas/{name}"}


_REASONS = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    406: "Not acceptable",
    409: "Conflict with the game's current state",
    413: "Request body too large",
    414: "Request line too long",
    415: "Unsupported media type",
    422: "Refused by the rules",
    429: "Rate limited",
    431: "Request headers too large",
    503: "Unavailable; retry",
}


def codes_with_status(code_status: int) -> list[str]:
    return sorted(code for code in ALL_CODES if status_of(code) == code_status)


def _code_table() -> str:
    lines = ["| code | status | meaning |", "| --- | --- | --- |"]
    for code in sorted(ALL_CODES, key=lambda c: (status_of(c), c)):
        lines.append(f"| `{code}` | {status_of(code)} | {ALL_CODES[code]} |")
    return "\n".join(lines)


def typed_json(schema: JsonSchema, **kwargs: Any) -> Any:
    """A JSON field documented by a raw schema (usually a ``ref``). Typed Any: a
    document's field may be called ``data``, which a ``Serializer`` has as a property."""
    field_class = extend_schema_field(schema)(type("TypedJSONField", (serializers.JSONField,), {}))
    return field_class(**kwargs)


SEAT: JsonSchema = {
    "type": "integer",
    "minimum": 0,
    "maximum": max(game.max_players for game in GAMES.values()) - 1,
}
VIEWER: JsonSchema = {
    "oneOf": [SEAT, {"type": "string", "enum": ["spectator", "staff"]}],
    "description": 'Your seat number, "spectator" or "staff".',
}


# The service's keys of an error's `extra`, typed; each game's refusal keys are added from
# its contract (``api.game_schema.error_extra``). Open: which keys appear depends on the code.
ERROR_EXTRA: JsonSchema = {
    "type": "object",
    "description": "Structured data of an error; which keys appear depends on the `code` "
    "(docs/api.md#errors); a game's refusals add keys of their own, typed below.",
    "properties": {
        "fields": {
            "description": "`invalid`: each field's error messages (nested for nested "
            "fields); `bad_command`: the fields at fault.",
            "anyOf": [
                {"type": "object", "additionalProperties": True},
                {"type": "array", "items": {"type": "string"}},
            ],
        },
        "errors": {"type": "array", "items": {}, "description": "`invalid`: the messages."},
        "field": {"type": "string", "description": "`bad_options`, `bad_command`: the field."},
        "current_version": {"type": "integer", "description": "`stale_version`."},
        "expected_version": {"type": "integer", "description": "`stale_version`."},
        "retry_after": {
            "type": ["number", "null"],
            "description": "`rate_limited`, `too_many_failed_sign_ins`: seconds to wait "
            "(also the `Retry-After` header).",
        },
        "per": {
            "type": "string",
            "enum": ["username", "address"],
            "description": "`too_many_failed_sign_ins`: the limit your address is over: "
            "failures for this username, or for any.",
        },
        "seat": {
            "type": ["integer", "null"],
            "description": "`not_your_seat`: the seat named; a game's refusal: its seat.",
        },
        "seats": {
            "anyOf": [
                {"type": "integer"},
                {"type": "array", "items": {"type": "integer"}},
                {"type": "string", "enum": ["all"]},
            ],
            "description": "`table_full`: the table's seats; `undo_after_reveal`, "
            '`undo_reveals_cards`: the seats shown cards, or "all".',
        },
        "winners": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "`bad_winners`: the winners named; `game_over`: the winners.",
        },
        "reason": {"type": "string", "description": "Why (webhooks: the delivery's)."},
        "limit": {
            "type": "integer",
            "description": "`too_many_feeds`, `too_many_failed_sign_ins`, `json_too_deep`, "
            "`body_too_large`: the limit.",
        },
    },
    "additionalProperties": True,
}


class ErrorSerializer(Serializer):
    code = serializers.ChoiceField(
        choices=sorted(ALL_CODES),
        help_text="Stable machine code; its HTTP status is fixed:\n\n" + _code_table(),
    )
    message = serializers.CharField(help_text="For people; may change.")
    extra = typed_json(ref("ErrorExtra"))

    class Meta:
        ref_name = "Error"


# --- shapes ------------------------------------------------------------------------------


def game_state() -> Any:
    """The game as the caller may see it: one of the games' states (``api.game_schema``)."""
    return typed_json(
        ref("GameState"),
        help_text="The game as you may see it: its game's own state (`game` says which).",
    )


class SeatSerializer(Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    user = serializers.IntegerField(allow_null=True)


class TableSerializer(Serializer):
    id = serializers.UUIDField(help_text="The table's id, which is also its game's id.")
    game = serializers.CharField()
    mode = serializers.ChoiceField(choices=["casual", "ranked", "sandbox"])
    status = serializers.ChoiceField(choices=["open", "started", "finished"])
    seats = SeatSerializer(many=True, help_text="The filled seats.")
    size = serializers.IntegerField(help_text="How many seats the table has.")
    options = serializers.DictField(
        help_text="The game's table options, as the game shows them (never a secret one, "
        "such as a sandbox's stacked deck)."
    )
    undo = serializers.ChoiceField(choices=["off", "own_last"])
    spectator_delay = serializers.IntegerField()
    turn_seconds = serializers.IntegerField()
    turn_action = serializers.ChoiceField(choices=["discard", "minimal", "bot"])
    abandon_after = serializers.IntegerField(
        help_text="The abandonment rule: consecutive timeouts that put a seat out (0: never)."
    )
    created_by = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    your_seat = serializers.IntegerField(allow_null=True)
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The winning seats once the game is over (several: a shared draw); null "
        "before. A result decided by a ruling gives its winners (none for a voided game).",
    )
    result = serializers.DictField(
        allow_null=True,
        help_text="Null before the end; then how the result was decided: `decided_by` "
        "`play` (the game's own end), `abandonment` (the last command was an absent "
        "seat's resign under the abandonment rule; `abandoned` names the seat) or `ruling` "
        "(with the `ruling` id and its `kind`, `award` or `void`; see /games/{id}/rulings).",
    )

    class Meta:
        ref_name = "Table"


class TableListSerializer(Serializer):
    tables = TableSerializer(many=True)


class PlayerRatingSerializer(Serializer):
    game = serializers.CharField()
    title = serializers.CharField()
    mu = serializers.FloatField(help_text="The skill estimate (openskill Weng-Lin; 25 to begin).")
    sigma = serializers.FloatField(help_text="Its uncertainty (25/3 to begin; falls with games).")
    display = serializers.IntegerField(
        help_text="The rating people read: 1000 + 40 (mu - 3 sigma), 1000 to begin."
    )
    games = serializers.IntegerField(help_text="Rated games of this game so far.")
    updated_at = serializers.DateTimeField(help_text="When the last rated game ended.")


class RatingChangeSerializer(Serializer):
    game = serializers.CharField()
    table = serializers.UUIDField(help_text="The rated game (its table's id).")
    ended_at = serializers.DateTimeField()
    place = serializers.IntegerField(help_text="1 = first; tied seats share a place.")
    seats = serializers.IntegerField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    display_before = serializers.IntegerField()
    display = serializers.IntegerField()


class RecentSeatSerializer(Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(allow_null=True)
    username = serializers.CharField(allow_null=True, help_text="A person's profile name.")


class RecentGameSerializer(Serializer):
    id = serializers.UUIDField(help_text="The game's id: GET /games/{id}, its replay, ...")
    game = serializers.CharField()
    title = serializers.CharField()
    mode = serializers.ChoiceField(choices=["casual", "ranked"])
    status = serializers.ChoiceField(choices=["started", "finished"])
    started_at = serializers.DateTimeField(allow_null=True)
    seat = serializers.IntegerField(help_text="The player's seat.")
    seats = RecentSeatSerializer(many=True)
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="As a table shows them: null before the end; a ruling's once it decided.",
    )
    decided_by = serializers.ChoiceField(choices=["play", "ruling"], allow_null=True)
    result = serializers.ChoiceField(
        choices=["won", "shared", "lost", "void"],
        allow_null=True,
        help_text="The player's result in a word (null: not over).",
    )


class PlayerSerializer(Serializer):
    username = serializers.CharField()
    joined_at = serializers.DateTimeField()
    ratings = PlayerRatingSerializer(
        many=True, help_text="One per game rated in, the highest display rating first."
    )
    history = RatingChangeSerializer(
        many=True, help_text="The latest rating changes (50), newest first, every game."
    )
    recent_games = RecentGameSerializer(
        many=True, help_text="The latest games sat at (20), newest first; sandboxes left out."
    )

    class Meta:
        ref_name = "Player"


class WindowPassSerializer(Serializer):
    window = serializers.CharField()
    origin = serializers.ChoiceField(
        choices=["manual", "standing"],
        help_text="`manual`: your own pass (final); `standing`: your standing reactions "
        "passed for you (you may still counter by hand).",
    )
    reason = serializers.ChoiceField(
        choices=["pass_all", "no_counter"],
        allow_null=True,
        help_text="Why your standing reactions passed; null for a manual pass.",
    )
    at = serializers.IntegerField(help_text="Server time, ms.")

    class Meta:
        ref_name = "WindowPass"


SEALED_ANSWER_HELP = (
    "Your sealed pass on the open reaction window, if your standing reactions passed on it. "
    "At a table of two or more people an automatic pass is sealed: only you (and staff) see "
    "it, and the window runs to its first counter or its deadline for everyone unless you "
    'pass by hand (docs/rules.md, "Hand passes are public, automatic passes are sealed"). '
    "A pass by hand is a public event, not this. Null otherwise, and always at a table of "
    "one person and bots, where every pass is an ordinary event."
)


class PlayedUnderSerializer(Serializer):
    rules_version = serializers.IntegerField(
        help_text="The rules version the game is played under: the one its first event "
        "recorded (a running game keeps it to its end; new tables get the newest)."
    )
    content_version = serializers.CharField(
        allow_null=True,
        help_text="The content (stand-in data) version it is played with; null for a game "
        "with none.",
    )

    class Meta:
        ref_name = "PlayedUnder"


PLAYED_UNDER_HELP = 'The versions the game is played under (docs/event-store.md, "Versions").'


class TakebackSerializer(Serializer):
    id = serializers.UUIDField()
    seat = serializers.IntegerField(help_text="The seat asking to take back its last command.")
    responders = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats asked: every one must accept."
    )
    accepted = serializers.ListField(
        child=serializers.IntegerField(), help_text="Those that have accepted."
    )
    state = serializers.ChoiceField(
        choices=["open", "accepted", "declined", "expired", "void"],
        help_text="`void`: something was played before it was answered.",
    )
    deadline_ms = serializers.IntegerField(help_text="When it expires (server time, ms).")
    version = serializers.IntegerField(help_text="The game's version when it was asked.")


class TakebackAskedSerializer(Serializer):
    takeback = TakebackSerializer()


class TakebackAnsweredSerializer(Serializer):
    takeback = TakebackSerializer()
    undone = serializers.BooleanField(help_text="This answer took the command back.")


TAKEBACK_HELP = (
    "The table's open takeback request (a seat asks the seats it names to let it take back "
    "its last command), or null."
)


OUT_OF_TURN_HELP = (
    "Seats the game does not wait for that may still act now, unprompted (a game's "
    "out-of-turn play, such as a job completed on another seat's turn): nobody waits for "
    "them and their command leaves `awaiting` and the turn clock as they were. Public; what "
    "your seat may do then is in its own `state.legal`. Empty when nothing may be played "
    "out of turn (and once the game is over)."
)


class GameDocumentSerializer(Serializer):
    game_id = serializers.UUIDField()
    version = serializers.IntegerField(help_text="The last event's seq you can see.")
    server_time = serializers.IntegerField(help_text="Server clock, ms since the epoch.")
    viewer = typed_json(VIEWER)
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
    takeback = TakebackSerializer(allow_null=True, help_text=TAKEBACK_HELP)
    out_of_turn = serializers.ListField(
        child=serializers.IntegerField(), help_text=OUT_OF_TURN_HELP
    )
    window_pass = WindowPassSerializer(allow_null=True, help_text=SEALED_ANSWER_HELP)
    absent = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Seats absent under the table's abandonment rule (that many consecutive "
        "timeouts): public, as timeouts are. Empty when the rule does not apply.",
    )
    claim_available = serializers.BooleanField(
        help_text="Your seat may claim the win now (POST /games/{id}/claim): a two-person "
        "table whose other person is absent."
    )
    table = TableSerializer()
    played_under = PlayedUnderSerializer(help_text=PLAYED_UNDER_HELP)
    state = game_state()

    class Meta:
        ref_name = "Game"


class EventSerializer(Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField(
        help_text="`<game>.<Event>` (each game's rules document lists its events) or "
        "`stream.Undone`."
    )
    actor = serializers.CharField(help_text="`user:<id>`, `bot:<seat>` or `system`.")
    origin = serializers.ChoiceField(
        choices=["timeout", "standing"],
        allow_null=True,
        help_text="`timeout`: the system played for a seat whose turn ran out. `standing`: "
        "the seat's standing reactions did (shown to that seat, staff, and after the end; "
        "null to everyone else). Null: the actor's own command.",
    )
    recorded_at = serializers.DateTimeField()
    schema_version = serializers.IntegerField(
        help_text="The version of the event's `data` shape (as in the export)."
    )
    data = typed_json(ref("EventData"))

    class Meta:
        ref_name = "Event"


class FeedSerializer(Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    has_more = serializers.BooleanField(help_text="Ask again with after = the last seq.")
    revealed = serializers.BooleanField()
    finished = serializers.BooleanField(
        help_text="The game is over (by its end or a tournament director's ruling): nothing "
        "more will be appended. A long-poll waiting on a game that ends without an event "
        "(a ruling) answers at once with no events and this true."
    )
    server_time = serializers.IntegerField()


class CommandResultSerializer(Serializer):
    version = serializers.IntegerField(
        help_text="The game's version now (bots may have moved after your command)."
    )
    first_seq = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    events = EventSerializer(many=True, help_text="The events your command appended.")
    state = game_state()
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
    takeback = TakebackSerializer(allow_null=True, help_text=TAKEBACK_HELP)
    out_of_turn = serializers.ListField(
        child=serializers.IntegerField(), help_text=OUT_OF_TURN_HELP
    )
    window_pass = WindowPassSerializer(allow_null=True, help_text=SEALED_ANSWER_HELP)
    table = TableSerializer()


class ReplaySerializer(Serializer):
    game_id = serializers.UUIDField()
    at = serializers.IntegerField()
    version = serializers.IntegerField()
    viewer = typed_json(VIEWER)
    server_time = serializers.IntegerField()
    hash = serializers.CharField(
        allow_null=True,
        help_text="The audit hash of event `at` (once the game is over, or for staff).",
    )
    prev_hash = serializers.CharField(allow_null=True)
    played_under = PlayedUnderSerializer(help_text=PLAYED_UNDER_HELP)
    decided = serializers.DictField(
        allow_null=True,
        help_text="At the last event of a game a ruling decided: the ruling (`decided_by`, "
        "`ruling`, `kind`, `winners`); the state then reads as over with its winners, no "
        "turn and no window. Null otherwise.",
    )
    state = game_state()


class AuthorSerializer(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "Author"


class AnnotationSerializer(Serializer):
    id = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="The position: the game after this event.")
    text = serializers.CharField()
    author = AuthorSerializer()
    role = serializers.ChoiceField(
        choices=["staff", "player"], help_text="As what the author wrote it."
    )
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Annotation"


class AnnotationListSerializer(Serializer):
    game_id = serializers.UUIDField()
    annotations = AnnotationSerializer(many=True)


class RulingSerializer(Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["note", "award", "void"])
    winners = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.CharField()
    seq = serializers.IntegerField(allow_null=True, help_text="A position it refers to.")
    version = serializers.IntegerField(help_text="The game's version when it was recorded.")
    author = AuthorSerializer()
    created_at = serializers.DateTimeField()
    n = serializers.IntegerField(
        allow_null=True, help_text="Its place in the game's rulings chain: 1, 2, ..."
    )
    prev_hash = serializers.CharField(
        allow_null=True, help_text="The hash of the game's previous ruling (64 zeros: none)."
    )
    hash = serializers.CharField(
        allow_null=True,
        help_text="sha256 of `prev_hash` and the ruling, with the hash of event `version` "
        '(docs/event-store.md, "The rulings chain").',
    )

    class Meta:
        ref_name = "Ruling"


class RulingListSerializer(Serializer):
    game_id = serializers.UUIDField()
    rulings = RulingSerializer(many=True)


class AuditEventSerializer(EventSerializer):
    command_id = serializers.UUIDField(allow_null=True)
    hash = serializers.CharField()
    prev_hash = serializers.CharField()
    metadata = serializers.DictField(help_text="seat, request_id (and ip, for staff).")

    class Meta:
        ref_name = "AuditEvent"


class AuditCommandSerializer(Serializer):
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


class AuditSerializer(Serializer):
    game_id = serializers.UUIDField()
    version = serializers.IntegerField()
    revealed = serializers.BooleanField()
    events = AuditEventSerializer(many=True)
    commands = AuditCommandSerializer(many=True)


class RecordEventSerializer(Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField()
    data = typed_json(ref("EventData"))
    payload = serializers.DictField(
        help_text="`data` as stored (without `type`): what the hashes cover and "
        "`games.verify` reads."
    )
    actor = serializers.CharField()
    command_id = serializers.UUIDField(allow_null=True)
    metadata = serializers.DictField()
    recorded_at = serializers.DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()

    class Meta:
        ref_name = "RecordEvent"


RecordTableSerializer = inline_serializer(
    "RecordTable",
    fields={
        "mode": serializers.ChoiceField(choices=["casual", "ranked", "sandbox"]),
        "seats": serializers.IntegerField(),
        "options": serializers.DictField(),
        "undo": serializers.ChoiceField(choices=["off", "own_last"]),
        "status": serializers.ChoiceField(choices=["open", "started", "finished"]),
        "created_at": serializers.DateTimeField(),
        "started_at": serializers.DateTimeField(allow_null=True),
    },
)


class RecordCommandSerializer(Serializer):
    command_id = serializers.UUIDField()
    actor = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    command = serializers.DictField(help_text="As sent (a refused one may be malformed).")
    expected_version = serializers.IntegerField(allow_null=True)
    now_ms = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["accepted", "refused"])
    error_code = serializers.CharField(allow_null=True)
    first_seq = serializers.IntegerField(allow_null=True)
    last_seq = serializers.IntegerField(allow_null=True)
    recorded_at = serializers.DateTimeField()

    class Meta:
        ref_name = "RecordCommand"


ExportSerializer = inline_serializer(
    "GameRecord",
    fields={
        "format": serializers.CharField(),
        "covers": serializers.ListField(
            child=serializers.CharField(),
            help_text='What the proof covers: `["events", "rulings"]` (format 2).',
        ),
        "game": serializers.CharField(),
        "stream_id": serializers.UUIDField(),
        "table": RecordTableSerializer,
        "seats": SeatSerializer(many=True),
        "seed": serializers.CharField(allow_null=True),
        "reseeds": serializers.ListField(
            child=serializers.CharField(),
            allow_null=True,
            help_text="The fresh seeds of the undos that reshuffled the deck, in order: each "
            "hashes to its undo marker's `reshuffle_seed_hash` (secret like `seed`: null "
            "until the end). Older records lack it (no such undo).",
        ),
        "events": RecordEventSerializer(many=True),
        "commands": RecordCommandSerializer(many=True),
        "annotations": AnnotationSerializer(many=True),
        "rulings": RulingSerializer(many=True),
    },
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    type={"type": "string", "format": "uuid"},
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
    description="Echoed back; stored with your command. Up to 128 of `A-Za-z0-9._:/+=-`; "
    "any other value is replaced by a generated id (never refused).",
)


def game_id_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "game_id",
        type={"type": "string", "format": "uuid"},
        location=OpenApiParameter.PATH,
        description="The game's UUID (its table's id).",
    )


def table_id_parameter() -> OpenApiParameter:
    return OpenApiParameter(
        "table_id",
        type={"type": "string", "format": "uuid"},
        location=OpenApiParameter.PATH,
        description="The table's UUID.",
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


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """Error responses by status (placeholders: ``postprocess`` replaces each operation's
    error responses with the codes ``OPERATIONS`` gives it)."""
    return {
        s: OpenApiResponse(ErrorSerializer, description=_REASONS.get(s, "Error")) for s in statuses
    }


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


# --- request examples (valid requests, so "Try it out" in /api/v1/docs succeeds) -----------

CREDENTIALS_EXAMPLE = OpenApiExample(
    "sign up or in",
    value={"username": "alice", "password": "correct-horse-battery"},
    request_only=True,
)
TABLE_EXAMPLES = [
    OpenApiExample("two seats, casual", value={"seats": 2}, request_only=True),
    OpenApiExample(
        "ranked, 4 seats, 30 s turns",
        value={"mode": "ranked", "seats": 4, "turn_seconds": 30},
        request_only=True,
    ),
]
JOIN_EXAMPLE = OpenApiExample("the first free seat", value={}, request_only=True)
BOT_EXAMPLE = OpenApiExample("a heuristic bot", value={"kind": "heuristic"}, request_only=True)
# --- operations ----------------------------------------------------------------------------

# Codes every operation can answer with, by what it is.
ANY = (
    "method_not_allowed",
    "not_acceptable",
    "database_unavailable",
    "rate_limited",
    *REFUSALS,  # the server's own limits on the request line and headers
)
SIGNED_IN = ("not_authenticated", "authentication_failed")
# POST and DELETE: every body is parsed (a route that takes none refuses one: invalid),
# and a session caller needs the CSRF token.
UNSAFE = (
    "malformed_json",
    "json_too_deep",
    "body_too_large",
    "invalid",
    "unsupported_media_type",
    "csrf_failed",
)
GAME = ("game_not_found",)
STARTED = ("game_not_found", "not_started")
COMMAND = (
    "bad_idempotency_key",
    "idempotency_key_required",
    "idempotency_key_reused",
    "not_your_seat",
    "game_over",
    "busy",
)
# standing reactions: a seat's own, at a started game that has reaction windows
STANDING = ("game_not_found", "not_your_seat", "no_standing_reactions", "not_started")
FEED = ("too_many_feeds", "feed_overloaded")  # the feed's connection limits (api.feed.limits)
ENGINE = tuple(c for c in RULE_CODES if c not in COMMAND)  # every code of every game


@dataclass(frozen=True)
class Operation:
    """An operation's stable id and the codes it can answer with (beyond ``ANY``)."""

    id: str
    codes: tuple[str, ...] = ()
    links: dict[str, tuple[str, str]] = field(default_factory=dict)  # name: (op id, body)
    common: tuple[str, ...] = ANY


TABLE_LINKS = {
    name: (op, "$response.body#/id")
    for name, op in (
        ("Retrieve", "tables_retrieve"),
        ("Join", "tables_join"),
        ("AddBot", "tables_bots_create"),
        ("Start", "tables_start"),
        ("Leave", "tables_leave"),
    )
}
GAME_LINKS = {
    name: (op, "$response.body#/game_id")
    for name, op in (
        ("Game", "games_retrieve"),
        ("Command", "games_command_create"),
        ("Events", "games_events_list"),
        ("Replay", "games_replay_retrieve"),
        ("Undo", "games_undo"),
    )
}

WEBHOOK = ("webhook_not_found",)
WEBHOOK_LINKS = {
    name: (op, "$response.body#/id")
    for name, op in (
        ("Retrieve", "webhooks_retrieve"),
        ("Test", "webhooks_test"),
        ("Deliveries", "webhooks_deliveries_list"),
        ("Rotate", "webhooks_rotate_secret"),
        ("Update", "webhooks_update"),
        ("Delete", "webhooks_destroy"),
    )
}

TOURNAMENT = ("tournament_not_found",)
TOURNAMENT_LINKS = {
    name: (op, "$response.body#/id")
    for name, op in (
        ("Retrieve", "tournaments_retrieve"),
        ("Register", "tournaments_register"),
        ("StartRound", "tournaments_round_start"),
        ("Export", "tournaments_export_retrieve"),
    )
}

OPERATIONS: dict[tuple[str, str], Operation] = {
    ("post", "/api/v1/auth/register"): Operation(
        "auth_register",
        ("malformed_json", "json_too_deep", "body_too_large", "invalid")
        + ("unsupported_media_type",),
    ),
    ("post", "/api/v1/auth/token"): Operation(
        "auth_token_create",
        ("malformed_json", "json_too_deep", "body_too_large", "invalid", "invalid_credentials")
        + ("unsupported_media_type", "too_many_failed_sign_ins"),
    ),
    ("delete", "/api/v1/auth/token"): Operation("auth_token_destroy", SIGNED_IN + UNSAFE),
    ("get", "/api/v1/auth/session"): Operation("auth_session_retrieve"),
    ("post", "/api/v1/auth/session"): Operation(
        "auth_session_create",
        ("malformed_json", "json_too_deep", "body_too_large", "invalid", "invalid_credentials")
        + ("unsupported_media_type", "csrf_failed", "too_many_failed_sign_ins"),
    ),
    ("delete", "/api/v1/auth/session"): Operation("auth_session_destroy", SIGNED_IN + UNSAFE),
    ("get", "/api/v1/auth/me"): Operation("auth_me", SIGNED_IN),
    ("get", "/api/v1/tables"): Operation("tables_list", SIGNED_IN + ("invalid",)),
    ("post", "/api/v1/tables"): Operation(
        "tables_create",
        SIGNED_IN + UNSAFE + ("bad_options", "bad_position", "forbidden"),
        TABLE_LINKS,
    ),
    ("get", "/api/v1/tables/{table_id}"): Operation("tables_retrieve", SIGNED_IN + GAME),
    ("post", "/api/v1/tables/{table_id}/join"): Operation(
        "tables_join",
        SIGNED_IN
        + UNSAFE
        + GAME
        + ("seat_taken", "already_seated", "table_full")
        + ("table_not_open",),
    ),
    ("post", "/api/v1/tables/{table_id}/leave"): Operation(
        "tables_leave", SIGNED_IN + UNSAFE + GAME + ("not_seated", "table_not_open")
    ),
    ("post", "/api/v1/tables/{table_id}/bots"): Operation(
        "tables_bots_create",
        SIGNED_IN + UNSAFE + GAME + ("forbidden", "seat_taken", "table_full") + ("table_not_open",),
    ),
    ("post", "/api/v1/tables/{table_id}/start"): Operation(
        "tables_start",
        SIGNED_IN + UNSAFE + GAME + ("forbidden", "not_enough_players", "table_not_open"),
        GAME_LINKS,
    ),
    ("get", "/api/v1/games/{game_id}"): Operation(
        "games_retrieve", SIGNED_IN + STARTED, GAME_LINKS
    ),
    ("post", "/api/v1/games/{game_id}/commands"): Operation(
        "games_command_create",
        SIGNED_IN + UNSAFE + STARTED + COMMAND + ENGINE + ("stale_version",),
    ),
    ("post", "/api/v1/games/{game_id}/resign"): Operation(
        "games_resign", SIGNED_IN + UNSAFE + STARTED + COMMAND + ("not_in_game", "no_resign")
    ),
    ("post", "/api/v1/games/{game_id}/claim"): Operation(
        "games_claim", SIGNED_IN + UNSAFE + STARTED + COMMAND + ("not_in_game", "no_claim")
    ),
    ("post", "/api/v1/games/{game_id}/undo"): Operation(
        "games_undo",
        SIGNED_IN
        + UNSAFE
        + STARTED
        + COMMAND
        + ("undo_not_allowed", "nothing_to_undo", "undo_reveals_cards", "other_seat_acted")
        + ("undo_after_reveal", "takeback_pending", "takeback_needed"),
    ),
    ("post", "/api/v1/games/{game_id}/takeback/{request_id}"): Operation(
        "games_takeback_create",
        SIGNED_IN
        + UNSAFE
        + STARTED
        + ("not_in_game", "takeback_not_found", "not_a_responder", "takeback_closed")
        + ("nothing_to_undo", "other_seat_acted", "game_over", "undo_not_allowed"),
    ),
    ("get", "/api/v1/games/{game_id}/standing"): Operation(
        "games_standing_retrieve", SIGNED_IN + STANDING
    ),
    ("patch", "/api/v1/games/{game_id}/standing"): Operation(
        "games_standing_update",
        SIGNED_IN
        + UNSAFE
        + STANDING
        + ("game_over", "stale_version", "bad_command", "not_counterable"),
    ),
    ("get", "/api/v1/games/{game_id}/events"): Operation(
        "games_events_list", SIGNED_IN + STARTED + FEED + ("invalid",)
    ),
    ("get", "/api/v1/games/{game_id}/events/stream"): Operation(
        "games_events_stream", SIGNED_IN + STARTED + FEED + ("invalid",)
    ),
    ("get", "/api/v1/games/{game_id}/replay"): Operation(
        "games_replay_retrieve", SIGNED_IN + STARTED + ("invalid",)
    ),
    ("get", "/api/v1/games/{game_id}/marks"): Operation(
        "games_marks_retrieve", SIGNED_IN + STARTED
    ),
    ("get", "/api/v1/games/{game_id}/audit"): Operation(
        "games_audit_retrieve", SIGNED_IN + GAME + ("forbidden", "sealed_choice_pending")
    ),
    ("get", "/api/v1/games/{game_id}/export"): Operation(
        "games_export_retrieve", SIGNED_IN + GAME + ("forbidden", "sealed_choice_pending")
    ),
    ("post", "/api/v1/games/{game_id}/sandbox"): Operation(
        "games_sandbox_create",
        SIGNED_IN
        + UNSAFE
        + STARTED
        + ("invalid", "forbidden", "sealed_choice_pending", "bad_position", "bad_options"),
        TABLE_LINKS,
    ),
    ("get", "/api/v1/players/{username}"): Operation(
        "players_retrieve", SIGNED_IN + ("player_not_found",)
    ),
    ("get", "/api/v1/webhooks"): Operation("webhooks_list", SIGNED_IN),
    ("post", "/api/v1/webhooks"): Operation(
        "webhooks_create",
        SIGNED_IN + UNSAFE + ("forbidden", "webhook_url_refused", "too_many_webhooks"),
        WEBHOOK_LINKS,
    ),
    ("get", "/api/v1/webhooks/{webhook_id}"): Operation("webhooks_retrieve", SIGNED_IN + WEBHOOK),
    ("patch", "/api/v1/webhooks/{webhook_id}"): Operation(
        "webhooks_update", SIGNED_IN + UNSAFE + WEBHOOK + ("webhook_url_refused",)
    ),
    ("delete", "/api/v1/webhooks/{webhook_id}"): Operation(
        "webhooks_destroy", SIGNED_IN + UNSAFE + WEBHOOK
    ),
    ("post", "/api/v1/webhooks/{webhook_id}/rotate"): Operation(
        "webhooks_rotate_secret", SIGNED_IN + UNSAFE + WEBHOOK
    ),
    ("post", "/api/v1/webhooks/{webhook_id}/test"): Operation(
        "webhooks_test", SIGNED_IN + UNSAFE + WEBHOOK + ("webhook_disabled",)
    ),
    ("get", "/api/v1/webhooks/{webhook_id}/deliveries"): Operation(
        "webhooks_deliveries_list", SIGNED_IN + WEBHOOK + ("invalid",)
    ),
    ("post", "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver"): Operation(
        "webhooks_redeliver",
        SIGNED_IN + UNSAFE + WEBHOOK + ("delivery_not_found", "webhook_disabled"),
    ),
    ("get", "/api/v1/games/{game_id}/annotations"): Operation(
        "games_annotations_list", SIGNED_IN + STARTED + ("annotation_not_allowed",)
    ),
    ("post", "/api/v1/games/{game_id}/annotations"): Operation(
        "games_annotations_create",
        SIGNED_IN
        + UNSAFE
        + STARTED
        + ("annotation_not_allowed", "seated_at_table", "position_out_of_range", "bad_review"),
    ),
    ("get", "/api/v1/games/{game_id}/rulings"): Operation(
        "games_rulings_list", SIGNED_IN + STARTED + ("ruling_not_allowed",)
    ),
    ("post", "/api/v1/games/{game_id}/rulings"): Operation(
        "games_rulings_create",
        SIGNED_IN
        + UNSAFE
        + STARTED
        + (
            "ruling_not_allowed",
            "seated_at_table",
            "position_out_of_range",
            "bad_review",
            "bad_winners",
            "busy",  # its place in the rulings chain lost to other rulings, again and again
        ),
    ),
    ("get", "/api/v1/tournaments"): Operation("tournaments_list", SIGNED_IN),
    ("post", "/api/v1/tournaments"): Operation(
        "tournaments_create",
        SIGNED_IN + UNSAFE + ("not_director", "bad_tournament"),
        TOURNAMENT_LINKS,
    ),
    ("get", "/api/v1/tournaments/{tournament_id}"): Operation(
        "tournaments_retrieve", SIGNED_IN + TOURNAMENT
    ),
    ("post", "/api/v1/tournaments/{tournament_id}/entries"): Operation(
        "tournaments_register",
        SIGNED_IN
        + UNSAFE
        + TOURNAMENT
        + ("not_director", "bad_tournament", "already_registered", "registration_closed"),
    ),
    ("post", "/api/v1/tournaments/{tournament_id}/withdraw"): Operation(
        "tournaments_withdraw",
        SIGNED_IN + UNSAFE + TOURNAMENT + ("not_director", "not_registered", "registration_closed"),
    ),
    ("post", "/api/v1/tournaments/{tournament_id}/rounds"): Operation(
        "tournaments_round_start",
        SIGNED_IN
        + UNSAFE
        + TOURNAMENT
        + ("not_director", "round_running", "no_rounds_left", "too_few_entrants"),
    ),
    ("get", "/api/v1/tournaments/{tournament_id}/pairings"): Operation(
        "tournaments_pairings_retrieve", SIGNED_IN + TOURNAMENT
    ),
    ("post", "/api/v1/tournaments/{tournament_id}/flags"): Operation(
        "tournaments_flag",
        SIGNED_IN
        + UNSAFE
        + TOURNAMENT
        + ("table_not_in_tournament", "flag_not_allowed", "already_flagged"),
    ),
    ("post", "/api/v1/tournaments/{tournament_id}/flags/{flag}/close"): Operation(
        "tournaments_flag_close",
        SIGNED_IN + UNSAFE + TOURNAMENT + ("not_director", "flag_not_found", "flag_closed"),
    ),
    ("get", "/api/v1/tournaments/{tournament_id}/queue"): Operation(
        "tournaments_queue_retrieve", SIGNED_IN + TOURNAMENT + ("not_director",)
    ),
    ("get", "/api/v1/tournaments/{tournament_id}/export"): Operation(
        "tournaments_export_retrieve", SIGNED_IN + TOURNAMENT
    ),
    # /healthz answers for the database itself (503 "degraded"), and has no rate limit.
    ("get", "/healthz"): Operation(
        "healthz", common=("method_not_allowed", "not_acceptable", *REFUSALS)
    ),
}

SECURITY_SCHEMES = {
    "tokenAuth": {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": "`Authorization: Token <token>` (from sign-up or POST /auth/token).",
    },
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "The same token as `Authorization: Bearer <token>`.",
    },
    "cookieAuth": {
        "type": "apiKey",
        "in": "cookie",
        "name": "sessionid",
        "description": "The browser's session (POST /auth/session); unsafe requests also "
        "need the X-CSRFToken header.",
    },
}


def _error_response(op: Operation, code_status: int, old: dict[str, Any] | None) -> dict[str, Any]:
    codes = sorted({c for c in (*op.codes, *op.common) if status_of(c) == code_status})
    listed = ", ".join(f"`{c}`" for c in codes)
    content = dict((old or {}).get("content") or {})
    content["application/json"] = {"schema": ref("Error")}
    return {
        "description": f"{_REASONS.get(code_status, 'Error')}. Codes: {listed}.",
        "content": content,
    }


# Bounds of parameters declared by views that do not say them themselves.
PARAMETER_BOUNDS: dict[str, dict[str, Any]] = {
    "Last-Event-ID": {"type": "integer", "minimum": 0},  # a seq; digits only
}


def _bound_parameters(operation: dict[str, Any]) -> None:
    for parameter in operation.get("parameters", []):
        bounds = PARAMETER_BOUNDS.get(parameter["name"])
        if bounds:
            parameter["schema"] = {**parameter.get("schema", {}), **bounds}


def _mark_strict_requests(schema: dict[str, Any]) -> None:
    """Request bodies are strict serializers (``api.serializers.StrictSerializer``): the
    server refuses unknown fields, so the schema says so."""
    components = schema["components"]["schemas"]
    for operation in _operations(schema):
        for media in (operation.get("requestBody") or {}).get("content", {}).values():
            target = media.get("schema", {}).get("$ref", "")
            name = target.rsplit("/", 1)[-1]
            if name in components:
                components[name]["additionalProperties"] = False


def _operations(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [op for ops in schema["paths"].values() for m, op in ops.items() if m != "parameters"]


def postprocess(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular's last step: every game's components, operation ids, every
    operation's error statuses with its codes, the auth schemes, and links."""
    game = schema_game(request)
    add_game_components(result["components"]["schemas"], VIEWER, [game] if game else [])
    add_explanations(result["components"]["schemas"], [game] if game else list(GAMES))
    result["components"]["schemas"]["ErrorExtra"] = error_extra(ERROR_EXTRA, [game] if game else [])
    result["components"]["securitySchemes"] = SECURITY_SCHEMES
    authenticated: list[dict[str, list[str]]] = [
        {"tokenAuth": []},
        {"bearerAuth": []},
        {"cookieAuth": []},
    ]
    for path, methods in result["paths"].items():
        for method, operation in methods.items():
            op = OPERATIONS.get((method, path))
            if op is None:
                continue
            operation["operationId"] = op.id
            _bound_parameters(operation)
            if "security" in operation and operation["security"] != [{}]:
                operation["security"] = authenticated
            responses = operation["responses"]
            for code_status in sorted({status_of(c) for c in (*op.codes, *op.common)}):
                key = str(code_status)
                responses[key] = _error_response(op, code_status, responses.get(key))
            success = next(k for k in responses if k.startswith("2"))
            if op.links:
                responses[success]["links"] = {
                    name: {"operationId": target, "parameters": {_id_of(target): expr}}
                    for name, (target, expr) in op.links.items()
                }
    _mark_strict_requests(result)
    _command_examples(result, [game] if game else [])
    if game:
        drop_unused_components(result)
        result["info"]["title"] = f"{result['info']['title']}: {GAMES[game].title}"
    return result


def _command_examples(schema: dict[str, Any], games: list[str]) -> None:
    """The command operation's request examples: each game's own (its contract's)."""
    operation = schema["paths"].get("/api/v1/games/{game_id}/commands", {}).get("post")
    if operation is None:
        return
    media = operation["requestBody"]["content"]["application/json"]
    media["examples"] = command_examples(games)


def schema_game(request: Any) -> str | None:
    """The game whose own document ``request`` asks for (``?game=``), or None: every game's.
    ``api.views.SchemaView`` has refused an unknown one already."""
    params = getattr(request, "query_params", None) or getattr(request, "GET", None) or {}
    game = params.get("game")
    return game if game in GAMES else None


def _id_of(operation_id: str) -> str:
    if operation_id.startswith("webhooks_"):
        return "webhook_id"
    if operation_id.startswith("tournaments_"):
        return "tournament_id"
    return "table_id" if operation_id.startswith("tables_") else "game_id"
