"""The rules versions Infamy still decides, and what differs between them, in one place.

A game is decided by the rules version recorded in its ``GameStarted`` (the state's
``rules_version``), never by the newest: a running game keeps its version to its end and
an old record re-decides exactly as it was decided (docs/rules-infamy.md "Versions").
Every difference in what ``decide`` accepts or produces (or ``evolve`` folds) is a field of
``Rules``; the engine asks ``rules_of(state)`` and never compares version numbers itself.

Refusal codes are not part of this: a refused command appends no event and verification
re-decides only accepted commands, so a refusal's code may change without a new version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class Rules:
    version: int
    # I-8.1: a scheme resolves, then is discarded. Rules 1 moved it to its discard pile as
    # it was played, so a draw from its own empty deck reshuffled it back and could draw it.
    discard_after_resolving: bool
    # 3.8.3: when the high bidder resigns, the highest remaining bid stands with the passes
    # made since it (rules 1 kept only the passes made since the resigned seat's bid).
    passes_since_remaining_high: bool
    # 3.3's step names for the two discards: the Informant's belongs to the ``reward`` step,
    # Informer Network's to the ``scheme`` step (rules 1: ``discard``, ``scheme_discard``).
    informant_discard_step: str
    scheme_discard_step: str


RULES: dict[int, Rules] = {
    1: Rules(1, False, False, "discard", "scheme_discard"),
    2: Rules(2, True, True, "reward", "scheme"),
}
RULES_VERSIONS: tuple[int, ...] = tuple(sorted(RULES))  # oldest first
RULES_VERSION = RULES_VERSIONS[-1]  # what a new table gets


def rules_of(state: GameState) -> Rules:
    """The rules ``state``'s game is decided by (a state not started yet: the newest)."""
    return RULES.get(state.rules_version) or RULES[RULES_VERSION]
