"""The per-game parts of the OpenAPI schema, from every registered game's contract.

Every game in ``games.registry.GAMES`` has a contract (``games.registry.CONTRACTS``; a game
without one fails the schema, and tests/api/test_contract.py). Its components carry its
prefix (``games.contract_schema.prefixed``): ``SomeGameState``, ``SomeGameCommand``,
``SomeGameGameStartedEvent``, ...; and each answer that holds an event is copied per game
(``SomeGameEvent``, ``SomeGameAuditEvent``, ``SomeGameRecordEvent``) with that game's
``EventData`` and its `type` narrowed to the game's prefix.

Two documents are served (docs/api.md, "Typed per game"):

- every game (``/api/v1/schema``): a state is one of the games' states, told apart by
  `game` (``GameState``); an event one of the games' events (its `type`'s prefix says which,
  ``anyOf``); a command any game's (``AnyCommand``: the body does not say the game, the
  path's table does).
- one game (``/api/v1/schema?game=<name>``): the same document with those unions replaced
  by that game's own components and every other game's components left out, for a client
  of that game alone. Component names are the same in both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from games.contract_schema import (
    COMMAND,
    EVENT_DATA,
    REF,
    REQUIRED_COMPONENTS,
    STATE,
    JsonSchema,
    prefix_of,
    prefixed,
    prefixed_refs,
    ref,
)
from games.reads import UNDONE
from games.registry import CONTRACTS, GAMES

# The service's components that stand for "the table's game's": a state, a command, and
# the components of one event as the API shows it (feed and command answers, the audit
# trail, the export), each with a `type` and a `data` (``EVENT_DATA``).
GAME_STATE = "GameState"
ANY_COMMAND = "AnyCommand"
EVENT_COMPONENTS = ("Event", "AuditEvent", "RecordEvent")


def state_component(game: str) -> str:
    return f"{prefix_of(game)}{STATE}"


def command_component(game: str) -> str:
    return f"{prefix_of(game)}{COMMAND}"


def event_type_pattern(game: str) -> str:
    """A stored event type of ``game`` (``<game>.<Event>``), or an undo marker."""
    return f"^({re.escape(game)}\\.[A-Za-z0-9_]+|{re.escape(UNDONE)})$"


def game_components(game: str, viewer: JsonSchema) -> dict[str, JsonSchema]:
    """``game``'s contract under its prefix, its state with what the service adds to every
    game's view (``games.reads.state_view``)."""
    try:
        contract = CONTRACTS[game]
    except KeyError:
        raise KeyError(f"{game} has no contract in games.registry.CONTRACTS") from None
    components = prefixed(game, contract.components())
    missing = [n for n in REQUIRED_COMPONENTS if f"{prefix_of(game)}{n}" not in components]
    if missing:
        raise KeyError(f"{game}'s contract lacks {', '.join(missing)}")
    state = components[state_component(game)]
    state["properties"] = {
        "game": {"type": "string", "enum": [game]},
        "viewer": viewer,
        **state["properties"],
        "revealed": {
            "type": "boolean",
            "description": "Everything hidden is shown (the game is over, or a finished "
            "game is replayed at an earlier point).",
        },
        "seed": {"type": "string", "description": "Once everything is revealed."},
    }
    state["required"] = sorted({*state.get("required", []), "game", "viewer", "revealed"})
    return components


def add_game_components(
    components: dict[str, JsonSchema], viewer: JsonSchema, games: Iterable[str] = ()
) -> None:
    """Adds ``games``' components (every registered game's by default) to ``components``
    (drf-spectacular's) and points the answers at them: at the unions of several games,
    at the game's own components for one."""
    chosen = list(games) or list(GAMES)
    for game in chosen:
        own = game_components(game, viewer)
        clash = set(own) & set(components)
        assert not clash, clash  # noqa: S101 - a game named like a service component
        components.update(own)
    replace: dict[str, JsonSchema] = {}
    for base in EVENT_COMPONENTS:
        variants = []
        for game in chosen:
            name = f"{prefix_of(game)}{base}"
            variant = _replace_refs(
                components[base], {EVENT_DATA: ref(f"{prefix_of(game)}{EVENT_DATA}")}
            )
            variant["properties"]["type"] = {
                **variant["properties"]["type"],
                "pattern": event_type_pattern(game),
            }
            components[name] = variant
            variants.append(ref(name))
        del components[base]
        # anyOf: an undo marker (`stream.Undone`) fits every game's
        replace[base] = variants[0] if len(variants) == 1 else {"anyOf": variants}
    if len(chosen) == 1:
        replace[GAME_STATE] = ref(state_component(chosen[0]))
        replace[ANY_COMMAND] = ref(command_component(chosen[0]))
    else:
        components[GAME_STATE] = {
            "oneOf": [ref(state_component(g)) for g in chosen],
            "discriminator": {
                "propertyName": "game",
                "mapping": {g: f"{REF}{state_component(g)}" for g in chosen},
            },
            "description": "The game as you may see it; its shape is its game's (`game`).",
        }
        components[ANY_COMMAND] = {
            "anyOf": [ref(command_component(g)) for g in chosen],
            "description": "A command for your seat in the table's game: "
            + "; ".join(f"{GAMES[g].title}: `{command_component(g)}`" for g in chosen)
            + ". A `legal` option's `send` is one, ready to send.",
        }
    for name, schema in list(components.items()):
        components[name] = _replace_refs(schema, replace)


def error_extra(service: JsonSchema, games: Iterable[str] = ()) -> JsonSchema:
    """The error envelope's `extra`: the service's keys, then each key ``games``' refusals
    may carry (their contracts' ``REFUSAL_DATA``); a key the service and games, or two
    games, type differently is any of their types. Still open: a refusal's keys depend on
    its code."""
    chosen = list(games) or list(GAMES)
    properties = dict(service["properties"])
    by_key: dict[str, list[tuple[str, JsonSchema]]] = {}
    for game in chosen:
        contract = CONTRACTS[game]
        local = contract.components()
        for key, schema in contract.REFUSAL_DATA.items():
            typed = prefixed_refs(game, schema, local)
            by_key.setdefault(key, []).append((GAMES[game].title, typed))
    for key, typed in sorted(by_key.items()):
        schemas = [_bare(schema) for _, schema in typed]
        said = [f"{title}: {schema.get('description', '')}" for title, schema in typed]
        if key in properties:  # a key the service's refusals have too
            schemas.insert(0, _bare(properties[key]))
            said.insert(0, properties[key].get("description", ""))
        distinct = [x for i, x in enumerate(schemas) if x not in schemas[:i]]
        properties[key] = {
            **(distinct[0] if len(distinct) == 1 else {"anyOf": distinct}),
            "description": "; ".join(said),
        }
    return {**service, "properties": properties}


def command_examples(games: Iterable[str] = ()) -> dict[str, JsonSchema]:
    """Request examples of a command (what "Try it out" sends), from each of ``games``'
    contracts (``COMMAND_EXAMPLES``), by OpenAPI example name."""
    out: dict[str, JsonSchema] = {}
    for game in list(games) or list(GAMES):
        for summary, command in CONTRACTS[game].COMMAND_EXAMPLES.items():
            words = re.sub(r"[^A-Za-z0-9 ]", "", summary).title().replace(" ", "")
            out[f"{prefix_of(game)}{words}"] = {
                "summary": f"{GAMES[game].title}: {summary}",
                "value": {"command": command},
            }
    return out


def _bare(schema: JsonSchema) -> JsonSchema:
    return {k: v for k, v in schema.items() if k != "description"}


def _replace_refs(node: Any, replace: dict[str, JsonSchema]) -> Any:
    """``node`` with every ``$ref`` to a component named in ``replace`` replaced by its
    schema there (its siblings, a description, kept)."""
    if isinstance(node, dict):
        target = node.get("$ref", "")
        name = target.removeprefix(REF) if isinstance(target, str) else ""
        if name in replace:
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**replace[name], **rest}
        return {k: _replace_refs(v, replace) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_refs(v, replace) for v in node]
    return node


def _refs(node: Any) -> Iterable[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(REF):
                yield value.removeprefix(REF)
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def drop_unused_components(schema: dict[str, Any]) -> None:
    """Leaves out the components no operation reaches (another game's, in one game's
    document)."""
    components = schema["components"]["schemas"]
    reached: set[str] = set()
    todo = list(_refs(schema["paths"]))
    while todo:
        name = todo.pop()
        if name not in reached and name in components:
            reached.add(name)
            todo.extend(_refs(components[name]))
    for name in set(components) - reached:
        del components[name]
