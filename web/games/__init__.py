"""Which games have pages, and where each game's page code lives.

The web dispatches on a table's ``game`` (``games.models.Table.game``): each game that the
browser can play has an entry here naming its folder (``templates/web/<folder>/`` holds its
``game.html`` and ``replay.html``, ``static/web/<folder>/`` its JavaScript and CSS) and the
public data its pages embed. A game the service hosts without an entry here gets a page
saying so, never an error."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from web.games import family_business, infamy, scarface


@dataclass(frozen=True)
class GamePages:
    name: str  # the game's registry name (games.core)
    title: str
    folder: str  # under templates/web/ and static/web/
    # public, fixed data the pages name things with, of a content version (the game's own,
    # as its first event recorded it; None: the newest, for a table not started yet)
    catalogue: Callable[[str | None], dict[str, Any]]

    def template(self, page: str) -> str:
        return f"web/{self.folder}/{page}.html"


PAGES: dict[str, GamePages] = {
    "family_business": GamePages(
        name="family_business",
        title="Family Business",
        folder="family_business",
        catalogue=family_business.catalogue,
    ),
    "infamy": GamePages(
        name="infamy",
        title="Infamy",
        folder="infamy",
        catalogue=infamy.catalogue,
    ),
    "scarface": GamePages(
        name="scarface",
        title="Scarface 1920",
        folder="scarface",
        catalogue=scarface.catalogue,
    ),
}


def pages_for(game: str) -> GamePages | None:
    return PAGES.get(game)
