"""Infamy's page data: the catalogue of the board, contacts, jobs, schemes and perks (public,
fixed data, stand-in content marked ``reconstructed``) that its pages embed to name things."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.infamy.content import CONTENT_VERSION
from games.infamy.view import catalogue as infamy_catalogue


@cache
def catalogue(content_version: str | None = None) -> dict[str, Any]:
    """The catalogue of the game's own content (a standin-0 game's scheme texts are
    standin-0's); the newest for a table not started yet."""
    return infamy_catalogue(content_version or CONTENT_VERSION)
