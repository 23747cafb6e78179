"""Request bodies and query strings. Strict: JSON types are checked (``"4"`` is not a
number, ``1`` is not a boolean) and unknown fields are refused, so client bugs surface as
400 ``invalid`` with ``extra.fields`` instead of being ignored."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.db.models import Field
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api import usernames
from games.core import RuleViolation
from games.models import Table
from games.registry import DEFAULT_GAME, game_names, get_game

# every registered game's bot kinds (the lobby checks the table's game has the one asked)
BOT_KINDS = sorted({kind for name in game_names() for kind in get_game(name).bot_kinds})
MAX_VERSION = 2**31 - 1  # a version is a seq: PostgreSQL integer columns

if TYPE_CHECKING:  # the stubs' Serializer is generic in what it validates
    Serializer = serializers.Serializer[Any]
else:
    Serializer = serializers.Serializer


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"invalid": "A whole number is required."}

    def to_internal_value(self, data: Any) -> int:
        # 4.0 is a whole number in JSON (and in JSON Schema); "4" and true are not
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"invalid": "true or false is required."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class NoNulValidator(RegexValidator):
    """Django's refusal of NUL characters (PostgreSQL's text cannot hold one), as a pattern
    the schema shows: a fuzzer (or a client generated from the schema) then knows such a
    string is not valid, instead of finding a schema-valid request refused with 400."""

    def __init__(self) -> None:
        super().__init__(
            r"^[^\x00]*$",
            message=ProhibitNullCharactersValidator.message,
            code=ProhibitNullCharactersValidator.code,
        )


class StrictCharField(serializers.CharField):
    default_error_messages = {"invalid": "A string is required."}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            NoNulValidator() if isinstance(v, ProhibitNullCharactersValidator) else v
            for v in self.validators
        ]

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class StrictSerializer(Serializer):
    """Unknown fields are refused (400 `invalid`, naming them in `extra.fields`)."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if isinstance(self.initial_data, dict):
            unknown = sorted(set(self.initial_data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return attrs


# --- auth --------------------------------------------------------------------------------


class CredentialsSerializer(StrictSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False, style={"input_type": "pw"})


class RegisterSerializer(CredentialsSerializer):
    def validate_username(self, value: str) -> str:
        user_model = get_user_model()
        field = cast("Field[Any, Any]", user_model._meta.get_field(user_model.USERNAME_FIELD))
        try:
            field.run_validators(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(list(exc.messages)) from exc
        if usernames.taken(value):  # in any case, or with a look-alike letter
            raise serializers.ValidationError("That username is taken.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        user_model = get_user_model()
        candidate = user_model(**{user_model.USERNAME_FIELD: attrs["username"]})
        try:
            password_validation.validate_password(attrs["password"], candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class UserSerializer(Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()


class TokenSerializer(Serializer):
    token = serializers.CharField()


class RegisteredSerializer(Serializer):
    token = serializers.CharField()
    user = UserSerializer()


class SessionSerializer(Serializer):
    user = UserSerializer(allow_null=True)
    csrf_token = serializers.CharField(help_text="Send it back as the X-CSRFToken header.")


# --- tables ------------------------------------------------------------------------------


class TableCreateSerializer(StrictSerializer):
    game = serializers.ChoiceField(
        choices=list(game_names()),
        default=DEFAULT_GAME,
        help_text="The game to play (docs/architecture.md lists them).",
    )
    options = serializers.DictField(
        required=False,
        help_text="The game's table options, validated by the game (400 naming the "
        "field); each game's are in docs/api.md.",
    )
    mode = serializers.ChoiceField(choices=Table.Mode.values, default=Table.Mode.CASUAL)
    seats = StrictIntegerField(min_value=2, max_value=6, default=4)
    undo = serializers.ChoiceField(
        choices=Table.Undo.values,
        required=False,
        help_text="Default: own_last on casual tables, off otherwise (only casual allows it).",
    )
    spectator_delay = StrictIntegerField(min_value=0, max_value=10_000, default=0)
    turn_seconds = StrictIntegerField(
        min_value=0,
        max_value=600,
        default=0,
        help_text="A human seat's time to play its card (0: no limit); then the system plays.",
    )
    turn_action = serializers.ChoiceField(
        choices=Table.TurnAction.values,
        required=False,
        help_text="What the system plays for a seat out of time: one of the game's "
        "timeout policies (its minimal move, the first and default, or `bot`: the bot's "
        "choice).",
    )
    abandon_after = StrictIntegerField(
        min_value=0,
        max_value=20,
        required=False,
        help_text="With a turn clock: after this many consecutive timeouts a seat is out as "
        "if it resigned (at a two-person table the other may claim the win); 0: never. "
        "Default 3 in a game with a resign command, 0 in one without (docs/rules.md, "
        '"Absent players").',
    )
    seed = StrictCharField(max_length=128, required=False, help_text="Sandbox tables only (staff).")
    join = StrictBooleanField(default=True, help_text="Take a seat at the new table.")
    position = StrictIntegerField(
        min_value=0, max_value=5, required=False, help_text="The seat to take when joining."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        position = attrs.get("position")
        if position is not None and position >= attrs["seats"]:
            raise serializers.ValidationError({"position": ["No such seat at this table."]})
        _game_checks_options(attrs)
        return attrs


def _game_checks_options(attrs: dict[str, Any]) -> None:
    """The game validates its options; a refusal names the field, like any bad field."""
    given = dict(attrs.get("options") or {})
    sandbox = attrs.get("mode") == Table.Mode.SANDBOX
    try:
        get_game(attrs["game"]).validate_options(given, attrs["seats"], sandbox=sandbox)
    except RuleViolation as exc:
        field = str(exc.data.get("field", "options"))
        if exc.code == "bad_position":
            return  # the lobby's bad_position names the field in the position document
        if field == "seed" or not sandbox and field == "stacked_deck":
            return  # a sandbox-only option: the lobby's bad_options says so, as before
        raise serializers.ValidationError({field: [exc.message]}) from None


class JoinSerializer(StrictSerializer):
    position = StrictIntegerField(min_value=0, max_value=5, required=False, allow_null=True)
    name = StrictCharField(max_length=60, required=False, allow_blank=True)


class AddBotSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=BOT_KINDS, default="heuristic")
    position = StrictIntegerField(min_value=0, max_value=5, required=False, allow_null=True)


class QuerySerializer(Serializer):
    """A query string: a parameter given empty (``?status=``) is refused, not taken as
    absent (DRF's default for form-like input)."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        blank = sorted(
            name
            for name in list[str](self.fields)
            if hasattr(self.initial_data, "get") and self.initial_data.get(name) == ""
        )
        if blank:
            raise serializers.ValidationError({name: ["A value is required."] for name in blank})
        return attrs


class TableListQuerySerializer(QuerySerializer):
    mine = serializers.BooleanField(
        default=False, help_text="Your tables (seated or created), any status."
    )
    status = serializers.ChoiceField(choices=Table.Status.values, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, default=100)


# --- games -------------------------------------------------------------------------------


@extend_schema_field({"$ref": "#/components/schemas/AnyCommand"})  # api.game_schema
class CommandField(serializers.JSONField):
    """An engine command; ``codec.decode_command`` checks it (400 bad_command)."""


# expected_version is stored in a PostgreSQL integer column.
MAX_VERSION = 2**31 - 1


class CommandRequestSerializer(StrictSerializer):
    command = CommandField(
        help_text="A command of the table's game, with its `type` (each game's rules "
        "document lists its commands; a `legal` option's `send` is one, ready to send)."
    )
    expected_version = StrictIntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text="Refuse with 409 stale_version unless the game is at this version "
        "(counters and passes are guarded by their window instead).",
    )
    seat = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Optional. The seat is always the one you hold; any other is 403.",
    )

    class Meta:
        ref_name = "GameCommand"  # GameCommandRequest in the schema

    def validate_command(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise serializers.ValidationError("A command is a JSON object with a 'type'.")
        return value


def seq_of(text: str) -> int | None:
    """A position in a game's events written in ASCII digits, however many (None if it is
    not one). A seq fits a PostgreSQL integer, so a larger one is past the end all the same:
    it is read as ``MAX_VERSION``, never handed to ``int()`` whole (which refuses thousands
    of digits) nor to the database (past its integer types)."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0")
    return (
        MAX_VERSION if len(digits) > len(str(MAX_VERSION)) else min(int(digits or 0), MAX_VERSION)
    )


class SeqField(serializers.IntegerField):
    """A query's seq (``after``): any whole number from 0, however large (``seq_of``)."""

    default_error_messages = {"invalid": "A sequence number (a whole number, 0 or more)."}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=0, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        value = seq_of(str(data).strip()) if isinstance(data, str | int) else None
        if value is None or isinstance(data, bool):
            self.fail("invalid")
        return value


class FeedQuerySerializer(QuerySerializer):
    after = SeqField(default=0, help_text="Events with seq > after.")
    wait = serializers.FloatField(
        min_value=0,
        max_value=settings.FB_FEED_MAX_WAIT,
        default=0,
        help_text="Long-poll: wait up to this many seconds (at most FB_FEED_MAX_WAIT, "
        "default 25) for a new event.",
    )
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=500)

    def validate_wait(self, value: float) -> float:  # the limit is a setting
        if value > settings.FB_FEED_MAX_WAIT:
            raise serializers.ValidationError(
                f"Ensure this value is less than or equal to {settings.FB_FEED_MAX_WAIT}."
            )
        return value


class StreamQuerySerializer(QuerySerializer):
    after = SeqField(default=0, help_text="Start after this seq (Last-Event-ID wins).")


class ReplayQuerySerializer(QuerySerializer):
    at = serializers.IntegerField(
        min_value=1, required=False, help_text="Sequence number; default the latest."
    )


class SandboxRequestSerializer(StrictSerializer):
    at = StrictIntegerField(
        min_value=1,
        help_text="The event after which the sandbox starts: the last event of a command.",
    )


# --- reviews: annotations and rulings -------------------------------------------------------


class AnnotationCreateSerializer(StrictSerializer):
    seq = StrictIntegerField(
        min_value=1,
        max_value=MAX_VERSION,
        help_text="The position: the game as it was after this event.",
    )
    text = StrictCharField(max_length=2000, help_text="The comment (1 to 2000 characters).")


class RulingCreateSerializer(StrictSerializer):
    kind = serializers.ChoiceField(
        choices=["note", "award", "void"],
        help_text="`note`; `award` (the win to `winners`); `void` (the game counts for nobody).",
    )
    reason = StrictCharField(max_length=2000, help_text="Why (1 to 2000 characters).")
    winners = serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=5),
        required=False,
        default=list,
        max_length=6,
        help_text="The seats awarded the win (`award` only).",
    )
    seq = StrictIntegerField(
        min_value=1,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text="A position it refers to.",
    )
