"""What every game says of itself, in the OpenAPI schema (docs/api.md, "What a game
explains"): the ``label`` of each legal option (and ``variant_labels``, one for each
variant, where a game gives them) and the state's ``outcome`` once the game is over
(``games.core.Outcome``). Added to every game's option and state components alike, typed
or open, so no game is named here."""

from __future__ import annotations

from typing import Any

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


def add_explanations(components: dict[str, JsonSchema]) -> None:
    """Every option component gets the label fields and every game's state component the
    outcome (the components ``GameState`` lists; options: those named ``...Option``)."""
    components["TieBreak"] = TIE_BREAK
    components["Outcome"] = OUTCOME
    for name, schema in components.items():
        if name.endswith("Option") and "properties" in schema:
            schema["properties"].update(OPTION_FIELDS)
            schema["required"] = sorted({*schema.get("required", []), "label"})
    for variant in components.get("GameState", {}).get("oneOf", []):
        state = components[variant["$ref"].rsplit("/", 1)[1]]
        state["properties"]["outcome"] = STATE_OUTCOME
        state["required"] = sorted({*state.get("required", []), "outcome"})
