"""The typed parts of the OpenAPI contract, derived from the rules engine.

The engine's commands and events are frozen dataclasses (``games.family_business``); their
JSON forms are what ``codec`` and ``view`` make of them. This module turns those
dataclasses into OpenAPI component schemas, so the contract cannot drift from the code:
a command union with a ``type`` discriminator, one schema per event (as each viewer sees
it: hidden cards are ``null`` with a ``count``), and the ``legal`` options with their typed
``choices`` and ready-to-send ``send`` command. (The error envelope's ``extra`` is the
service's, ``api.schema.ERROR_EXTRA``: it does not say which game refused.)

``components()`` is added to the schema by ``api.schema.postprocess``; serializer fields
point at the components with ``ref()``.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields
from typing import Any

from . import events as engine_events
from .cards import Kind
from .codec import COMMAND_TYPES
from .events import EVENT_TYPES
from .view import redact_event

JsonSchema = dict[str, Any]

# Commands a seat may send; ``close_window`` is the system's (a seat gets 403 system_only).
CLIENT_COMMANDS = [name for name in COMMAND_TYPES if name != "close_window"]
# The pseudo-commands of ``legal`` options (``discard`` is a ``play`` with discard: true).
OPTION_COMMANDS = ["play", "discard", *[c for c in CLIENT_COMMANDS if c != "play"]]

MAX_SEAT = 5
CARD_ID: JsonSchema = {
    "type": "string",
    "pattern": "^(c[0-9]{2}|a[0-9]{2})$",
    "description": "A card id: c01 ... c56; ability cards a01 ... a10 (advanced rules).",
    "examples": ["c07"],
}
MOBSTER_ID: JsonSchema = {
    "type": "string",
    "pattern": "^[a-z0-9-]{1,40}$",
    "description": "A mobster id, e.g. bugs-moran (docs/rules.md#mobsters).",
    "examples": ["bugs-moran"],
}
WINDOW_ID: JsonSchema = {
    "type": "string",
    "pattern": "^w[0-9]{1,9}$",
    "description": "A reaction window's (or pending decision's) id, from `state.window.id`.",
    "examples": ["w1"],
}
SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": MAX_SEAT}
CARD_KIND_ENUM: JsonSchema = {
    "type": "string",
    "enum": [k.value for k in Kind],
    "description": "A card's kind code (docs/rules.md#action-cards).",
}
CARD_KIND: JsonSchema = {"$ref": "#/components/schemas/CardKind"}

# What a field of an engine command or event holds, by its name, where that says more
# than its Python type (a card id, a mobster id, a window id, a seat).
FIELD_SCHEMAS: dict[str, JsonSchema] = {
    "card": CARD_ID,
    "window": WINDOW_ID,
    "mobster": MOBSTER_ID,
    "own": MOBSTER_ID,
    "listed": MOBSTER_ID,
    "replacement": MOBSTER_ID,
    "targets": {"type": "array", "items": MOBSTER_ID, "maxItems": 54},
    "order": {"type": "array", "items": MOBSTER_ID},
    "seat": SEAT,
    "player": SEAT,
    "kind": CARD_KIND,
    "source": {"type": "string", "enum": ["deck", "discard"]},
}
COMMAND_FIELD_SCHEMAS: dict[str, JsonSchema] = {
    **FIELD_SCHEMAS,
    "cards": {"type": "array", "items": CARD_ID, "maxItems": 66},
}

# How ``view.redact_event`` hides events before the end (tests/api/test_contract.py checks
# this against it): cards are null with a count; GameStarted omits its secrets.
REDACTED_CARDS = frozenset({"DeckShuffled", "CardsDealt", "CardsDrawn"})
HIDDEN_UNTIL_END = {"GameStarted": frozenset({"seed", "stacked_deck", "salt"})}


def ref(name: str) -> JsonSchema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: JsonSchema) -> JsonSchema:
    """``schema`` or null, valid OpenAPI 3.1 (a ``$ref`` cannot carry ``type``)."""
    if "$ref" in schema:
        return {"oneOf": [schema, {"type": "null"}]}
    out = dict(schema)
    kind = out["type"]
    out["type"] = [kind, "null"] if isinstance(kind, str) else [*kind, "null"]
    out.pop("examples", None)
    return out


def python_type_schema(hint: Any, name: str, named: dict[str, JsonSchema]) -> JsonSchema:
    """The JSON schema of a dataclass field's type (str, int, bool, tuples, X | None)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        assert len(args) == 1, hint  # noqa: S101 - only Optional unions in the engine
        return nullable(python_type_schema(args[0], name, named))
    if name in named:
        return dict(named[name])
    if typing.get_origin(hint) is tuple:
        (item, _) = typing.get_args(hint)
        return {"type": "array", "items": python_type_schema(item, "", named)}
    simple = {str: "string", int: "integer", bool: "boolean"}
    return {"type": simple[hint]}


def _default(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _description(cls: type) -> str:
    doc = (cls.__doc__ or "").strip()
    if doc.startswith(f"{cls.__name__}("):  # the dataclass's generated signature
        return ""
    return " ".join(doc.split()).replace("``", "`")  # Markdown, as the schema's text is


def _closed_object(cls: type, properties: JsonSchema, required: list[str]) -> JsonSchema:
    """The object schema of a command or event dataclass ``cls``: ``properties``, no
    others, and ``cls``'s description."""
    out: JsonSchema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if description := _description(cls):
        out["description"] = description
    return out


def _union(names: dict[str, str], description: str) -> JsonSchema:
    """One of the components ``names`` (a ``type`` -> its component's name), told apart by
    ``type``."""
    return {
        "oneOf": [ref(n) for n in names.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: f"#/components/schemas/{n}" for t, n in names.items()},
        },
        "description": description,
    }


# --- commands ------------------------------------------------------------------------------


def command_component_name(command_type: str) -> str:
    return f"{COMMAND_TYPES[command_type].__name__}Command"


def command_schema(command_type: str) -> JsonSchema:
    cls = COMMAND_TYPES[command_type]
    hints = typing.get_type_hints(cls)
    properties: dict[str, JsonSchema] = {"type": {"type": "string", "enum": [command_type]}}
    required = ["type"]
    for f in fields(cls):
        schema = python_type_schema(hints[f.name], f.name, COMMAND_FIELD_SCHEMAS)
        if f.default is not MISSING:
            schema["default"] = _default(f.default)
        else:
            required.append(f.name)
        properties[f.name] = schema
    properties["seat"] = {
        **SEAT,
        "description": "Optional: the seat you hold (any other is 403 not_your_seat).",
    }
    return _closed_object(cls, properties, required)


def command_union() -> JsonSchema:
    return _union(
        {t: command_component_name(t) for t in CLIENT_COMMANDS},
        "An engine command for your seat (docs/rules.md#commands), told apart "
        "by `type`. A `legal` option's `send` is one, ready to send.",
    )


# --- events --------------------------------------------------------------------------------

UNDONE_SCHEMA: JsonSchema = {
    "type": "object",
    "description": "An undo (`stream.Undone`): replay skips the events from_seq..to_seq.",
    "properties": {
        "type": {"type": "string", "enum": ["Undone"]},
        "from_seq": {"type": "integer", "minimum": 1},
        "to_seq": {"type": "integer", "minimum": 1},
        "seat": SEAT,
        "command_id": {"type": "string", "format": "uuid"},
    },
    "required": ["type", "from_seq", "to_seq", "seat", "command_id"],
    "additionalProperties": False,
}


def event_component_name(event_type: str) -> str:
    return f"{event_type}Event"


def event_schema(event_type: str) -> JsonSchema:
    """One event's ``data`` as any viewer may get it (redacted or revealed)."""
    cls = EVENT_TYPES[event_type]
    hints = typing.get_type_hints(cls, vars(engine_events))
    properties: dict[str, JsonSchema] = {"type": {"type": "string", "enum": [event_type]}}
    required = ["type"]
    hidden = HIDDEN_UNTIL_END.get(event_type, frozenset())
    for f in fields(cls):
        schema = python_type_schema(hints[f.name], f.name, FIELD_SCHEMAS)
        if f.name == "cards" and event_type in REDACTED_CARDS:
            schema = nullable(schema)
            schema["description"] = "null when hidden from you (see `count`)."
        properties[f.name] = schema
        if f.name not in hidden:
            required.append(f.name)
    if event_type in REDACTED_CARDS:
        properties["count"] = {
            "type": "integer",
            "minimum": 0,
            "description": "How many cards, when `cards` is hidden from you.",
        }
    for name in hidden:
        properties[name]["description"] = "Hidden until the game ends."
    return _closed_object(cls, properties, required)


def event_union() -> JsonSchema:
    names = {**{t: event_component_name(t) for t in EVENT_TYPES}, "Undone": "UndoneEvent"}
    return _union(
        names,
        "The event as you may see it, told apart by `type` "
        "(docs/rules.md#events); hidden cards are null with a `count`.",
    )


def redaction_is_described(event: Any) -> bool:
    """Whether ``view.redact_event`` hides no more and no less than the event schema says
    (for a spectator before the end): used by the tests to keep the two together."""
    name = type(event).__name__
    shown = redact_event(event, "spectator")
    missing = {f.name for f in fields(event)} - set(shown)
    nulled = {k for k, v in shown.items() if v is None and k == "cards"}
    return missing == set(HIDDEN_UNTIL_END.get(name, ())) and (
        bool(nulled) == (name in REDACTED_CARDS)
    )


# --- legal options -------------------------------------------------------------------------

_MOBSTERS: JsonSchema = {"type": "array", "items": MOBSTER_ID}

CHOICES: JsonSchema = {
    "type": "object",
    "description": "What the command still has to name (docs/rules.md#legal-options); "
    "seat numbers are object keys, so strings.",
    "properties": {
        "targets": {
            "type": "object",
            "description": "The `targets` of a `play`.",
            "properties": {
                "count": {"type": "integer", "minimum": 1},
                "max": {"type": "integer", "minimum": 1},
                "same_player": {"type": "boolean"},
                "mobsters": _MOBSTERS,
                "one_player": {
                    "type": "object",
                    "description": "Seat -> the mobsters in front of that player.",
                    "additionalProperties": _MOBSTERS,
                },
                "per_player": {
                    "type": "object",
                    "description": "Seat -> how many of which mobsters to name.",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {
                            "count": {"type": "integer", "minimum": 1},
                            "mobsters": _MOBSTERS,
                        },
                        "required": ["count", "mobsters"],
                        "additionalProperties": False,
                    },
                },
                "ordered": {"type": "boolean"},
                "leaving": _MOBSTERS,
                "returning": _MOBSTERS,
                "listed": _MOBSTERS,
                "replacements": _MOBSTERS,
                "permutation_of": _MOBSTERS,
            },
            "additionalProperties": False,
        },
        "own": {
            "type": "object",
            "description": "HIT: the `own` mobster to put on the Hit List.",
            "properties": {
                "mobsters": _MOBSTERS,
                "after_removing_target": {"type": "boolean"},
            },
            "required": ["mobsters"],
            "additionalProperties": False,
        },
        "player": {"type": "array", "items": SEAT, "description": "PAY OFF: the `player`."},
        "mobster": {
            **_MOBSTERS,
            "description": "MOB POWER's or UNFORGIVING's `mobster`.",
        },
        "none_allowed": {"type": "boolean", "description": "`mobster` may be null."},
        "source": {
            "type": "array",
            "items": {"type": "string", "enum": ["deck", "discard"]},
            "description": "`draw`: where from.",
        },
        "cards": {
            "type": "object",
            "description": "`use_butcher`: min..max cards from your hand.",
            "properties": {
                "min": {"type": "integer", "minimum": 0},
                "max": {"type": "integer", "minimum": 0},
                "from": {"type": "array", "items": CARD_ID},
            },
            "required": ["min", "max", "from"],
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}

OPTION: JsonSchema = {
    "type": "object",
    "description": "One thing your seat may do now. `send` is the command to POST as is "
    "when `ready`; otherwise fill in what `choices` names first.",
    "properties": {
        "command": {
            "type": "string",
            "enum": OPTION_COMMANDS,
            "description": "What the option is (`discard` is a `play` with discard: true); "
            "draw, use_butcher, unforgiving and end_turn: advanced rules only.",
        },
        "card": CARD_ID,
        "kind": CARD_KIND,
        "window": WINDOW_ID,
        "choices": ref("Choices"),
        "send": {
            **ref("Command"),
            "description": "The command to send (the body's `command`).",
        },
        "ready": {
            "type": "boolean",
            "description": "`send` is complete: nothing left to choose.",
        },
    },
    "required": ["command", "send", "ready"],
    "additionalProperties": False,
}


def components() -> dict[str, JsonSchema]:
    """Every component this module defines, by name."""
    out: dict[str, JsonSchema] = {"CardKind": CARD_KIND_ENUM, "Command": command_union()}
    out.update({command_component_name(t): command_schema(t) for t in CLIENT_COMMANDS})
    out["EventData"] = event_union()
    out.update({event_component_name(t): event_schema(t) for t in EVENT_TYPES})
    out["UndoneEvent"] = UNDONE_SCHEMA
    out["Choices"] = CHOICES
    out["Option"] = OPTION
    return out
