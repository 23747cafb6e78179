"""Typed refusals with stable codes, and the HTTP status of each code (G-3)."""

from __future__ import annotations

from games.core import RuleViolation

__all__ = ["CODES", "HTTP_STATUS", "RuleViolation", "http_status"]

# Every code the engine can raise, with what it means. docs/rules-infamy.md lists them.
CODES: dict[str, str] = {
    "bad_command": "The command is malformed or names an unknown command type.",
    "bad_options": "The table options are invalid (unknown key, bad value, black colour).",
    "bad_position": "The start position is invalid: `field` names where (a path such as "
    "`players.1.hand.2`), the message says why.",
    "game_over": "The game has ended; nothing more can be played.",
    "not_a_player": "The seat is not part of this game.",
    "not_in_game": "This seat has resigned.",
    "not_your_turn": "This seat is not awaited in the current step.",
    "not_allowed_now": "The command belongs to another step (or the other half of the step: "
    "a draw where a discard is awaited), or a Day/Night-only scheme is played in the other "
    "round (data: reason wrong_round).",
    "system_only": "Only the system may issue this command.",
    "step_not_expired": "The step's deadline has not passed yet.",
    "bid_too_low": "A bid must total at least 1, beat the high bid and add a bribe.",
    "not_enough_bribes": "Not enough available bribes for the expense and the bid.",
    "favor_not_allowed": "A favor only as the first bid on a contact, never on the Fixer.",
    "no_favor": "This seat holds no favor.",
    "already_chosen": "This seat has already committed its sector card.",
    "bad_accomplice": "The accomplice field is missing, or given without the Accomplice.",
    "illegal_target": "A named sector, space, rival, job, deck or Watchdog move is not allowed "
    "(data: reason watchdog_sector for a sector a Watchdog guards, IR-13 and IR-39; "
    "deck_empty for a scheme deck with no card and no discards).",
    "space_taken": "Another figure is on that space.",
    "hazard_on_space": "A hazard lies on that space.",
    "figure_done": "That figure has already been placed (or cannot be placed).",
    "cannot_pay": "This seat cannot pay what the job or scheme requires.",
    "wrong_faction": "That faction is not on the job.",
    "no_smuggler": "Only the Smuggler's winner may forgo a placement, once, by Day.",
    "cannot_cancel": "Cancelling the Thug needs 3 available bribes.",
    "supply_empty": "The general supply has none of that resource left.",
    "card_not_in_hand": "The scheme is not in this seat's hand.",
    "missing_choice": "The effect needs a choice the command does not name.",
}

# 422 for a rule violation; 409 where the command lost a race with the game's state
# (the game ended, or the step's deadline has not come); 400 for malformed input; 403 for
# a caller who may not act at all (as Family Business's codes in api/errors.py).
HTTP_STATUS: dict[str, int] = {code: 422 for code in CODES}
HTTP_STATUS.update(
    bad_command=400, bad_options=400, bad_position=400, game_over=409, step_not_expired=409,
    not_a_player=403, system_only=403,
)  # fmt: skip


def http_status(code: str) -> int:
    return HTTP_STATUS.get(code, 422)
