"""Refusals of the service (the rules engine has its own, ``RuleViolation``).

Both carry a stable ``code``, a human ``message`` and structured ``data``; the API turns
either into one error envelope. Tests assert on codes, never on messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class ServiceError(Exception):
    def __init__(self, code: str, message: str | None = None, **data: Any) -> None:
        message = message or CODES.get(code, code)  # the registry's text by default
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass(frozen=True)
class Code:
    """One error code's definition: its HTTP status and its message (the one place either
    is written; ``api.errors.ERRORS`` gathers every code, docs/api.md's table is made from
    it)."""

    status: int
    message: str


SERVICE: dict[str, Code] = {
    "game_not_found": Code(404, "No table or game has that id."),
    "not_started": Code(409, "The table has not started yet."),
    "table_not_open": Code(409, "The table has already started; seats can no longer change."),
    "table_full": Code(409, "Every seat of the table is taken."),
    "seat_taken": Code(409, "That seat is taken."),
    "already_seated": Code(409, "You already have a seat at this table."),
    "not_seated": Code(409, "You have no seat at this table."),
    "not_enough_players": Code(409, "A table needs every seat filled to start."),
    "bad_options": Code(400, "The table options are invalid."),
    "bad_position": Code(
        400,
        "The start position is invalid (or the game has none there): `field` names where, "
        "a path in the position document such as `players.1.hand.2`.",
    ),
    # (each game's too, for what its codec refuses; the service's for what no game may hold)
    "bad_command": Code(400, "The command is malformed or names an unknown command type."),
    "stale_version": Code(
        409, "The game has moved on since the version you sent; refetch and retry."
    ),
    "idempotency_key_reused": Code(422, "That idempotency key was used for a different command."),
    "undo_not_allowed": Code(
        422, "This table does not allow undo (ranked and sandbox tables never do)."
    ),
    "nothing_to_undo": Code(422, "You have no command to take back."),
    "other_seat_acted": Code(
        409, "Another seat has acted since your command; it can no longer be undone."
    ),
    "undo_reveals_cards": Code(
        422, "Your command drew you cards; taking it back would reveal the deck."
    ),
    "undo_after_reveal": Code(
        422,
        "Hidden information was shown to another seat since your command (a draw at its "
        "turn's start, sealed choices revealed together); taking it back would let that "
        "seat know what comes next.",
    ),
    "takeback_needed": Code(
        409,
        "Taking this back concerns other people (the turn passed to them, or they were "
        "shown cards): ask them with a takeback request (POST undo does).",
    ),
    "takeback_pending": Code(409, "A takeback request is already open at this table."),
    "takeback_not_found": Code(404, "This game has no takeback request with that id."),
    "takeback_closed": Code(
        409, "The takeback request is over (accepted, declined, expired, or the game moved on)."
    ),
    "not_a_responder": Code(403, "The takeback request does not ask your seat."),
    "busy": Code(503, "The game is too busy right now; retry the same command."),
    # a caller's rights over a game, checked by the reads (games.reads)
    "forbidden": Code(403, "You may not do this (`message` says why)."),
    "sealed_choice_pending": Code(
        403,
        "A seat's sealed choice is committed and not yet revealed; the full record would "
        "show it. Try again after the reveal.",
    ),
    "not_your_seat": Code(403, "You act only for the seat you hold at this game."),
    "no_standing_reactions": Code(
        409,
        "This game has no reaction windows answered out of turn, so no standing reactions.",
    ),
    "no_resign": Code(409, "This game has no resign command: play it to its end."),
    # absent players (games.absence)
    "no_claim": Code(409, "There is no win to claim here: the opponent is not absent."),
    # reviews (games.reviews): annotations and rulings
    "annotation_not_allowed": Code(
        403,
        "Only staff, and the game's players once it is over, may annotate a game or read "
        "its annotations.",
    ),
    "ruling_not_allowed": Code(
        403,
        "Only tournament directors (staff) record rulings; others read them once the game is over.",
    ),
    "seated_at_table": Code(
        403,
        "You play in this game: staff seated at a table are players there (they never rule "
        "on it, nor annotate it before the end).",
    ),
    "position_out_of_range": Code(
        422, "A position is one of the game's events, 1 to `extra.version`."
    ),
    "bad_review": Code(
        400, "An annotation's text or a ruling's reason must be 1 to 2000 characters."
    ),
    "bad_winners": Code(
        422,
        "An award names one or more different seats of the game; a note or a void names none.",
    ),
}

CODES: dict[str, str] = {code: c.message for code, c in SERVICE.items()}
