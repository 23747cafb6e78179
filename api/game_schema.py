"""The per-game parts of the OpenAPI schema, from the registry.

A game's state (with its `legal` options), its events' `data` and its commands differ by
game. A game with a typed contract (``games.registry.CONTRACTS``) is described by its
contract's components; any other game, until its contract is typed, by an open shape: the
fields every game shares, any others allowed. Every game's real answers conform either way
(tests/faults/test_fuzz.py runs schemathesis on a table of each).

Where an answer says its game, the game selects the shape: a state names it in `game` (a
discriminator), an event in its `type`'s prefix (`<game>.<Event>`). A request body does
not (the game is the path's table), so a command is any game's (``anyOf``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from games.reads import UNDONE
from games.registry import CONTRACTS, GAMES

JsonSchema = dict[str, Any]

# The component the typed game's view is documented as (``api.schema.GameViewSerializer``).
TYPED_STATE = "GameView"
# The components of one event as the API shows it (feed and command answers, the audit
# trail, the export); each has a `type` and a `data`.
EVENT_COMPONENTS = ("Event", "AuditEvent", "RecordEvent")

OPEN_COMMAND: JsonSchema = {
    "type": "object",
    "description": "A command of a game whose commands this schema does not type yet: "
    "its `type` and the game's own fields (the game's rules document lists them). A "
    "`legal` option's `send` is one, ready to send.",
    "properties": {"type": {"type": "string", "minLength": 1}},
    "required": ["type"],
    "additionalProperties": True,
}
OPEN_EVENT_DATA: JsonSchema = {
    "type": "object",
    "description": "An event of a game whose events this schema does not type yet: its "
    "short `type` first, then the game's own fields, as you may see them (the game's rules "
    "document lists them). `Undone` for an undo marker.",
    "properties": {"type": {"type": "string"}},
    "required": ["type"],
    "additionalProperties": True,
}
OPEN_OPTION: JsonSchema = {
    "type": "object",
    "description": "One thing your seat may do now, in a game whose options this schema "
    "does not type yet. `send` is the command to POST as is when `ready`; an option of "
    "several forms lists each whole command in `variants`.",
    "properties": {
        "send": {"$ref": "#/components/schemas/OpenCommand"},
        "ready": {"type": "boolean"},
        "variants": {"type": "array", "items": {"$ref": "#/components/schemas/OpenCommand"}},
    },
    "required": ["send", "ready"],
    "additionalProperties": True,
}


def ref(name: str) -> JsonSchema:
    return {"$ref": f"#/components/schemas/{name}"}


def title(game: str) -> str:
    """A game's name as a component name's prefix: ``some_game`` -> ``SomeGame``."""
    return "".join(part.capitalize() for part in game.split("_"))


def typed(game: str) -> bool:
    return game in CONTRACTS


def state_component(game: str) -> str:
    return TYPED_STATE if typed(game) else f"{title(game)}State"


def command_component(game: str) -> str:
    return "Command" if typed(game) else "OpenCommand"


def open_state(game: str, viewer: JsonSchema) -> JsonSchema:
    """The state of ``game`` until its contract is typed: what the service and every
    game's view share (``games.core.Game.view``, ``games.reads.state_view``)."""
    seats = {"type": "array", "items": {"type": "integer", "minimum": 0}}
    return {
        "type": "object",
        "description": f"The game as you may see it, at a {GAMES[game].title} table: the "
        "fields every game has, typed; the game's own, open until its contract is typed "
        "(its rules document describes them).",
        "properties": {
            "game": {"type": "string", "enum": [game]},
            "viewer": viewer,
            "players": {"type": "array", "items": {"type": "object"}},
            "awaiting": {**seats, "description": "The seats the game waits for."},
            "over": {"type": "boolean"},
            "winners": seats,
            "legal": {
                "type": "array",
                "items": ref("OpenOption"),
                "description": "What your seat may do now (seats only).",
            },
            "revealed": {"type": "boolean", "description": "Everything hidden is shown."},
        },
        "required": ["game", "viewer", "players", "awaiting", "over", "winners", "revealed"],
        "additionalProperties": True,
    }


def event_type_pattern(games: list[str]) -> str:
    """A stored event type of one of ``games`` (``<game>.<Event>``), or an undo marker."""
    names = "|".join(re.escape(g) for g in games)
    return f"^(({names})\\.[A-Za-z0-9_]+|{re.escape(UNDONE)})$"


def _replace_refs(node: Any, old: str, new: str) -> Any:
    """``node`` with every ``$ref`` to component ``old`` pointing at ``new`` instead."""
    if isinstance(node, dict):
        if node.get("$ref") == f"#/components/schemas/{old}":
            return {**node, "$ref": f"#/components/schemas/{new}"}
        return {k: _replace_refs(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_refs(v, old, new) for v in node]
    return node


def _arrays_of(node: Any, name: str) -> Iterator[JsonSchema]:
    """Every array schema in ``node`` whose items are component ``name``."""
    if isinstance(node, dict):
        if node.get("type") == "array" and node.get("items") == ref(name):
            yield node
        for value in node.values():
            yield from _arrays_of(value, name)
    elif isinstance(node, list):
        for value in node:
            yield from _arrays_of(value, name)


def add_game_components(components: dict[str, JsonSchema], viewer: JsonSchema) -> None:
    """Adds every game's parts to ``components`` (drf-spectacular's, with the typed
    state ``GameView`` and the event components) and points the answers at them."""
    for contract in CONTRACTS.values():
        components.update(contract.components())
    untyped = [g for g in GAMES if not typed(g)]
    if untyped:
        components.update(
            OpenCommand=OPEN_COMMAND, OpenEventData=OPEN_EVENT_DATA, OpenOption=OPEN_OPTION
        )
    for game in untyped:
        components[state_component(game)] = open_state(game, viewer)
    _add_states(components)
    _add_events(components, untyped)
    commands = list(dict.fromkeys(command_component(g) for g in GAMES))
    components["AnyCommand"] = {
        "anyOf": [ref(name) for name in commands],
        "description": "A command for your seat in the table's game: "
        + "; ".join(f"{GAMES[g].title}: `{command_component(g)}`" for g in GAMES)
        + ". A `legal` option's `send` is one, ready to send.",
    }


def _add_states(components: dict[str, JsonSchema]) -> None:
    """`GameState`: one of the games' states, told apart by `game` (the service adds it
    to every game's view); the typed state's `game` names its game."""
    for game in CONTRACTS:
        state = components[state_component(game)]
        state["properties"]["game"] = {"type": "string", "enum": [game]}
        state["required"] = sorted({*state.get("required", []), "game"})
    for name, schema in list(components.items()):
        if name != TYPED_STATE:
            components[name] = _replace_refs(schema, TYPED_STATE, "GameState")
    components["GameState"] = {
        "oneOf": [ref(state_component(g)) for g in GAMES],
        "discriminator": {
            "propertyName": "game",
            "mapping": {g: f"#/components/schemas/{state_component(g)}" for g in GAMES},
        },
        "description": "The game as you may see it; its shape is its game's (`game`).",
    }


def _add_events(components: dict[str, JsonSchema], untyped: list[str]) -> None:
    """Each event component for the typed games (its `type` one of theirs) and, copied
    with open `data`, for each other game; every list of events takes any of them."""
    for base in EVENT_COMPONENTS:
        variants = [base] if CONTRACTS else []
        if CONTRACTS:
            _narrow_type(components[base], list(CONTRACTS))
        for game in untyped:
            name = f"{title(game)}{base}"
            assert name not in components, name  # noqa: S101 - a game named like a component
            variant = _replace_refs(components[base], "EventData", "OpenEventData")
            _narrow_type(variant, [game])
            components[name] = variant
            variants.append(name)
        if not CONTRACTS:
            del components[base]
        for schema in components.values():
            for array in _arrays_of(schema, base):
                # anyOf: an undo marker (`stream.Undone`) fits every game's
                array["items"] = {"anyOf": [ref(v) for v in variants]}


def _narrow_type(event: JsonSchema, games: list[str]) -> None:
    event["properties"]["type"] = {
        **event["properties"]["type"],
        "pattern": event_type_pattern(games),
    }
