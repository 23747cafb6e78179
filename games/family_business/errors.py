"""Typed refusals. Every refusal carries a stable machine code; tests assert on the code."""

from __future__ import annotations

from typing import Any


class RuleViolation(Exception):  # noqa: N818 - the domain's own word for it
    """A command the rules refuse. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r}, **{self.data!r})"


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
}
