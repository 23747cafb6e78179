"""Scarface 1920's page data: the names and numbers of its cards, the districts, the news
and raids (public, fixed data, stand-in content marked ``reconstructed``) that its pages
embed so the script can name the ids the view holds. Nothing hidden: the view redacts."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.scarface.content import BOSS_NAMES, CONTENT_VERSION, CONTENTS, GANG_NAMES


@cache
def catalogue(content_version: str | None = None) -> dict[str, Any]:
    """The catalogue of the game's own content; the newest for a table not started yet."""
    content = CONTENTS[content_version or CONTENT_VERSION]
    cards: dict[str, dict[str, Any]] = {}
    for c in content.gang_cards.values():
        cards[c.id] = {"name": c.name, "kind": "gang", "type": c.type, "muscle": c.muscle,
                       "influence": c.influence, "skill": c.skill}  # fmt: skip
    for a in content.associates.values():
        cards[a.id] = {"name": a.name, "kind": "associate", "type": a.type, "stars": a.stars,
                       "muscle": a.muscle, "influence": a.influence, "skill": a.skill}  # fmt: skip
    for d in content.dealers.values():
        cards[d.id] = {"name": d.name, "kind": "dealer", "muscle": d.muscle,
                       "influence": d.influence, "capacity": d.capacity, "storage": d.storage,
                       "supply": [{"good": g, "n": n} for g, n in d.supply]}  # fmt: skip
    for j in content.jobs.values():
        cards[j.id] = {"name": j.name, "kind": "job", "permanent": j.permanent, "text": j.text}
    for gang in content.boss_skills:
        cards[f"{gang}-boss"] = {"name": BOSS_NAMES[gang], "kind": "boss"}
    return {
        "content_version": content.id,
        "reconstructed": True,
        "gangs": dict(GANG_NAMES),
        "bosses": dict(BOSS_NAMES),
        "cards": cards,
        "news": {n.id: {"name": n.name, "kind": n.kind} for n in content.news.values()},
        "raids": {r.id: r.name for r in content.raids.values()},
        "districts": {d.id: d.name for d in content.districts.values()},
        "tiles": {t.id: t.name for t in content.tiles.values()},
    }
