"""Scarface 1920's typed API contract, derived into JSON schemas by
``games.contract_schema`` (named ``Scarface...`` in the schema).

The commands and events are the dataclasses of ``commands`` and ``events``, except the
order command, whose fields depend on the order (``commands.ORDER_FIELDS``): its schema is
written here. Hidden cards are null (draws, deals, offers, bottomed cards and deck
shuffles with a ``count``; a kept job's ``card``), and the setup's secrets are absent until
the end, as ``view.redact_event`` makes them. The state is what ``view.view`` returns.

Open on purpose: ``GameStarted.stacked`` (the shared decks' orders and a sandbox's stacked
decks, hidden until the end), the ``detail`` of skill, order and zone events (what the
effect did, by effect). A skill's or job's ``choices`` is typed (``CHOICES``): goods'
``store``, Hire Muscle's ``steps`` and, from rules version 2, the targets of the targeted
skills (``moves``, ``to``, ``tile``, ``business``, ``target``, ``district``, ``sale``,
``place_truck``).
"""

from __future__ import annotations

import dataclasses
import typing

from games.contract_schema import (
    SEAT_FIELD,
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
from .commands import COMMAND_TYPES, ORDER_FIELDS
from .content import BUSINESSES, COLUMNS, DISTRICTS, GANGS, GOODS
from .events import EVENT_TYPES
from .state import GameState, PlayerState

JSON_NAMES = {"source": "from", "target": "to"}
SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 3}
SEATS: JsonSchema = {"type": "array", "items": SEAT}
COUNT: JsonSchema = {"type": "integer", "minimum": 0}
INT: JsonSchema = {"type": "integer"}
STRING: JsonSchema = {"type": "string"}
BOOL: JsonSchema = {"type": "boolean"}
CARD: JsonSchema = {"type": "string", "description": "A card id (`a09`, `j07`, `outfit-s1` ...)."}
CARDS: JsonSchema = {"type": "array", "items": CARD}
GOOD: JsonSchema = {"type": "string", "enum": list(GOODS)}
DISTRICT: JsonSchema = {"type": "string", "enum": list(DISTRICTS)}
TILE: JsonSchema = {"type": "string", "pattern": "^n[0-9]{2}$", "examples": ["n18"]}
PLACE: JsonSchema = {"type": "string", "description": "A tile id or one of your dealer ids."}
OPEN: JsonSchema = {
    "type": "object",
    "additionalProperties": True,
    "description": "What the effect did or asks for, by effect (docs/rules-scarface.md).",
}
PAY: JsonSchema = {
    "type": "array",
    "items": closed(
        {"from": PLACE, "good": GOOD, "n": {"type": "integer", "minimum": 1}}, ["from", "good", "n"]
    ),
}
STORE: JsonSchema = {
    "type": "array",
    "items": closed(
        {"to": PLACE, "good": GOOD, "n": {"type": "integer", "minimum": 1}}, ["to", "good", "n"]
    ),
}
SALES: JsonSchema = {"type": "array", "items": closed({"tile": TILE, "pay": PAY}, ["tile"])}
STEPS: JsonSchema = {"type": "array", "items": {"type": "string", "enum": ["safe", "slums"]}}
GOODS_LIST: JsonSchema = {
    "type": "array",
    "items": closed({"good": GOOD, "n": {"type": "integer", "minimum": 1}}, ["good", "n"]),
}

PIECE_MOVE: JsonSchema = closed(
    {"what": {"type": "string", "enum": ["thug", "car", "truck"]}, "from": DISTRICT,
     "to": DISTRICT, "riders": {"type": "integer", "minimum": 0, "maximum": 2,
                                "description": "The Chauffeur's car only."}},
    ["what", "from", "to"], "A piece moved by a move skill (SR-54).",
)  # fmt: skip
GOODS_MOVE: JsonSchema = closed(
    {"from": PLACE, "to": PLACE, "good": GOOD, "n": {"type": "integer", "minimum": 1}},
    ["from", "to", "good", "n"], "Goods moved by the Warehouse Keeper (2 in all).",
)  # fmt: skip
CHOICES: JsonSchema = closed(
    {
        "store": {**STORE, "description": "Where gained goods go (SR-51)."},
        "steps": {**STEPS, "description": "Hire Muscle's recruit steps."},
        "moves": {"type": "array", "minItems": 1, "items": {"oneOf": [PIECE_MOVE, GOODS_MOVE]},
                  "description": "Rules 2: a move skill's pieces (1; the Truck Boss up to 2), "
                  "or the Warehouse Keeper's goods."},
        "to": {**DISTRICT, "description": "Rules 2: where a send skill sends its thug."},
        "tile": {**TILE, "description": "Rules 2: the tile a business marker goes on."},
        "business": {"type": "string", "enum": list(BUSINESSES),
                     "description": "Rules 2: the marker's type (the Croupier: gambling_den)."},
        "target": {**SEAT, "description": "Rules 2: the Hitman's victim."},
        "district": {**DISTRICT, "description": "Rules 2: where the Hitman hits."},
        "sale": {**closed({"tile": TILE, "pay": PAY}, ["tile"]),
                 "description": "Rules 2: the Rail Baron's extra sale."},
        "place_truck": {**BOOL, "description": "Rules 2: the Truck Boss puts a truck home."},
    },
    [],
    "A skill's or job's choices, by effect (docs/rules-scarface.md, \"Skills\").",
)  # fmt: skip

COMMAND_FIELDS: dict[str, JsonSchema] = {
    "cards": {**CARDS, "minItems": 1},
    "card": CARD,
    "skill": {"type": "integer", "minimum": 1, "maximum": 4},
    "choices": {**CHOICES, "description": "The effect's choices and targets."},
    "keep": CARD,
    "bottom": nullable(CARDS),
    "row": nullable({"type": ["integer", "string"], "description": "`new` or a row index."}),
    "storage": nullable(GOOD),
    "job": CARD,
    "pay": nullable(PAY),
    "sales": SALES,
    "steps": STEPS,
}
ORDER_ARGS: dict[str, JsonSchema] = {
    "associate": CARD,
    "to": {"description": "Recruit an associate: `hand` or `discard`; Send thugs: "
           "{district: n}.", "oneOf": [
               {"type": "string", "enum": ["hand", "discard"]},
               {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}}]},
    "pay": PAY,
    "sales": {**SALES, "minItems": 1},
    "steps": {**STEPS, "minItems": 1},
    "adds": {"type": "array", "minItems": 1, "items": closed(
        {"tile": TILE, "type": {"type": "string", "enum": list(BUSINESSES)}}, ["tile", "type"])},
    "tiles": {"type": "array", "minItems": 1, "items": TILE},
    "moves": {"type": "array", "minItems": 1, "items": closed(
        {"what": {"type": "string", "enum": ["thug", "car", "truck"]}, "from": DISTRICT,
         "to": DISTRICT, "riders": {"type": "integer", "minimum": 0, "maximum": 2}},
        ["what", "from", "to"])},
    "tile": TILE,
    "row": {"type": "integer", "minimum": 0},
    "extra": {"type": "array", "items": GOOD},
    "store": STORE,
    "column": {"type": "string", "enum": list(COLUMNS)},
    "hat": closed({"card": CARD, "to": {"type": "string", "enum": ["hand", "discard"]},
                   "pay": PAY}, ["card", "to"]),
    "district": DISTRICT,
}  # fmt: skip
ORDER_COMMAND: JsonSchema = closed(
    {"type": {"type": "string", "enum": ["order"]},
     "order": {"type": "string", "enum": list(ORDER_FIELDS)}, **ORDER_ARGS, "seat": SEAT_FIELD},
    ["type", "order"],
    "An order (S-6): `order` names one of the 15; each reads only its own fields "
    "(docs/rules-scarface.md, \"Commands\").",
)  # fmt: skip

EVENT_FIELDS: dict[str, JsonSchema] = {
    "seat": SEAT,
    "winners": SEATS,
    "names": {"type": "array", "items": STRING},
    "gangs": {"type": "array", "items": {"type": "string", "enum": list(GANGS)}},
    "cards": CARDS,
    "MarketChanged.cards": {"type": "array", "items": nullable(CARD)},
    "detail": OPEN,
    "paid": PAY,
    "goods": PAY,
    "DealerBought.goods": GOODS_LIST,
    "stacked": {**OPEN, "description": "The shared decks' orders; hidden until the end."},
    "GameStarted.position": {
        **ref("Position"),
        "description": "Only in a game started from a position: the position, as you may see it.",
    },
    "cash": {"type": "array", "items": INT},
    "final_income": {"type": "array", "items": INT},
    "ControlChanged.from": nullable(SEAT),
    "ControlChanged.to": nullable(SEAT),
    "CrimeChanged.from": INT,
    "CrimeChanged.to": INT,
    "n": COUNT,
}

REDACTION = Redaction(
    absent={"GameStarted": frozenset({"seed", "stacked", "salt"})},
    nulled={
        "DeckShuffled": frozenset({"cards"}),
        "CardsDrawn": frozenset({"cards"}),
        "JobsDealt": frozenset({"cards"}),
        "CardsOffered": frozenset({"cards"}),
        "CardsBottomed": frozenset({"cards"}),
        "JobKept": frozenset({"card"}),
    },
    counted=frozenset({"DeckShuffled", "CardsDrawn", "JobsDealt", "CardsOffered", "CardsBottomed"}),
    json_names=JSON_NAMES,
    optional={"GameStarted": frozenset({"position"})},
)

COMMAND_EXAMPLES: dict[str, JsonSchema] = {
    "lay out a plan": {"type": "plan", "cards": ["outfit-boss", "outfit-s1"]},
    "use a boss skill": {"type": "boss_skill", "skill": 1},
    "move a car with a skill": {
        "type": "skill",
        "card": "a22",
        "choices": {"moves": [{"what": "car", "from": "D7", "to": "D1"}]},
    },
    "sell in a neighbourhood": {"type": "order", "order": "sell", "sales": [{"tile": "n18"}]},
    "end the turn": {"type": "end_turn"},
}

REFUSAL_DATA: dict[str, JsonSchema] = {
    "awaiting": {**SEAT, "description": "The seat whose turn it is."},
    "step": {**STRING, "description": "The step the game awaits."},
    "field": {**STRING, "description": "The field at fault."},
    "types": {"type": "array", "items": STRING, "description": "`bad_command`: the types."},
    "orders": {"type": "array", "items": STRING, "description": "`bad_command`: the orders."},
    "card": {"description": "The card at fault.", "type": ["string", "null"]},
    "cards": {"type": "array", "items": STRING, "description": "The cards that may be listed."},
    "job": {**STRING, "description": "The job at fault."},
    "tile": {**STRING, "description": "The tile at fault."},
    "tiles": {"type": "array", "items": STRING, "description": "The tiles named."},
    "place": {**STRING, "description": "The place (tile or dealer) at fault."},
    "good": {**GOOD, "description": "The good lacking."},
    "needed": {**INT, "description": "What is needed (money or goods)."},
    "due": {"description": "What a payment must be.", "type": ["integer", "object"]},
    "allowed": {**INT, "description": "How many are allowed."},
    "deck": {**STRING, "description": "The empty deck."},
    "row": {"description": "The dealer row at fault.", "type": ["integer", "string", "null"]},
    "box": {**STRING, "description": "The thug box without a thug."},
    "column": {**STRING, "description": "The full upgrade column."},
    "business": {**STRING, "description": "The business type exhausted."},
    "support": {**INT, "description": "The seat's dealer support."},
    "skill": {**INT, "description": "The boss skill."},
    "muscle": {**INT, "description": "The muscle needed."},
    "influence": {**INT, "description": "The influence needed."},
}

# --- the state -----------------------------------------------------------------------------

PLAYER: JsonSchema = closed(
    {
        "seat": SEAT, "name": STRING, "gang": {"type": "string", "enum": list(GANGS)},
        "gang_name": STRING, "boss_name": STRING, "in_game": BOOL, "crime": INT,
        "zone": {"type": "string", "enum": ["green", "yellow", "orange", "red"]},
        "boss": COUNT, "level": INT, "hand_limit": INT, "lawyer": INT, "recruiter": INT,
        "dealer_support": INT, "columns": {"type": "object", "additionalProperties": COUNT},
        "hand_count": COUNT, "deck_count": COUNT, "jobs_count": COUNT,
        "discard": CARDS, "plan": CARDS, "aside": CARDS, "done_jobs": CARDS,
        "thugs": {"type": "object", "additionalProperties": COUNT,
                  "description": "Thugs by place (boxes, areas, districts, `row:<k>`)."},
        "cars": {"type": "array", "items": DISTRICT}, "trucks": {"type": "array", "items": DISTRICT},
        "rows": {"type": "array", "items": CARDS},
        "dealer_goods": {"type": "array", "items": closed(
            {"dealer": CARD, "good": GOOD, "n": COUNT}, ["dealer", "good", "n"])},
        "reorganizations": COUNT, "ring": BOOL,
        "hand": {**CARDS, "description": "Your own seat, staff, or after the end."},
        "jobs": {**CARDS, "description": "Your own seat, staff, or after the end."},
        "money": {**INT, "description": "Your own seat, staff, or after the end (S-1.3)."},
        "deck": {**CARDS, "description": "Staff, or after the end: the deck, top first."},
    },
    ["seat", "name", "gang", "gang_name", "boss_name", "in_game", "crime", "zone", "boss",
     "level", "hand_limit", "lawyer", "recruiter", "dealer_support", "columns", "hand_count",
     "deck_count", "jobs_count", "discard", "plan", "aside", "done_jobs", "thugs", "cars",
     "trucks", "rows", "dealer_goods", "reorganizations", "ring"],
)  # fmt: skip
TILE_STATE: JsonSchema = closed(
    {"id": TILE, "name": STRING, "district": DISTRICT, "defence": INT,
     "sale": {"type": "array", "items": closed({"good": GOOD, "n": INT}, ["good", "n"])},
     "money": INT, "owner": nullable(SEAT), "alcohol": COUNT, "gun": COUNT,
     "businesses": {"type": "array", "items": {"type": "string", "enum": list(BUSINESSES)}},
     "nightclub": BOOL, "reconstructed": BOOL},
    ["id", "name", "district", "defence", "sale", "money", "owner", "alcohol", "gun",
     "businesses", "nightclub", "reconstructed"],
)  # fmt: skip
OPTION: JsonSchema = closed(
    {
        "command": {"type": "string", "enum": list(COMMAND_TYPES)},
        "send": {**ref("Command"), "description": "A command to POST as it is."},
        "ready": BOOL,
        "label": STRING,
        "variants": {"type": "array", "items": ref("Command")},
        "variant_labels": {"type": "array", "items": STRING},
    },
    ["command", "send", "ready", "label"],
    "One kind of thing your seat may do now; `send` (or any of `variants`) is sent as is.",
)
STATE: JsonSchema = closed(
    {
        "rules_version": INT, "content_version": STRING, "reconstructed": BOOL,
        "started": BOOL, "over": BOOL, "turn": COUNT, "seat": SEAT,
        "kind": {"type": "string", "enum": ["", "action", "reorganization"]},
        "step": {"type": "string", "enum": ["", "plan", "actions", "choose", "reorg_sales",
                                            "reorg_recruit"]},
        "step_key": STRING, "awaiting": SEATS, "first_seat": SEAT,
        "players": {"type": "array", "items": ref("Player")},
        "tiles": {"type": "array", "items": ref("Tile")},
        "districts": {"type": "array", "items": closed(
            {"id": DISTRICT, "name": STRING, "adjacent": {"type": "array", "items": DISTRICT}},
            ["id", "name", "adjacent"])},
        "police": {"type": "array", "items": DISTRICT}, "ness": COUNT, "time": COUNT,
        "extra_space": INT, "ring": nullable(SEAT), "news": nullable(CARD),
        "news_seen": CARDS, "news_left": COUNT,
        "market": closed({"low": {"type": "array", "items": nullable(CARD)},
                          "high": {"type": "array", "items": nullable(CARD)},
                          "low_deck": COUNT, "high_deck": COUNT},
                         ["low", "high", "low_deck", "high_deck"]),
        "decks": {"type": "object", "additionalProperties": True,
                  "description": "Deck sizes and discard piles; staff and after the end, "
                  "the decks themselves."},
        "businesses_left": {"type": "object", "additionalProperties": COUNT},
        "plan": closed({"muscle": INT, "influence": INT, "skills_used": CARDS,
                        "boss_uses": COUNT, "order_used": BOOL},
                       ["muscle", "influence", "skills_used", "boss_uses", "order_used"]),
        "offered_count": COUNT, "offered": {**CARDS, "description": "Your own offer only."},
        "seed_hash": STRING, "seed": STRING, "winners": SEATS,
        "cash": {"type": "array", "items": INT}, "final_income": {"type": "array", "items": INT},
        "legal": {"type": "array", "items": ref("Option"),
                  "description": "What your seat may do now (seats only): out of turn, "
                  "the jobs it may complete (rules 2, G-8)."},
        "may_complete": {**CARDS, "description": "Your own jobs you may complete now, on "
                         "your turn or out of it (seats only, your view only)."},
    },
    ["rules_version", "content_version", "reconstructed", "started", "over", "turn", "seat",
     "kind", "step", "step_key", "awaiting", "first_seat", "players", "tiles", "districts",
     "police", "ness", "time", "extra_space", "ring", "news", "news_seen", "news_left",
     "market", "decks", "businesses_left", "plan", "offered_count", "seed_hash"],
    "The game as you may see it (docs/rules-scarface.md).",
)  # fmt: skip


def _fields_schema(cls: type, leave_out: tuple[str, ...] = ()) -> JsonSchema:
    """A state dataclass as JSON, field for field (what a position document holds)."""
    hints = typing.get_type_hints(cls)
    properties: JsonSchema = {}
    for f in dataclasses.fields(cls):
        if f.name in leave_out:
            continue
        hint = hints[f.name]
        if hint is typing.Any:  # the deal's recorded deck orders
            properties[f.name] = nullable({"type": "object", "additionalProperties": CARDS})
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
    pprops = player["properties"]
    for key in ("money", "hand", "jobs", "deck"):
        pprops[key] = {**nullable(pprops[key]), "description": "null when hidden from you."}
    for key in ("hand_count", "jobs_count", "deck_count"):
        pprops[key] = COUNT
    player["required"] = ["gang"]
    props["players"] = {"type": "array", "items": player, "minItems": 2, "maxItems": 4}
    for deck in (*position.HIDDEN_DECKS, "offered"):
        props[deck] = {**nullable(props[deck]), "description": "null when hidden from you."}
    props["stacked"]["description"] = "The deck orders recorded at the deal: null when shown."
    for deck in (*position.HIDDEN_DECKS, "offered"):
        props[f"{deck}_count"] = COUNT
    out["required"] = list(position.REQUIRED)
    out["description"] = (
        'A start position (docs/rules-scarface.md, "Start positions"): a sandbox table\'s '
        "`options.position`; the game's state field for field."
    )
    return out


def components() -> dict[str, JsonSchema]:
    """Every component of Scarface's contract, by local name."""
    others = {t: cls for t, cls in COMMAND_TYPES.items() if t != "order"}
    out = command_components(
        {**others, "order": COMMAND_TYPES["order"]},
        COMMAND_FIELDS,
        'A Scarface 1920 command for your seat (docs/rules-scarface.md, "Commands"), told '
        "apart by `type`. A `legal` option's `send` is one, ready to send.",
        JSON_NAMES,
    )
    out["GiveOrderCommand"] = ORDER_COMMAND
    out.update(
        event_components(
            EVENT_TYPES,
            EVENT_FIELDS,
            REDACTION,
            "The event as you may see it, told apart by `type`; hidden cards are null.",
        )
    )
    out.update(
        State=STATE, Player=PLAYER, Tile=TILE_STATE, Option=OPTION, Position=_position_schema()
    )
    return out
