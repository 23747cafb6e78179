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


@cache
def catalogue() -> dict[str, Any]:
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
                "countered_by": sorted(k.value for k in info.countered_by),
            }
            for kind, info in KIND_INFO.items()
        },
        "cards": {card: kind.value for card, kind in CARD_KIND.items()},
    }
