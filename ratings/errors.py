"""The ratings' refusal codes, each with its HTTP status (gathered in ``api.errors``)."""

from __future__ import annotations

from games.errors import Code

RATINGS: dict[str, Code] = {
    "player_not_found": Code(404, "No player has that username."),
}
