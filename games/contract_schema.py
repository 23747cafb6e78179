"""How a game's typed API contract is derived: from its own definitions to JSON schemas.

Every registered game has a ``contract`` module (``games/<name>/contract.py``, listed in
``games.registry.CONTRACTS``) that supplies only what is its own: its command and event
dataclasses, what their fields hold (a card id, a seat), how its ``redact_event`` hides
events, the shape of its state view and of its ``legal`` options. This module holds the
derivation they share: dataclass -> closed object, ``X | None`` -> nullable, tuples ->
arrays, a union told apart by ``type``, the redaction notes, and the naming rule.

A contract names its components locally (``State``, ``Command``, ``BidCommand``,
``GameStartedEvent``) and refers to them locally; ``prefixed`` gives every one its game's
prefix (``SomeGameGameStartedEvent``), so no two games' components share a name and a
generated client never merges them (docs/api.md, "Typed per game").

Pure (standard library only): the rules packages import it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Protocol

JsonSchema = dict[str, Any]

REF = "#/components/schemas/"
# The components every contract defines: what the API's answers point at.
STATE, COMMAND, EVENT_DATA, OPTION = "State", "Command", "EventData", "Option"
REQUIRED_COMPONENTS = (STATE, COMMAND, EVENT_DATA, OPTION)


class Contract(Protocol):
    """What a game supplies for its typed API contract (a ``contract`` module)."""

    # How its ``redact_event`` hides events (the event schemas say so; the tests check it)
    REDACTION: Redaction
    # Every key its refusals' ``data`` may carry (a ``RuleViolation``'s keyword), with what
    # it holds: the error envelope's `extra` (the tests check the engine raises no other)
    REFUSAL_DATA: dict[str, JsonSchema]
    # A few commands as a client sends them, by what they do: the docs' request examples
    # ("Try it out"; the tests check each is a valid command)
    COMMAND_EXAMPLES: dict[str, JsonSchema]

    def components(self) -> dict[str, JsonSchema]:
        """Its component schemas by local name, referring to each other locally
        (``ref``): at least ``State`` (what its ``view`` returns: the service adds
        ``game``, ``viewer`` and ``revealed``), ``Command`` (a union of the commands a seat
        may send, told apart by ``type``), ``EventData`` (a union of its events as any
        viewer may see them, ``event_components``) and ``Option`` (one of its ``legal``
        options, whose ``send`` is a ``Command``)."""
        ...


def ref(name: str) -> JsonSchema:
    return {"$ref": f"{REF}{name}"}


def prefix_of(game: str) -> str:
    """A game's component prefix: ``some_game`` -> ``SomeGame``."""
    return "".join(part.capitalize() for part in game.split("_"))


def prefixed(game: str, components: Mapping[str, JsonSchema]) -> dict[str, JsonSchema]:
    """``components`` (a contract's, by local name) under ``game``'s prefix, every local
    reference in them renamed with them (``prefixed_refs``)."""
    prefix = prefix_of(game)
    return {
        f"{prefix}{name}": prefixed_refs(game, schema, components)
        for name, schema in components.items()
    }


def prefixed_refs(game: str, node: Any, local: Mapping[str, Any]) -> Any:
    """``node`` with every reference (``$ref``, discriminator mappings) to one of ``game``'s
    ``local`` components renamed with its prefix. A reference to a name the contract does
    not define is a mistake in the contract (``KeyError``)."""
    if isinstance(node, dict):
        return {k: prefixed_refs(game, v, local) for k, v in node.items()}
    if isinstance(node, list):
        return [prefixed_refs(game, v, local) for v in node]
    if isinstance(node, str) and node.startswith(REF):
        name = node.removeprefix(REF)
        if name not in local:
            raise KeyError(f"{game}'s contract refers to {name!r}, which it does not define")
        return f"{REF}{prefix_of(game)}{name}"
    return node


def nullable(schema: JsonSchema) -> JsonSchema:
    """``schema`` or null, valid OpenAPI 3.1 (a ``$ref`` cannot carry ``type``)."""
    if "$ref" in schema or "type" not in schema:
        return {"oneOf": [schema, {"type": "null"}]}
    out = dict(schema)
    kind = out["type"]
    out["type"] = [kind, "null"] if isinstance(kind, str) else [*kind, "null"]
    out.pop("examples", None)
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


_SIMPLE = {str: "string", int: "integer", bool: "boolean"}


def python_type_schema(hint: Any, name: str, named: Mapping[str, JsonSchema]) -> JsonSchema:
    """The JSON schema of a dataclass field's type (str, int, bool, tuples, ``X | None``);
    ``named`` says what a field holds by its name, where that says more than its type
    (``fields_of``)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        assert len(args) == 1, hint  # noqa: S101 - only Optional unions in the engines
        return nullable(python_type_schema(args[0], name, named))
    if name in named:
        return dict(named[name])
    origin = typing.get_origin(hint)
    if origin is tuple:
        parts = typing.get_args(hint)
        if len(parts) == 2 and parts[1] is Ellipsis:
            return {"type": "array", "items": python_type_schema(parts[0], "", named)}
        # a fixed tuple: an array of that many items (all of one type, or any of them)
        items = [python_type_schema(a, "", named) for a in parts]
        distinct = [s for i, s in enumerate(items) if s not in items[:i]]
        item = distinct[0] if len(distinct) == 1 else {"anyOf": distinct}
        return {"type": "array", "items": item, "minItems": len(parts), "maxItems": len(parts)}
    if hint is dict or origin is dict:
        return {"type": "object", "additionalProperties": True}
    return {"type": _SIMPLE[hint]}


def description_of(cls: type) -> str:
    """A dataclass's docstring as Markdown, or "" for the generated signature."""
    doc = (cls.__doc__ or "").strip()
    if doc.startswith(f"{cls.__name__}("):
        return ""
    return " ".join(doc.split()).replace("``", "`")


def closed(properties: JsonSchema, required: list[str], description: str = "") -> JsonSchema:
    """An object of ``properties`` and no others."""
    out: JsonSchema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if description:
        out["description"] = description
    return out


def union(names: Mapping[str, str], description: str, key: str = "type") -> JsonSchema:
    """One of the (local) components ``names`` (a ``key`` value -> its component's name),
    told apart by ``key``."""
    return {
        "oneOf": [ref(n) for n in names.values()],
        "discriminator": {
            "propertyName": key,
            "mapping": {value: f"{REF}{n}" for value, n in names.items()},
        },
        "description": description,
    }


def fields_of(cls: type, named: Mapping[str, JsonSchema]) -> dict[str, JsonSchema]:
    """What ``cls``'s fields hold by name: ``named``'s ``field`` entries, overridden by its
    ``<Class>.field`` entries (where one class's field holds something else)."""
    own = f"{cls.__name__}."
    out = {k: v for k, v in named.items() if "." not in k}
    out.update({k.removeprefix(own): v for k, v in named.items() if k.startswith(own)})
    return out


def _default(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# --- commands ------------------------------------------------------------------------------

SEAT_FIELD: JsonSchema = {
    "type": "integer",
    "minimum": 0,
    "description": "Optional: the seat you hold (any other is 403 not_your_seat).",
}


def command_component_name(cls: type) -> str:
    return f"{cls.__name__}Command"


def command_schema(
    command_type: str,
    cls: type,
    named: Mapping[str, JsonSchema],
    json_names: Mapping[str, str],
) -> JsonSchema:
    """A command dataclass as JSON: its ``type``, its fields (under ``json_names`` where
    Python reserves the JSON name), and the ``seat`` the service accepts with any command."""
    hints = typing.get_type_hints(cls)
    named = fields_of(cls, named)
    properties: JsonSchema = {"type": {"type": "string", "enum": [command_type]}}
    required = ["type"]
    for f in fields(cls):
        key = json_names.get(f.name, f.name)
        schema = python_type_schema(hints[f.name], key, named)
        if f.default is not MISSING:
            schema["default"] = _default(f.default)
        elif f.default_factory is not MISSING:
            schema["default"] = _default(f.default_factory())
        else:
            required.append(key)
        properties[key] = schema
    properties["seat"] = SEAT_FIELD
    return closed(properties, required, description_of(cls))


def command_components(
    command_types: Mapping[str, type],
    named: Mapping[str, JsonSchema],
    description: str,
    json_names: Mapping[str, str] | None = None,
) -> dict[str, JsonSchema]:
    """One component per command a seat may send and ``Command``, their union by ``type``."""
    names = {t: command_component_name(cls) for t, cls in command_types.items()}
    out = {
        names[t]: command_schema(t, cls, named, json_names or {})
        for t, cls in command_types.items()
    }
    out[COMMAND] = union(names, description)
    return out


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Redaction:
    """How a game's ``redact_event`` shows an event to a viewer it is hidden from, before
    the end (the tests check it against ``redact_event``, ``redaction_is_described``)."""

    absent: Mapping[str, frozenset[str]] = field(default_factory=dict)  # fields left out
    nulled: Mapping[str, frozenset[str]] = field(default_factory=dict)  # fields made null
    counted: frozenset[str] = frozenset()  # events whose nulled ``cards`` get a ``count``
    # JSON names of fields Python reserves (``source`` -> ``from``), as the game's codec
    json_names: Mapping[str, str] = field(default_factory=dict)
    # fields an event carries only when set (left out when None: a game started from a
    # position records it in its first event, a dealt game's first event is as it was)
    optional: Mapping[str, frozenset[str]] = field(default_factory=dict)


UNDONE: JsonSchema = closed(
    {
        "type": {"type": "string", "enum": ["Undone"]},
        "from_seq": {"type": "integer", "minimum": 1},
        "to_seq": {"type": "integer", "minimum": 1},
        "seat": {"type": "integer", "minimum": 0},
        "command_id": {"type": "string", "format": "uuid"},
        "reshuffle_seed_hash": {
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "description": "An undo across a reveal (the undone command showed another "
            "seat cards): the SHA-256 of the fresh seed the game's reshuffle after this "
            "marker is drawn from, revealed with the game's seed at the end (the record's "
            "`reseeds`). Left out of an undo that reshuffles nothing.",
        },
    },
    ["type", "from_seq", "to_seq", "seat", "command_id"],
    "An undo (`stream.Undone`): replay skips the events from_seq..to_seq; the game's "
    "reshuffle may follow it in the same command (docs/event-store.md).",
)


def event_component_name(event_type: str) -> str:
    return f"{event_type}Event"


def event_schema(
    event_type: str, cls: type, named: Mapping[str, JsonSchema], redaction: Redaction
) -> JsonSchema:
    """One event's ``data`` as any viewer may get it (redacted or revealed)."""
    hints = typing.get_type_hints(cls)
    named = fields_of(cls, named)
    properties: JsonSchema = {"type": {"type": "string", "enum": [event_type]}}
    required = ["type"]
    absent = redaction.absent.get(event_type, frozenset())
    nulled = redaction.nulled.get(event_type, frozenset())
    for f in fields(cls):
        key = redaction.json_names.get(f.name, f.name)
        schema = python_type_schema(hints[f.name], key, named)
        if key in nulled:
            schema = nullable(schema)
            schema["description"] = "null when hidden from you" + (
                " (see `count`)." if event_type in redaction.counted else "."
            )
        if key in absent:
            schema["description"] = "Hidden until the game ends."
        elif f.name in redaction.optional.get(event_type, frozenset()):
            schema.setdefault("description", "Only when set.")
        else:
            required.append(key)
        properties[key] = schema
    if event_type in redaction.counted:
        properties["count"] = {
            "type": "integer",
            "minimum": 0,
            "description": "How many cards, when `cards` is hidden from you.",
        }
    return closed(properties, required, description_of(cls))


def event_components(
    event_types: Mapping[str, type],
    named: Mapping[str, JsonSchema],
    redaction: Redaction,
    description: str,
) -> dict[str, JsonSchema]:
    """One component per event, the service's undo marker, and ``EventData``, their union
    by ``type``."""
    names = {t: event_component_name(t) for t in event_types}
    out = {names[t]: event_schema(t, cls, named, redaction) for t, cls in event_types.items()}
    out["UndoneEvent"] = UNDONE
    out[EVENT_DATA] = union({**names, "Undone": "UndoneEvent"}, description)
    return out


def redaction_is_described(redaction: Redaction, event: Any, shown: Mapping[str, Any]) -> bool:
    """Whether ``shown`` (``event`` as a viewer it is hidden from sees it before the end)
    hides no more and no less than ``redaction`` says."""
    name = type(event).__name__
    names = {redaction.json_names.get(f.name, f.name): f.name for f in fields(event)}
    optional = redaction.optional.get(name, frozenset())
    missing = {
        key
        for key, attr in names.items()
        if not (attr in optional and getattr(event, attr) is None)
    } - set(shown)
    nulled = {
        k
        for k, v in shown.items()
        if v is None and getattr(event, names.get(k, k), None) is not None
    }
    return missing == set(redaction.absent.get(name, ())) and nulled == set(
        redaction.nulled.get(name, ())
    )
