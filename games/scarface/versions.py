"""The rules versions Scarface 1920 still decides, and what differs between them, in one
place (as Infamy's ``versions``).

A game is decided by the rules version recorded in its ``GameStarted`` (the state's
``rules_version``), never by the newest: a running game keeps its version to its end and
an old record re-decides exactly as it was decided. Every difference in what ``decide``
accepts or produces is a field of ``Rules``; the engine asks ``rules_of(state)`` and never
compares version numbers itself.

Version 1 is stage 1 (specification section 9): skills with a target and jobs out of turn
are refused ``not_allowed_now``. Stage 2 (issue 33) adds them as version 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class Rules:
    version: int
    # S-7, SR-54, SR-55: skills whose effect names a target (moves, sends, the Hitman, ...)
    targeted_skills: bool
    # G-8, SR-18, SR-65, SR-69: any seat completes a job at any decision point
    out_of_turn_jobs: bool


RULES: dict[int, Rules] = {
    1: Rules(1, targeted_skills=False, out_of_turn_jobs=False),
    2: Rules(2, targeted_skills=True, out_of_turn_jobs=True),
}
RULES_VERSIONS: tuple[int, ...] = tuple(sorted(RULES))  # oldest first
RULES_VERSION = RULES_VERSIONS[-1]  # what a new table gets


def rules_of(state: GameState) -> Rules:
    """The rules ``state``'s game is decided by (a state not started yet: the newest)."""
    return RULES.get(state.rules_version) or RULES[RULES_VERSION]
