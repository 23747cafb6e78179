"""What every game says of itself, in the OpenAPI schema (docs/api.md, "What a game
explains"): the ``label`` of each legal option (and ``variant_labels``, one for each
variant, where a game gives them) and the state's ``outcome`` once the game is over
(``games.core.Outcome``). Added to every game's option and state components alike (the
contracts' ``Option`` and ``State``, ``games.contract_schema``), so no game is named here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.contract_schema import OPTION, STATE, prefix_of

JsonSchema = dict[str, Any]

OPTION_FIELDS: dict[str, JsonSchema] = {
    "label": {
        "type": "string",
        "description": "What the option is and what it gives, for people (the game's "
        'words: "On the HQ (your figure): +1 Reputation with PKD Militia").',
    },
    "variant_labels": {
        "type": "array",
        "items": {"type": "string"},
        "description": "Where the game gives them: a label for each of `variants`, in order.",
    },
}

TIE_BREAK: JsonSchema = {
    "type": "object",
    "description": "One comparison the rules made to decide the result, in order.",
    "properties": {
        "criterion": {"type": "string", "description": 'What was compared ("points won").'},
        "values": {
            "type": "array",
            "description": "Each contending seat's value.",
            "items": {
                "type": "object",
                "properties": {
                    "seat": {"type": "integer", "minimum": 0},
                    "value": {"type": ["integer", "string"]},
                },
                "required": ["seat", "value"],
                "additionalProperties": False,
            },
        },
        "kept": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "The seats this comparison kept.",
        },
    },
    "required": ["criterion", "values", "kept"],
    "additionalProperties": False,
}

OUTCOME: JsonSchema = {
    "type": "object",
    "description": "How the finished game was decided, in the engine's own words.",
    "properties": {
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "reason": {
            "type": "string",
            "description": "The game's stable code for how it ended (`last_seat`, "
            "`shared`, `reputation`...; `ruling`: a tournament director decided it).",
        },
        "summary": {"type": "string", "description": "Who won and why, for people."},
        "tie_breaks": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/TieBreak"},
            "description": "Every comparison applied, in order.",
        },
    },
    "required": ["winners", "reason", "summary", "tie_breaks"],
    "additionalProperties": False,
}

STATE_OUTCOME: JsonSchema = {
    "oneOf": [{"$ref": "#/components/schemas/Outcome"}, {"type": "null"}],
    "description": "Once the game is over, how it was decided; null while it runs.",
}


# The components every game's state reaches alike: one shape for every game.
SHARED_COMPONENTS = ("Outcome", "TieBreak")


def add_explanations(components: dict[str, JsonSchema], games: Iterable[str]) -> None:
    """Each game's option component (``<Game>Option``) gets the label fields and its state
    component (``<Game>State``) the outcome; ``Outcome`` and ``TieBreak`` are shared."""
    components.update(Outcome=OUTCOME, TieBreak=TIE_BREAK)
    for game in games:
        option = components[f"{prefix_of(game)}{OPTION}"]
        option["properties"].update(OPTION_FIELDS)
        option["required"] = sorted({*option.get("required", []), "label"})
        state = components[f"{prefix_of(game)}{STATE}"]
        state["properties"]["outcome"] = STATE_OUTCOME
        state["required"] = sorted({*state.get("required", []), "outcome"})
