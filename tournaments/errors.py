"""The tournaments' refusal codes, each with its HTTP status (gathered in ``api.errors``)."""

from __future__ import annotations

from games.errors import Code

TOURNAMENTS: dict[str, Code] = {
    "tournament_not_found": Code(404, "No tournament has that id."),
    "not_director": Code(403, "Only tournament directors (staff) do that."),
    "bad_tournament": Code(
        400, "The tournament's settings are invalid: `extra.field` names which."
    ),
    "already_registered": Code(409, "You are already registered in this tournament."),
    "not_registered": Code(409, "You are not registered in this tournament (or have withdrawn)."),
    "registration_closed": Code(
        409,
        "The tournament takes no more entries (it is over, or its format allows no late entry).",
    ),
    "round_running": Code(409, "The current round has not ended yet."),
    "no_rounds_left": Code(409, "Every round of the tournament has been played."),
    "too_few_entrants": Code(409, "Too few entrants for one table of the tournament's size."),
    "table_not_in_tournament": Code(404, "No table of this tournament has that id."),
    "flag_not_allowed": Code(
        403, "Only an entrant seated at that game (or a director) flags it for review."
    ),
    "already_flagged": Code(409, "You have an open flag on that game already."),
    "flag_not_found": Code(404, "This tournament has no flag of that number."),
    "flag_closed": Code(409, "That flag is closed already."),
}
