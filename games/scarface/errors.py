"""Typed refusals with stable codes (specification 3.5), and the HTTP status of each."""

from __future__ import annotations

from games.core import RuleViolation

__all__ = ["CODES", "HTTP_STATUS", "PRECEDENCE", "RuleViolation", "http_status"]

CODES: dict[str, str] = {
    "bad_command": "The command is malformed: unknown type, order or field value; an empty "
    "list where one is needed; a required choice missing.",
    "bad_options": "The table options are invalid (an unknown or repeated gang).",
    "bad_position": "The start position is invalid.",
    "game_over": "The game has ended; nothing more can be played.",
    "not_a_player": "The sender has no seat in this game.",
    "not_in_game": "This seat has resigned.",
    "not_your_turn": "It is not this seat's turn.",
    "not_allowed_now": "The command belongs to another step; a skill used twice; a boss skill "
    "without the boss planned or beyond three uses; a skill with a target under rules "
    "version 1; a job while the seat's own order awaits its choice.",
    "card_not_in_hand": "The card or job is not in this seat's hand.",
    "order_used": "This seat has already carried out its order this turn.",
    "no_thug_in_hq": "The order needs a thug in the seat's HQ (or more than HQ holds).",
    "requirement_not_met": "The plan's muscle or influence (or another requirement) is too low.",
    "cannot_pay": "The seat cannot pay the money or goods, or the pay list is not exactly "
    "what is due.",
    "illegal_target": "A tile, district, column, row, card, place or seat that is not a legal "
    "choice; an empty job or dealer deck.",
    "no_presence": "The seat has no presence in that district.",
    "no_marker_left": "All 7 of the seat's control markers are on the board.",
    "limit_reached": "A limit is reached (business markers, riders, the boss track's end).",
    "row_busy": "A thug already stands on that dealer row.",
    "job_condition_not_met": "The job's Have or Plan condition is not met.",
}

# SR-57: the order refusals are checked in, before the specific reason.
PRECEDENCE: tuple[str, ...] = (
    "game_over", "not_a_player", "not_in_game", "not_your_turn", "not_allowed_now",
    "order_used", "no_thug_in_hq",
)  # fmt: skip

HTTP_STATUS: dict[str, int] = {code: 422 for code in CODES}
HTTP_STATUS.update(
    bad_command=400, bad_options=400, bad_position=400, game_over=409, not_a_player=403
)


def http_status(code: str) -> int:
    return HTTP_STATUS.get(code, 422)
