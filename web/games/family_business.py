"""Family Business's page data: the catalogue of cards, mobsters and families (public,
fixed data) that its pages embed so the script can name things in the move log."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.family_business.cards import (
    CARD_KIND,
    FAMILIES,
    KIND_INFO,
    MOBSTER_FAMILY,
    MOBSTER_NAME,
)

# What each card does, in a few words for its face (the full text is the engine's, in the
# card's tooltip and the picker): page copy, readable on a phone without hovering.
SHORT_TEXT: dict[str, str] = {
    "CONTRACT": "A rival's mobster to the end of the Hit List.",
    "CONTRACT_NO_MP": "Contract: only Family Influence counters it.",
    "CONTRACT_NO_FI": "Contract: only Mob Power counters it.",
    "CONTRACT_NO_COUNTER": "Contract that cannot be countered.",
    "PRIORITY_CONTRACT": "A rival's mobster to the front of the Hit List.",
    "DOUBLE_CONTRACT": "Two of one rival's mobsters onto the Hit List.",
    "HIT": "Kill any mobster; list one of your own.",
    "MASSACRE": "Kill everyone on the Hit List.",
    "DOUBLE_CROSS": "One mobster of each rival onto the Hit List.",
    "MOB_WAR": "Start a Mob War.",
    "AMBUSH": "Start a Mob War at double rate.",
    "VENDETTA": "Two of each rival listed; double-rate war.",
    "TURNCOAT": "Swap a strong family's mobster for a dead one.",
    "TAKE_IT_ON_THE_LAM": "Take one mobster off the Hit List.",
    "POLICE_PROTECTION": "Take one off the Hit List; no counter.",
    "SUBSTITUTION": "Swap a listed mobster for one in play.",
    "INTRIGUE": "Put the Hit List in a new order.",
    "TRUCE": "End the Mob War.",
    "PAY_OFF": "Take one player's mobsters off the list.",
    "FEDERAL_CRACKDOWN": "Send everyone on the Hit List home.",
    "FAMILY_INFLUENCE": "Answer: cancel a Contract.",
    "MOB_POWER": "Answer: a Contract hits its player instead.",
    "FINGER": "Answer: cancel Take It on the Lam.",
    "SAFE_HOUSE": "Answer: your mobsters escape a Vendetta.",
    "LIBRARIAN": "Hand limit 8 instead of 6.",
    "DOPPELGANGER": "Contracts cannot target this mobster.",
    "CRIME_SCENE_CLEANER": "May draw from the discard pile.",
    "BUTCHER": "Once a turn: swap cards for new ones.",
    "CELEBRITY": "Listed by a rival: you play next.",
    "UNFORGIVING": "When killed: list any mobster.",
    "SHOTGUN": "Contracts may take a second mobster.",
    "SHORT_TEMPERED": "After an attack, one more attack.",
    "POLITICIAN": "Draw to your limit + 2, or skip.",
    "EARLY_BIRD": "Your Contracts go to the front.",
}


@cache
def catalogue(content_version: str | None = None) -> dict[str, Any]:
    """The same for every game: Family Business has one content (no stand-in data)."""
    return {
        "families": {f.id: f.name for f in FAMILIES},
        "mobsters": {
            m: {"name": MOBSTER_NAME[m], "family": MOBSTER_FAMILY[m]} for m in MOBSTER_NAME
        },
        "kinds": {
            kind.value: {
                "name": info.name,
                "category": info.category.value,
                "text": info.text,
                "short": SHORT_TEXT.get(kind.value, info.text),
                "countered_by": sorted(k.value for k in info.countered_by),
            }
            for kind, info in KIND_INFO.items()
        },
        "cards": {card: kind.value for card, kind in CARD_KIND.items()},
    }
