"""Standing reactions: what a seat's standing preferences answer to an open reaction window.

Pure: the service stores the preferences, asks ``standing_reaction`` when a window opens
(and when a seat changes its preferences during one), and applies the answer as the
seat's own command. Whether a standing *pass* may show or shorten anything is the
service's rule, not the engine's (docs/rules.md, "Standing reactions"): here it is only
what the seat's preferences say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_KIND, KIND_INFO, Category, Kind
from .commands import Command, Counter, Pass
from .errors import RuleViolation
from .legal import legal_commands
from .state import GameState

# Why a standing reaction answered: a declared counter applied, the seat passes on
# everything for a while, or it holds no counter that answers the card.
DECLARED, PASS_ALL, NO_COUNTER = "declared", "pass_all", "no_counter"


@dataclass(frozen=True)
class DeclaredCounter:
    """Answer ``against`` (attack kinds; empty: any card ``counter`` answers) with a
    ``counter`` card, when the seat holds one; ``mine_only``: only when the card names
    one of the seat's own mobsters. MOB POWER names the first of the attacker's mobsters
    in front of them (their order on the table)."""

    counter: str
    against: tuple[str, ...] = ()
    mine_only: bool = True


@dataclass(frozen=True)
class Standing:
    """A seat's standing preferences. ``pass_until`` (ms, the service's clock) and
    ``pass_turn`` (a turn number) bound "pass on everything"; ``None``: not set."""

    auto_pass: bool = True
    pass_until: int | None = None
    pass_turn: int | None = None
    counters: tuple[DeclaredCounter, ...] = ()

    def passing_all(self, state: GameState, now: int) -> bool:
        by_time = self.pass_until is not None and now < self.pass_until
        by_turn = self.pass_turn is not None and state.turn == self.pass_turn
        return by_time or by_turn


@dataclass(frozen=True)
class Reaction:
    reason: str  # DECLARED, PASS_ALL or NO_COUNTER
    command: Command


def counter_answers() -> dict[str, tuple[str, ...]]:
    """Each counter kind and the attack kinds it answers (for clients and validation)."""
    answers: dict[str, list[str]] = {}
    for info in KIND_INFO.values():
        for counter in sorted(info.countered_by):
            answers.setdefault(counter.value, []).append(info.kind.value)
    return {k: tuple(sorted(v)) for k, v in sorted(answers.items())}


def check_declared(declared: DeclaredCounter) -> None:
    """Refuse a declaration that could never apply (``bad_command``)."""
    kind = Kind.__members__.get(declared.counter)
    if kind is None or KIND_INFO[kind].category is not Category.COUNTER:
        raise RuleViolation(
            "bad_command", f"{declared.counter!r} is not a counter card.", counter=declared.counter
        )
    answers = counter_answers().get(kind.value, ())
    wrong = sorted(set(declared.against) - set(answers))
    if wrong:
        raise RuleViolation(
            "not_counterable",
            f"{KIND_INFO[kind].name} does not answer {', '.join(wrong)}.",
            against=wrong,
            answers=list(answers),
        )


def current_turn(state: GameState) -> int:
    """The turn "pass on everything until the end of the turn" names."""
    return state.turn


def standing_reaction(
    state: GameState, seat: int, standing: Standing, *, now: int
) -> Reaction | None:
    """What ``standing`` answers for ``seat`` to the open reaction window at ``now``:
    a declared counter that applies, else a pass (everything, or no counter held), else
    nothing (the seat decides for itself)."""
    window = state.window
    if window is None or window.decision or state.over:
        return None
    options = legal_commands(state, seat, now=now)
    counters = [o for o in options if o.command == "counter"]
    if not any(o.command == "pass" for o in options):
        return None  # not eligible, passed already, or the deadline has passed
    owned = {m for m in window.targets if state.owner(m) == seat}
    for declared in standing.counters:
        if declared.against and window.kind not in declared.against:
            continue
        if declared.mine_only and not owned:
            continue
        for option in counters:
            if option.card is not None and CARD_KIND[option.card].value == declared.counter:
                mobsters = option.choices.get("mobster") or [None]
                return Reaction(DECLARED, Counter(window.id, option.card, mobsters[0]))
    if standing.passing_all(state, now):
        return Reaction(PASS_ALL, Pass(window.id))
    if standing.auto_pass and not counters:
        return Reaction(NO_COUNTER, Pass(window.id))
    return None


def answered_window(command: Command) -> str | None:
    """The window ``command`` answers (a pass or a counter), if it answers one."""
    return command.window if isinstance(command, Counter | Pass) else None


def is_pass(command: Command) -> bool:
    return isinstance(command, Pass)


def without_answers(legal: list[dict[str, Any]], window: str) -> list[dict[str, Any]]:
    """A seat's legal options (the view's ``legal``) less its answers to ``window``: what
    it may still do once it has passed on it (a sealed pass, which the rules do not see)."""
    return [o for o in legal if o.get("window") != window]
