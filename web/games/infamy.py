"""Infamy's page data: the catalogue of the board, contacts, jobs, schemes and perks (public,
fixed data, stand-in content marked ``reconstructed``) that its pages embed to name things."""

from __future__ import annotations

from functools import cache
from typing import Any

from games.infamy.view import catalogue as infamy_catalogue


@cache
def catalogue() -> dict[str, Any]:
    return infamy_catalogue()
