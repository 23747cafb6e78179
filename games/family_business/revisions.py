"""The rules versions of Family Business and how each differs: one flag per change.

A game's ``GameStarted`` records the rules version it is played under and its state
carries it (``GameState.rules_version``); the rules decide by that, never by the newest
constant, so a running game keeps its version to its end and an old record re-decides
exactly as it was decided (docs/event-store.md, "Versions"; docs/rules.md, "Rules
versions"). A change to what ``decide`` accepts or produces is a new version here: a
new ``Revision`` whose flags say what it changes, read where the rules branch
(``revision(state).flag``), never ``if version == 1`` about the code. A version is never
retired while a record of it must verify.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol


@dataclass(frozen=True)
class Revision:
    """What the rules of one version do where the versions differ."""

    version: int
    # Rulings of 23 Nov 2026 (commit 523b6fa), docs/rules.md R26/R30:
    # UNFORGIVING acts at once: a HIT or TURNCOAT whose elimination leaves an UNFORGIVING
    # decision opens it before the rest of the card (the HIT player's own mobster is listed
    # after its pick; TURNCOAT's dead mobster returns after it). Version 1: the card
    # resolved whole, and the decision came after it.
    unforgiving_at_once: bool
    # MOB POWER naming a mobster when the attacking player has none in front of them is
    # refused (illegal_target). Version 1: accepted, the name ignored (it named nobody).
    mob_power_names_only_choices: bool
    # A game that ends with a Mob War on an empty Hit List ends the war first
    # (MobWarEnded before GameEnded), so a final state never shows a war beside an empty
    # list. Version 1: the game ended with the war still recorded as running.
    war_ends_before_game: bool
    # A card played out of turn while a window is open is refused not_your_turn (whose
    # turn first) rather than window_open. Only the refusal's code differs: refusals are
    # not in a record's proof (no event), so this needs no gate to verify; it is gated so
    # an old game keeps answering as it did to its end.
    turn_checked_before_window: bool


REVISIONS: Final[dict[int, Revision]] = {
    1: Revision(
        1,
        unforgiving_at_once=False,
        mob_power_names_only_choices=False,
        war_ends_before_game=False,
        turn_checked_before_window=False,
    ),
    2: Revision(
        2,
        unforgiving_at_once=True,
        mob_power_names_only_choices=True,
        war_ends_before_game=True,
        turn_checked_before_window=True,
    ),
}

RULES_VERSIONS: Final[tuple[int, ...]] = tuple(sorted(REVISIONS))  # oldest first
RULES_VERSION: Final[int] = RULES_VERSIONS[-1]  # the newest: what new tables get


class Versioned(Protocol):
    @property
    def rules_version(self) -> int: ...


def revision(state: Versioned) -> Revision:
    """The rules of the version ``state``'s game is played under (a state before its
    ``GameStarted``, version 0, has the newest)."""
    version = state.rules_version or RULES_VERSION
    try:
        return REVISIONS[version]
    except KeyError:
        known = ", ".join(map(str, RULES_VERSIONS))
        raise ValueError(
            f"Family Business rules version {version} is not one this engine decides "
            f"(it decides {known})"
        ) from None
