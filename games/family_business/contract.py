"""Family Business's typed API contract: its own definitions, derived into JSON schemas by
``games.contract_schema`` (which names them ``FamilyBusiness...`` in the schema).

Its commands and events are the engine's frozen dataclasses (``codec``, ``events``); what
their fields hold (card, mobster and window ids, seats) is said here by field name; hidden
cards are ``null`` with a ``count`` and the setup's secrets absent until the end, as
``view.redact_event`` makes them. The state is what ``view.view`` returns; the ``legal``
options carry typed ``choices`` and a ready-to-send ``send`` command.
"""

from __future__ import annotations

from games.contract_schema import (
    JsonSchema,
    Redaction,
    closed,
    command_components,
    event_components,
    nullable,
    ref,
)

from .cards import Kind
from .codec import COMMAND_TYPES
from .events import EVENT_TYPES

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
SEATS: JsonSchema = {"type": "array", "items": SEAT}
MOBSTER_IDS: JsonSchema = {"type": "array", "items": MOBSTER_ID}
CARD_KIND_ENUM: JsonSchema = {
    "type": "string",
    "enum": [k.value for k in Kind],
    "description": "A card's kind code (docs/rules.md#action-cards).",
}
CARD_KIND: JsonSchema = ref("CardKind")

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

# How ``view.redact_event`` hides events before the end: cards are null with a count;
# GameStarted omits its secrets.
REDACTED_CARDS = frozenset({"DeckShuffled", "CardsDealt", "CardsDrawn"})
REDACTION = Redaction(
    absent={"GameStarted": frozenset({"seed", "stacked_deck", "salt"})},
    nulled={name: frozenset({"cards"}) for name in REDACTED_CARDS},
    counted=REDACTED_CARDS,
    optional={"GameStarted": frozenset({"position"})},
)
FIELD_SCHEMAS["GameStarted.position"] = {
    **ref("Position"),
    "description": "Only in a game started from a position: the position, as you may see it.",
}
CARD_IDS: JsonSchema = {"type": "array", "items": CARD_ID}
POSITION_PLAYER: JsonSchema = closed(
    {
        "family": {"type": "string", "description": "A family id (docs/rules.md#mobsters)."},
        "hand": {**nullable(CARD_IDS), "description": "null when hidden from you."},
        "hand_count": {"type": "integer", "minimum": 0},
        "crew": MOBSTER_IDS,
        "out": {"type": "boolean", "default": False},
        "resigned": {"type": "boolean", "default": False},
    },
    ["family", "hand", "crew"],
    "One seat of a start position, in seat order.",
)
POSITION: JsonSchema = closed(
    {
        "rules_version": {"type": "integer", "minimum": 1, "description": "Default: newest."},
        "advanced": {"type": "boolean", "default": False},
        "reaction_seconds": {"type": "integer", "minimum": 1, "maximum": 300, "default": 10},
        "players": {"type": "array", "items": ref("PositionPlayer"), "minItems": 2, "maxItems": 6},
        "deck": {**nullable(CARD_IDS), "description": "Top first; null when hidden from you."},
        "deck_count": {"type": "integer", "minimum": 0},
        "discard": {**CARD_IDS, "description": "Top last."},
        "hit_list": {**MOBSTER_IDS, "description": "Index 0 stands against the wall."},
        "graveyard": MOBSTER_IDS,
        "mob_war": {"type": "integer", "enum": [0, 1, 2], "default": 0},
        "turn_seat": SEAT,
        "turn": {"type": "integer", "minimum": 1},
        "window": {
            **nullable({"type": "object"}),
            "description": "An open reaction window or decision, as the state holds it.",
        },
        "windows_opened": {"type": "integer", "minimum": 0, "default": 0},
        "last_window": nullable({"type": "object"}),
        "shuffles": {"type": "integer", "minimum": 0, "default": 0},
        "abilities": {
            "type": "array",
            "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}},
            "description": "(mobster, ability card) pairs (advanced rules).",
        },
        "unforgiving": MOBSTER_IDS,
        "butcher_turn": {"type": "integer", "minimum": 0},
        "temper_turn": {"type": "integer", "minimum": 0},
    },
    ["players", "deck", "discard", "hit_list", "graveyard", "turn_seat", "turn"],
    'A start position (docs/rules.md, "Start positions"): a sandbox table\'s `options.position`.',
)


COMMAND_EXAMPLES: dict[str, JsonSchema] = {
    "discard a card": {"type": "play", "card": "c07", "discard": True},
    "play a contract": {"type": "play", "card": "c07", "targets": ["bugs-moran"]},
    "pass in a window": {"type": "pass", "window": "w1"},
    "resign": {"type": "resign"},
}

# What a refusal's ``data`` (the error's `extra`) may carry, by key.
STRINGS: JsonSchema = {"type": "array", "items": {"type": "string"}}
REFUSAL_DATA: dict[str, JsonSchema] = {
    "against": {**STRINGS, "description": "`not_counterable`: the kinds it does not answer."},
    "answers": {**STRINGS, "description": "`not_counterable`: the kinds it answers."},
    "card": {"type": "string", "description": "The card at fault (as named)."},
    "choices": {**MOBSTER_IDS, "description": "The mobsters that may be named."},
    "counter": {"type": "string", "description": "A standing reaction's counter at fault."},
    "counters": {"type": "array", "items": CARD_KIND, "description": "What may counter."},
    "deadline": {"type": "integer", "description": "The window's deadline (ms)."},
    "decision": {"type": "string", "description": "The pending decision."},
    "expected": {"type": "integer", "description": "How many targets to name."},
    "field": {
        "type": "string",
        "description": "The field at fault (`bad_position`: a path, `players.1.hand.2`).",
    },
    "fields": {**STRINGS, "description": "The fields at fault."},
    "mobster": {"type": ["string", "null"], "description": "The mobster at fault."},
    "mobsters": {**STRINGS, "description": "The mobsters named."},
    "now": {"type": "integer", "description": "Server time (ms) of the refusal."},
    "own": {"type": ["string", "null"], "description": "HIT's `own` at fault."},
    "player": {"type": ["integer", "null"], "description": "PAY OFF's `player` at fault."},
    "players": {"type": "integer", "description": "`bad_options`: the seats asked for."},
    "reason": {"type": "string", "description": "`window_closed`: how it closed."},
    "countered_by": {**nullable(SEAT), "description": "`window_closed`: who countered."},
    "seat": {"type": ["integer", "null"], "description": "The seat at fault."},
    "source": {"type": ["string", "null"], "description": "`draw`'s source at fault."},
    "turn": {**SEAT, "description": "Whose turn it is."},
    "types": {**STRINGS, "description": "`bad_command`: the command types."},
    "window": {"type": "string", "description": "The window named."},
    "winners": {
        "type": "array",
        "items": {"type": "integer"},
        "description": "`game_over`: the winners.",
    },
}

# --- the state -----------------------------------------------------------------------------

CARD: JsonSchema = closed(
    {
        "id": {**CARD_ID, "examples": ["c07"]},
        "kind": CARD_KIND,
        "name": {"type": "string"},
        "category": {"type": "string", "enum": ["attack", "rescue", "counter", "ability"]},
        "text": {"type": "string", "description": "Ability cards only: their text."},
        "reconstructed": {
            "type": "boolean",
            "description": "Ability cards only (true): the text is reconstructed.",
        },
    },
    ["id", "kind", "name", "category"],
    "A card, as the view shows it.",
)
MOBSTER: JsonSchema = closed(
    {
        "id": MOBSTER_ID,
        "name": {"type": "string"},
        "family": {"type": "string"},
        "ability": {**ref("Card"), "description": "Advanced rules: the ability card under it."},
    },
    ["id", "name", "family"],
)
MOBSTERS: JsonSchema = {"type": "array", "items": ref("Mobster")}
CARDS: JsonSchema = {"type": "array", "items": ref("Card")}
PLAYER: JsonSchema = closed(
    {
        "seat": SEAT,
        "name": {"type": "string"},
        "family": closed({"id": {"type": "string"}, "name": {"type": "string"}}, ["id", "name"]),
        "crew": {**MOBSTERS, "description": "Mobsters in front of the player."},
        "listed": {**MOBSTERS, "description": "The player's mobsters on the Hit List."},
        "in_play": {"type": "integer"},
        "hand_size": {"type": "integer"},
        "hand": {
            **CARDS,
            "description": "Only in your own seat's view, staff's, and everyone's once the "
            "game ends.",
        },
        "out": {"type": "boolean"},
        "resigned": {"type": "boolean"},
    },
    ["seat", "name", "family", "crew", "listed", "in_play", "hand_size", "out", "resigned"],
)
WINDOW: JsonSchema = closed(
    {
        "id": WINDOW_ID,
        "seat": {**SEAT, "description": "Whose card is pending (or who decides)."},
        "card": nullable(ref("Card")),
        "targets": MOBSTERS,
        "eligible": SEATS,
        "passed": SEATS,
        "waiting_on": SEATS,
        "counters": {
            "type": "array",
            "items": CARD_KIND,
            "description": "The kinds of card that may counter it.",
        },
        "deadline": {"type": "integer", "description": "Server time in ms since the epoch."},
        "decision": {
            "type": "string",
            "enum": ["draw", "unforgiving", "short_tempered"],
            "description": "Advanced rules: a pending decision of `seat` (not a reaction window).",
        },
        "count": {"type": "integer", "description": "A `draw` decision: cards still to draw."},
    },
    ["id", "seat", "card", "targets", "eligible", "passed", "waiting_on", "counters", "deadline"],
)
STATE: JsonSchema = closed(
    {
        "rules_version": {"type": "integer"},
        "players": {"type": "array", "items": ref("Player")},
        "turn": {"type": "integer"},
        "turn_seat": SEAT,
        "awaiting": SEATS,
        "hit_list": {**MOBSTERS, "description": "Position 0 is against the wall."},
        "graveyard": MOBSTERS,
        "deck_size": {"type": "integer", "minimum": 0},
        "discard": CARDS,
        "mob_war": closed(
            {"on": {"type": "boolean"}, "rate": {"type": "integer", "minimum": 0}},
            ["on", "rate"],
        ),
        "window": nullable(ref("Window")),
        "reaction_seconds": {"type": "integer"},
        "advanced": {"type": "boolean"},
        "abilities": {
            "type": "array",
            "items": closed(
                {"mobster": ref("Mobster"), "seat": SEAT, "card": ref("Card")},
                ["mobster", "seat", "card"],
            ),
            "description": "Advanced tables: which mobster holds which ability.",
        },
        "seed_hash": {"type": "string"},
        "over": {"type": "boolean"},
        "winners": SEATS,
        "deck": {**CARDS, "description": "Staff, or after the end."},
        "legal": {
            "type": "array",
            "items": ref("Option"),
            "description": "What your seat may do now (seats only); each option's `send` "
            "is a command to POST.",
        },
    },
    [
        "rules_version",
        "players",
        "turn",
        "turn_seat",
        "awaiting",
        "hit_list",
        "graveyard",
        "deck_size",
        "discard",
        "mob_war",
        "window",
        "reaction_seconds",
        "advanced",
        "seed_hash",
        "over",
        "winners",
    ],
    "The game as you may see it (docs/rules.md).",
)

# --- legal options -------------------------------------------------------------------------

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
                "mobsters": MOBSTER_IDS,
                "one_player": {
                    "type": "object",
                    "description": "Seat -> the mobsters in front of that player.",
                    "additionalProperties": MOBSTER_IDS,
                },
                "per_player": {
                    "type": "object",
                    "description": "Seat -> how many of which mobsters to name.",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {
                            "count": {"type": "integer", "minimum": 1},
                            "mobsters": MOBSTER_IDS,
                        },
                        "required": ["count", "mobsters"],
                        "additionalProperties": False,
                    },
                },
                "ordered": {"type": "boolean"},
                "leaving": MOBSTER_IDS,
                "returning": MOBSTER_IDS,
                "listed": MOBSTER_IDS,
                "replacements": MOBSTER_IDS,
                "permutation_of": MOBSTER_IDS,
            },
            "additionalProperties": False,
        },
        "own": {
            "type": "object",
            "description": "HIT: the `own` mobster to put on the Hit List.",
            "properties": {
                "mobsters": MOBSTER_IDS,
                "after_removing_target": {"type": "boolean"},
            },
            "required": ["mobsters"],
            "additionalProperties": False,
        },
        "player": {"type": "array", "items": SEAT, "description": "PAY OFF: the `player`."},
        "mobster": {
            **MOBSTER_IDS,
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
    """Every component of Family Business's contract, by local name."""
    out: dict[str, JsonSchema] = {"CardKind": CARD_KIND_ENUM}
    out.update(
        command_components(
            {t: COMMAND_TYPES[t] for t in CLIENT_COMMANDS},
            COMMAND_FIELD_SCHEMAS,
            "An engine command for your seat (docs/rules.md#commands), told apart by "
            "`type`. A `legal` option's `send` is one, ready to send.",
        )
    )
    out.update(
        event_components(
            EVENT_TYPES,
            FIELD_SCHEMAS,
            REDACTION,
            "The event as you may see it, told apart by `type` (docs/rules.md#events); "
            "hidden cards are null with a `count`.",
        )
    )
    out.update(
        State=STATE, Player=PLAYER, Card=CARD, Mobster=MOBSTER, Window=WINDOW,
        Choices=CHOICES, Option=OPTION,
    )  # fmt: skip
    out.update(Position=POSITION, PositionPlayer=POSITION_PLAYER)
    return out
