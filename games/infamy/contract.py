"""Infamy's typed API contract: its own definitions, derived into JSON schemas by
``games.contract_schema`` (which names them ``Infamy...`` in the schema).

The commands and events are the dataclasses of ``commands`` and ``events``; what their
fields hold (a seat, a sector, a faction) is said here by field name; hidden cards are
null (deck shuffles and draws with a ``count``), a sealed sector choice is null to other
seats, and the setup's secrets are absent until the end, as ``view.redact_event`` makes
them. The state is what ``view.view`` returns, closed throughout; the ``legal`` options
list every legal form of a command (``variants``), each a whole command.

Open on purpose: ``GameStarted.stacked`` (a sandbox's stacked decks, shown only once the
game ends) is an object of the sandbox's own keys (docs/rules-infamy.md, "Sandbox").
"""

from __future__ import annotations

import dataclasses
import typing

from games.contract_schema import (
    JsonSchema,
    Redaction,
    closed,
    command_components,
    event_components,
    nullable,
    python_type_schema,
    ref,
)

from . import position
from .cards import BOARD, COLOURS, FACTIONS, RESOURCES, TOKENS
from .codec import COMMAND_TYPES
from .events import EVENT_TYPES
from .state import GameState, PlayerState

MAX_SEAT = len(COLOURS) - 1
# ``timeout`` is the system's (a seat gets 403 system_only).
CLIENT_COMMANDS = [name for name in COMMAND_TYPES if name != "timeout"]
JSON_NAMES = {"source": "from", "target": "to"}  # as ``codec`` names them

SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": MAX_SEAT}
SEATS: JsonSchema = {"type": "array", "items": SEAT}
SECTOR: JsonSchema = {"type": "integer", "minimum": min(BOARD), "maximum": max(BOARD)}
FACTION: JsonSchema = {"type": "string", "enum": list(FACTIONS)}
RESOURCE: JsonSchema = {"type": "string", "enum": list(RESOURCES)}
TOKEN: JsonSchema = {"type": "string", "enum": list(TOKENS)}
SCHEME_ID: JsonSchema = {"type": "string", "pattern": "^[a-z][0-9]{2}$", "examples": ["h01"]}
JOB_ID: JsonSchema = {"type": "string", "pattern": "^j[0-9]{2}$", "examples": ["j01"]}
CONTACT_ID: JsonSchema = {"type": "string", "pattern": "^c[0-9]{2}$", "examples": ["c01"]}
SPACE_ID: JsonSchema = {
    "type": "string",
    "pattern": "^[1-9]/[a-z_]+$",
    "description": "A board space: `<sector>/<space>`, e.g. `3/supply`.",
    "examples": ["3/supply"],
}


def _of(schema: JsonSchema) -> JsonSchema:
    return {"type": "object", "properties": {}, "additionalProperties": schema}


def _each(keys: tuple[str, ...] | list[str], schema: JsonSchema) -> JsonSchema:
    """An object with every one of ``keys``, each ``schema``."""
    return closed({k: schema for k in keys}, list(keys))


COUNT: JsonSchema = {"type": "integer", "minimum": 0}
INT_: JsonSchema = {"type": "integer"}

# What a place's or a scheme's ``choices`` may name (``codec``'s choices, legal.py's
# variants); each is optional and may be null.
CHOICES: JsonSchema = closed(
    {
        "deck": nullable(FACTION),
        "hazard": nullable({"type": "string"}),
        "sabotage": nullable(JOB_ID),
        "space": nullable({"type": "string"}),
        "resource": nullable(RESOURCE),
        "rival": nullable(SEAT),
        "from": nullable(SECTOR),
        "to": nullable(SECTOR),
        "jobs": nullable({"type": "array", "items": JOB_ID}),
        "decks": nullable({"type": "array", "items": FACTION}),
        "give": nullable({"type": "array", "items": RESOURCE}),
        "take": nullable({"type": "array", "items": RESOURCE}),
    },
    [],
    "The choices a placement's job reward or a scheme asks for (docs/rules-infamy.md, "
    '"Commands").',
)

# What a field of a command holds, by its (JSON) name.
COMMAND_FIELDS: dict[str, JsonSchema] = {
    "from": SECTOR,
    "to": SECTOR,
    "total": {"type": "integer", "minimum": 1},
    "choice": {"type": "string", "enum": ["infamy", "rep"]},
    "faction": FACTION,
    "resource": RESOURCE,
    "deck": FACTION,
    "job": JOB_ID,
    "hazard": SPACE_ID,
    "sector": SECTOR,
    "accomplice": SECTOR,
    "rival": SEAT,
    "card": SCHEME_ID,
    "figure": {"type": "string", "enum": ["own", "accomplice"]},
    "space": {"type": "string", "enum": ["job", "hq", "supply"]},
    "choices": ref("Choices"),
}
# What a field of an event holds, by its name.
EVENT_FIELDS: dict[str, JsonSchema] = {
    "seat": SEAT,
    "rival": SEAT,
    "from": {**SEAT, "description": "The seat stolen from."},
    "to": {**SEAT, "description": "The seat that stole."},
    "WatchdogMoved.from": {**SECTOR, "description": "The sector the Watchdog left."},
    "WatchdogMoved.to": {**SECTOR, "description": "The sector the Watchdog went to."},
    "sector": SECTOR,
    "faction": FACTION,
    "colours": {"type": "array", "items": {"type": "string"}},
    "winners": SEATS,
    "order": SEATS,
    "choices": ref("Choices"),
    "SectorsRevealed.choices": {
        "type": "array",
        "items": {"type": "array", "items": INT_, "minItems": 3, "maxItems": 3},
        "description": "Each seat's [seat, sector, accomplice's sector or 0].",
    },
    "stacked": {
        "type": "object",
        "additionalProperties": True,
        "description": "A sandbox's stacked decks (its own keys); hidden until the end.",
    },
    "n": COUNT,
}

REDACTION = Redaction(
    absent={"GameStarted": frozenset({"seed", "stacked", "salt"})},
    nulled={
        "JobDeckShuffled": frozenset({"cards"}),
        "SchemeDeckShuffled": frozenset({"cards"}),
        "ContactDeckShuffled": frozenset({"cards"}),
        "SchemesDrawn": frozenset({"cards"}),
        "SchemeStolen": frozenset({"card"}),
        "SectorChosen": frozenset({"sector", "accomplice"}),
    },
    counted=frozenset({"JobDeckShuffled", "SchemeDeckShuffled", "ContactDeckShuffled"})
    | {"SchemesDrawn"},
    json_names=JSON_NAMES,
    optional={"GameStarted": frozenset({"position"})},
)
EVENT_FIELDS["GameStarted.position"] = {
    **ref("Position"),
    "description": "Only in a game started from a position: the position, as you may see it.",
}


def _fields_schema(cls: type, leave_out: tuple[str, ...] = ()) -> JsonSchema:
    """A state dataclass as JSON, field for field (what a position document holds)."""
    hints = typing.get_type_hints(cls)
    properties: JsonSchema = {}
    for f in dataclasses.fields(cls):
        if f.name in leave_out:
            continue
        hint = hints[f.name]
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = args[0] if len(args) == 1 and type(None) in typing.get_args(hint) else hint
        if dataclasses.is_dataclass(inner):
            schema = _fields_schema(inner)  # type: ignore[arg-type]
            properties[f.name] = nullable(schema) if inner is not hint else schema
        elif typing.get_origin(hint) is tuple and dataclasses.is_dataclass(
            typing.get_args(hint)[0]
        ):
            properties[f.name] = {
                "type": "array",
                "items": _fields_schema(typing.get_args(hint)[0]),
            }
        else:
            properties[f.name] = python_type_schema(hint, "", {})
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _position_schema() -> JsonSchema:
    out = _fields_schema(GameState, position.LEFT_OUT)
    props = out["properties"]
    player = _fields_schema(PlayerState, position.PLAYER_LEFT_OUT)
    player["properties"]["hand"] = {
        **nullable(player["properties"]["hand"]),
        "description": "null when hidden from you (see `hand_count`).",
    }
    player["properties"]["hand_count"] = COUNT
    player["required"] = ["colour"]
    props["players"] = {"type": "array", "items": player, "minItems": 3, "maxItems": 4}
    for deck in ("job_deck", "contact_deck", "scheme_decks", "stacked_contacts", "choices"):
        props[deck] = {**nullable(props[deck]), "description": "null when hidden from you."}
    for deck in ("job_deck_count", "contact_deck_count"):
        props[deck] = COUNT
    props["scheme_decks_count"] = {"type": "array", "items": COUNT}
    props["chosen"] = {"type": "array", "items": {"type": "boolean"}}
    props["choices"] = {
        **nullable(
            {"type": "array", "items": nullable({"type": "array", "items": {"type": "integer"}})}
        ),
        "description": "The sealed sector choices: each seat sees its own only.",
    }
    out["required"] = list(position.REQUIRED)
    out["description"] = (
        'A start position (docs/rules-infamy.md, "Start positions"): a sandbox table\'s '
        "`options.position`; the game's state field for field."
    )
    return out


COMMAND_EXAMPLES: dict[str, JsonSchema] = {
    "choose a sector": {"type": "choose_sector", "sector": 3},
    "bid on the contact": {"type": "bid", "total": 2},
    "pass": {"type": "pass"},
    "place on a supply space": {"type": "place", "figure": "own", "space": "supply"},
}

# What a refusal's ``data`` (the error's `extra`) may carry, by key.
REFUSAL_DATA: dict[str, JsonSchema] = {
    "awaiting": {**SEATS, "description": "The seats the step waits for."},
    "choices": {
        "type": "array",
        "items": {"type": ["string", "integer"]},
        "description": "What may be chosen instead (seats, sectors, decks, ...).",
    },
    "deadline": {**nullable(INT_), "description": "The step's deadline (ms)."},
    "field": {
        "type": "string",
        "description": "The field at fault (`bad_position`: a path, `players.1.hand.2`).",
    },
    "job": {"type": ["string", "null"], "description": "The job at fault (as named)."},
    "maximum": {"type": "integer", "description": "`bid_too_low`: the highest bid."},
    "minimum": {"type": "integer", "description": "`bid_too_low`: the lowest bid."},
    "reason": {
        "type": "string",
        "enum": ["wrong_round", "watchdog_sector", "deck_empty"],
        "description": "The specific reason within the code: `not_allowed_now`: wrong_round "
        "(a Day/Night-only scheme, IR-29); `illegal_target`: watchdog_sector (IR-13, IR-39), "
        "deck_empty (a scheme deck and its discard pile are empty).",
    },
    "round": {
        "type": "string",
        "enum": ["day", "night"],
        "description": "`wrong_round`: the round the scheme is played in.",
    },
    "seat": {"type": ["integer", "null"], "description": "The seat at fault."},
    "seats": {"type": "integer", "description": "`bad_options`: the seats asked for."},
    "space": {"type": ["string", "null"], "description": "The space at fault."},
    "step": {"type": "string", "description": "The step the game is in."},
    "types": {
        "type": "array",
        "items": {"type": "string"},
        "description": "`bad_command`: the command types.",
    },
    "watchdogs": {"type": "array", "items": SECTOR, "description": "The Watchdogs' sectors."},
    "winners": {
        "type": "array",
        "items": {"type": "integer"},
        "description": "`game_over`: the winners.",
    },
}

# --- the state -----------------------------------------------------------------------------

STRING = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
RECONSTRUCTED = {"type": "boolean", "description": "Stand-in content (docs/rules-infamy.md)."}

JOB: JsonSchema = closed(
    {
        "id": JOB_ID, "name": STRING, "type": {"type": "string", "enum": ["U", "V", "I"]},
        "sector": SECTOR,
        "requires": closed({t: COUNT for t in TOKENS}, []),
        "reward": {**STRING, "description": "What completing it gives, in words."},
        "infamy": COUNT, "rep": COUNT, "factions": {"type": "array", "items": FACTION},
        "reconstructed": RECONSTRUCTED,
    },
    ["id", "name", "type", "sector", "requires", "reward", "infamy", "rep", "factions",
     "reconstructed"],
)  # fmt: skip
SCHEME: JsonSchema = closed(
    {
        "id": SCHEME_ID, "faction": FACTION, "name": STRING,
        "round": {"type": "string", "enum": ["day", "night", "any"]}, "text": STRING,
        "reconstructed": RECONSTRUCTED,
    },
    ["id", "faction", "name", "round", "text", "reconstructed"],
)  # fmt: skip
SCHEMES: JsonSchema = {"type": "array", "items": ref("Scheme")}
PLAYER: JsonSchema = closed(
    {
        "seat": SEAT, "name": STRING, "colour": STRING,
        "resources": _each(RESOURCES, COUNT), "henchmen": COUNT, "favors": COUNT,
        "bribes": _each(("available", "spent", "on_contacts"), COUNT),
        "reputation": _each(FACTIONS, COUNT), "infamy": COUNT,
        "jobs": {"type": "array", "items": ref("Job"), "description": "Completed jobs."},
        "hand_size": COUNT,
        "hand": {**SCHEMES, "description": "Your own seat, staff, or after the end."},
        "out": BOOL, "resigned": BOOL,
        "chosen": {**BOOL, "description": "The sector step: this seat has committed."},
        "sector": {**SECTOR, "description": "Its committed sector, once you may see it."},
        "accomplice_sector": SECTOR,
    },
    ["seat", "name", "colour", "resources", "henchmen", "favors", "bribes", "reputation",
     "infamy", "jobs", "hand_size", "out", "resigned"],
)  # fmt: skip
CONTACT: JsonSchema = closed(
    {
        "id": CONTACT_ID, "name": STRING, "factions": {"type": "array", "items": FACTION},
        "text": STRING, "position": {"type": "integer", "minimum": 0, "maximum": 4},
        "result": {"type": "string", "enum": ["won", "unclaimed", "pending"]},
        "winner": nullable(SEAT),
    },
    ["id", "name", "factions", "text", "position", "result", "winner"],
)  # fmt: skip
SECTOR_INFO: JsonSchema = closed(
    {"sector": SECTOR, "name": STRING, "hq": FACTION,
     "supply": {"type": "string", "enum": sorted({s.supply for s in BOARD.values()})},
     "reconstructed": RECONSTRUCTED},
    ["sector", "name", "hq", "supply", "reconstructed"],
)  # fmt: skip
NULLABLE_SEAT = nullable(SEAT)
PERK: JsonSchema = closed(
    {"level": {"type": "integer", "minimum": 1, "maximum": 4}, "name": STRING,
     "gains": {"type": "object", "additionalProperties": COUNT}, "draw": BOOL,
     "income": nullable(TOKEN), "reconstructed": RECONSTRUCTED},
    ["level", "name", "gains", "draw", "income", "reconstructed"],
)  # fmt: skip
STATE: JsonSchema = closed(
    {
        "rules_version": INT, "content_version": STRING, "reconstructed": RECONSTRUCTED,
        "players": {"type": "array", "items": ref("Player")},
        "round": COUNT, "turn": COUNT, "day": BOOL,
        "step": {**STRING, "description": "The step the game is in (docs/rules-infamy.md)."},
        "step_key": STRING, "awaiting": SEATS,
        "deadline": {**nullable(INT), "description": "The step's deadline (ms), if any."},
        "bodyguard": NULLABLE_SEAT,
        "board": {"type": "array", "items": ref("Sector")},
        "perks": {**_each(FACTIONS, {"type": "array", "items": PERK}),
                  "description": "Each faction's perks by level, in this game's content."},
        "in_play": {**nullable(ref("Scheme")),
                    "description": "The scheme resolving (rules 2, I-8.1): Informer Network "
                    "while its discard is awaited."},
        "watchdogs": {"type": "array", "items": SECTOR}, "watchdogs_in_supply": COUNT,
        "hazards": {"type": "array", "items": SPACE_ID}, "hazards_in_supply": COUNT,
        "supply": _each(TOKENS, COUNT),
        "figures": {"type": "array", "items": closed(
            {"space": SPACE_ID, "seat": SEAT, "figure": COMMAND_FIELDS["figure"]},
            ["space", "seat", "figure"])},
        "jobs": {"type": "array", "items": ref("Job"), "description": "Available jobs."},
        "job_deck_size": COUNT,
        "contact_track": {"type": "array", "items": ref("Contact")},
        "contact_deck_size": COUNT,
        "auction": nullable(ref("Auction")),
        "thug": nullable(closed({"rival": SEAT, "resource": RESOURCE}, ["rival", "resource"])),
        "this_round": closed(
            {"accomplice": NULLABLE_SEAT, "sector_chief": NULLABLE_SEAT,
             "smuggler": NULLABLE_SEAT, "informant": NULLABLE_SEAT, "smuggler_forgone": BOOL},
            ["accomplice", "sector_chief", "smuggler", "informant", "smuggler_forgone"]),
        "order": SEATS, "done": SEATS,
        "scheme_decks": _each(FACTIONS, COUNT),
        "scheme_discards": _each(FACTIONS, SCHEMES),
        "seed_hash": STRING, "over": BOOL, "winners": SEATS,
        "decks": {**closed(
            {"jobs": {"type": "array", "items": JOB_ID},
             "contacts": {"type": "array", "items": CONTACT_ID},
             "schemes": _each(FACTIONS, {"type": "array", "items": SCHEME_ID})},
            ["jobs", "contacts", "schemes"]),
            "description": "Staff, or after the end: the decks, top first."},
        "legal": {"type": "array", "items": ref("Option"),
                  "description": "What your seat may do now (seats only)."},
    },
    ["rules_version", "content_version", "reconstructed", "players", "round", "turn", "day",
     "step", "step_key", "awaiting", "deadline", "bodyguard", "board", "perks", "in_play",
     "watchdogs",
     "watchdogs_in_supply", "hazards", "hazards_in_supply", "supply", "figures", "jobs",
     "job_deck_size", "contact_track", "contact_deck_size", "auction", "thug", "this_round",
     "order", "done", "scheme_decks", "scheme_discards", "seed_hash", "over", "winners"],
    "The game as you may see it (docs/rules-infamy.md).",
)  # fmt: skip
AUCTION: JsonSchema = closed(
    {
        "position": {"type": "integer", "minimum": 0, "maximum": 4}, "contact": CONTACT_ID,
        "bids": {"type": "array", "items": COUNT, "description": "Bribes on it, by seat."},
        "high": NULLABLE_SEAT, "passes": SEATS, "bidders": SEATS,
    },
    ["position", "contact", "bids", "high", "passes", "bidders"],
)  # fmt: skip
OPTION: JsonSchema = closed(
    {
        "command": {"type": "string", "enum": CLIENT_COMMANDS},
        "send": {**ref("Command"), "description": "A command to POST as it is."},
        "ready": BOOL,
        "variants": {
            "type": "array",
            "items": ref("Command"),
            "description": "Every legal form of the command, each whole (several forms).",
        },
    },
    ["command", "send", "ready"],
    "One kind of thing your seat may do now; `send` (or any of `variants`) is sent as is.",
)


def components() -> dict[str, JsonSchema]:
    """Every component of Infamy's contract, by local name."""
    out = command_components(
        {t: COMMAND_TYPES[t] for t in CLIENT_COMMANDS},
        COMMAND_FIELDS,
        'An Infamy command for your seat (docs/rules-infamy.md, "Commands"), told apart '
        "by `type`. A `legal` option's `send` is one, ready to send.",
        JSON_NAMES,
    )
    out.update(
        event_components(
            EVENT_TYPES,
            EVENT_FIELDS,
            REDACTION,
            "The event as you may see it, told apart by `type`; hidden cards and sealed "
            "choices are null.",
        )
    )
    out.update(
        State=STATE, Player=PLAYER, Job=JOB, Scheme=SCHEME, Contact=CONTACT,
        Sector=SECTOR_INFO, Auction=AUCTION, Choices=CHOICES, Option=OPTION,
        Position=_position_schema(),
    )  # fmt: skip
    return out
