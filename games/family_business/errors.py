"""Typed refusals. Every refusal carries a stable machine code; tests assert on the code.

``RuleViolation`` is the one refusal type every game shares (``games.core``)."""

from __future__ import annotations

from games.core import RuleViolation

__all__ = ["CODES", "HTTP_STATUS", "RuleViolation", "http_status"]

# Every code the engine can raise, with what it means. The API documents this table.
CODES: dict[str, str] = {
    "bad_command": "The command is malformed or names an unknown command type.",
    "game_over": "The game has ended; nothing more can be played.",
    "not_a_player": "The seat is not part of this game.",
    "not_in_game": "This seat is out of the game (eliminated or resigned).",
    "not_your_turn": "Only the seat whose turn it is may play a card now.",
    "window_open": "A reaction window is open; wait for it to close before playing a card.",
    "card_not_in_hand": "The card is not in this seat's hand.",
    "missing_target": "The card needs targets to take effect; name them or discard it.",
    "illegal_target": "A named target is not allowed for this card.",
    "no_window": "There is no open reaction window.",
    "window_closed": "That reaction window is already closed (another counter won it).",
    "not_eligible": "This seat may not react in this window.",
    "already_passed": "This seat already passed on this window; a pass is final.",
    "not_counterable": "That counter card does not answer the pending card.",
    "window_not_expired": "The reaction window's deadline has not passed yet.",
    "system_only": "Only the system may issue this command.",
    "no_decision": "There is no such pending decision for this seat (advanced rules).",
    "no_ability": "The seat has no usable ability for this command now (advanced rules).",
    "not_allowed_now": "The pending decision does not allow this (advanced rules).",
    "bad_position": "The start position is invalid: `field` names where (a path such as "
    "`players.1.hand.2`), the message says why.",
}

# HTTP status of each code: a malformed command is 400, one that lost a race with the
# game's state 409, a seat acting for the system 403, any other refusal 422.
HTTP_STATUS: dict[str, int] = {
    "bad_command": 400,
    "bad_position": 400,
    "game_over": 409,
    "window_closed": 409,
    "not_a_player": 403,
    "system_only": 403,
}


def http_status(code: str) -> int:
    return HTTP_STATUS.get(code, 422)
