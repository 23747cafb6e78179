"""Goofspiel's typed API contract: its own definitions, derived into JSON schemas by
``games.contract_schema`` (which names them ``Goofspiel...`` in the schema).

The command and events are the dataclasses of ``rules``; a sealed bid's card is null to
every other seat until the bids are revealed, and the seed and salt are absent until the
end, as ``view.redact_event`` makes them. The state is what ``view.view`` returns.
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

from .rules import EVENT_TYPES, MAX_CARDS, MAX_PLAYERS, Bid

SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
SEATS: JsonSchema = {"type": "array", "items": SEAT}
CARD: JsonSchema = {
    "type": "integer",
    "minimum": 1,
    "maximum": MAX_CARDS,
    "description": "A card's value (a hand holds 1 ... `rounds`).",
}
ROUND: JsonSchema = {"type": "integer", "minimum": 1, "maximum": MAX_CARDS}
FIELD_SCHEMAS: dict[str, JsonSchema] = {
    "card": CARD,
    "prize": CARD,
    "round": ROUND,
    "cards": {**ROUND, "description": "Cards in each hand, and rounds."},
    "seat": SEAT,
    "winner": SEAT,
    "winners": SEATS,
    "bids": {"type": "array", "items": CARD, "description": "By seat."},
    "scores": {"type": "array", "items": {"type": "integer", "minimum": 0}},
}

REDACTION = Redaction(
    absent={"GameStarted": frozenset({"seed", "salt"})},
    nulled={"BidPlaced": frozenset({"card"})},
    optional={"GameStarted": frozenset({"position"})},
)
FIELD_SCHEMAS["GameStarted.position"] = {
    **ref("Position"),
    "description": "Only in a game started from a position: the position, as you may see it.",
}

HANDS: JsonSchema = {"type": "array", "items": {"type": "array", "items": CARD}}
POSITION: JsonSchema = closed(
    {
        "rules_version": {"type": "integer", "minimum": 1, "description": "Default: newest."},
        "cards": FIELD_SCHEMAS["cards"],
        "round": ROUND,
        "prize": {**CARD, "description": "The prize shown this round."},
        "prizes_left": {
            **nullable({"type": "array", "items": CARD}),
            "description": "The prize deck under the shown prize, top first (hidden: null "
            "in a record, but to staff).",
        },
        "prizes_left_count": {"type": "integer", "minimum": 0},
        "hands": {**HANDS, "description": "By seat: the hand as of the last reveal."},
        "bids": {
            "type": "array",
            "items": nullable(CARD),
            "description": "This round's sealed bids by seat (null: not bid, or hidden).",
        },
        "has_bid": {"type": "array", "items": {"type": "boolean"}},
        "scores": FIELD_SCHEMAS["scores"],
        "history": {"type": "array", "items": ref("RoundResult")},
    },
    ["cards", "round", "prize", "prizes_left", "hands", "bids", "scores", "history"],
    'A start position (docs/rules-goofspiel.md, "Start positions"): a sandbox table\'s '
    "`options.position`.",
)


COMMAND_EXAMPLES: dict[str, JsonSchema] = {
    "bid your 3 in round 1": {"type": "bid", "round": 1, "card": 3},
}

# What a refusal's ``data`` (the error's `extra`) may carry, by key.
REFUSAL_DATA: dict[str, JsonSchema] = {
    "current": {"type": "integer", "description": "`round_over`: the round being bid for."},
    "field": {
        "type": "string",
        "description": "`bad_options`, `bad_position`: the field at fault (a path).",
    },
    "round": {"type": "integer", "description": "`round_over`: the round the bid named."},
    "seat": {"type": ["integer", "null"], "description": "`not_a_player`: the seat."},
}

PLAYER: JsonSchema = closed(
    {
        "seat": SEAT,
        "name": {"type": "string"},
        "score": {"type": "integer", "minimum": 0},
        "hand": {
            "type": "array",
            "items": CARD,
            "description": "As of the last reveal, unless you may see this round's bid.",
        },
        "has_bid": {"type": "boolean"},
        "bid": {**nullable(CARD), "description": "This round's bid, if you may see it."},
    },
    ["seat", "name", "score", "hand", "has_bid", "bid"],
)
ROUND_RESULT: JsonSchema = closed(
    {
        "round": ROUND,
        "prize": CARD,
        "bids": FIELD_SCHEMAS["bids"],
        "winner": {**nullable(SEAT), "description": "null: a tie, nobody scores."},
    },
    ["round", "prize", "bids", "winner"],
)
STATE: JsonSchema = closed(
    {
        "round": {"type": "integer", "minimum": 0},
        "rounds": ROUND,
        "prize": {"type": "integer", "minimum": 0, "description": "This round's prize."},
        "players": {"type": "array", "items": ref("Player")},
        "awaiting": SEATS,
        "history": {"type": "array", "items": ref("RoundResult")},
        "legal": {
            "type": "array",
            "items": ref("Option"),
            "description": "What your seat may do now (not in a replay).",
        },
        "over": {"type": "boolean"},
        "winners": SEATS,
        "prizes_left": {
            "type": "array",
            "items": CARD,
            "description": "Staff, or after the end: the prize deck, top first.",
        },
    },
    ["round", "rounds", "prize", "players", "awaiting", "history", "over", "winners"],
    'The game as you may see it (docs/api.md, "Goofspiel").',
)
OPTION: JsonSchema = closed(
    {
        "type": {"type": "string", "enum": ["bid"]},
        "round": ROUND,
        "card": CARD,
        "send": {**ref("Command"), "description": "The command to send, as it is."},
        "ready": {"type": "boolean"},
    },
    ["type", "round", "card", "send", "ready"],
    "A bid your seat may make now; `send` is the command to POST.",
)


def components() -> dict[str, JsonSchema]:
    """Every component of Goofspiel's contract, by local name."""
    out = command_components(
        {"bid": Bid},
        FIELD_SCHEMAS,
        "Goofspiel's one command, told apart by `type`. A `legal` option's `send` is one.",
    )
    out.update(
        event_components(
            EVENT_TYPES,
            FIELD_SCHEMAS,
            REDACTION,
            "The event as you may see it, told apart by `type`; another seat's bid is null "
            "until the bids are revealed.",
        )
    )
    out.update(
        State=STATE, Player=PLAYER, RoundResult=ROUND_RESULT, Option=OPTION, Position=POSITION
    )
    return out
