"""Refusals of the service (the rules engine has its own, ``RuleViolation``).

Both carry a stable ``code``, a human ``message`` and structured ``data``; the API turns
either into one error envelope. Tests assert on codes, never on messages.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    def __init__(self, code: str, message: str | None = None, **data: Any) -> None:
        message = message or CODES.get(code, code)  # the registry's text by default
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


CODES: dict[str, str] = {
    "game_not_found": "No table or game has that id.",
    "not_started": "The table has not started yet.",
    "table_not_open": "The table has already started; seats can no longer change.",
    "table_full": "Every seat of the table is taken.",
    "seat_taken": "That seat is taken.",
    "already_seated": "You already have a seat at this table.",
    "not_seated": "You have no seat at this table.",
    "not_enough_players": "A table needs every seat filled to start.",
    "bad_options": "The table options are invalid.",
    "stale_version": "The game has moved on since the version you sent; refetch and retry.",
    "idempotency_key_reused": "That idempotency key was used for a different command.",
    "undo_not_allowed": "This table does not allow undo (ranked and sandbox tables never do).",
    "nothing_to_undo": "You have no command to take back.",
    "other_seat_acted": "Another seat has acted since your command; it can no longer be undone.",
    "undo_reveals_cards": "Your command drew you cards; taking it back would reveal the deck.",
    "undo_after_reveal": "Cards were shown to another seat since your command (a draw at its "
    "turn's start); taking it back would let that seat know what comes next.",
    "busy": "The game is too busy right now; retry the same command.",
}
