"""The 30 scheme designs (ISD-3, stand-in): what each costs and does.

``SCHEME_RULES[(faction, number)]`` holds the design's mandatory payment (IR-27) and its
resolution, which reads the command's ``choices`` and raises ``RuleViolation`` on a bad
one (the whole command is then refused, nothing is applied).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import FACTIONS, RESOURCES, SCHEMES
from .content import STANDIN_0, content_of
from .errors import RuleViolation
from .events import Lost
from .flow import (
    Builder,
    check_rival,
    draw,
    gain,
    gain_rep,
    move_watchdog,
    place_hazard,
    recover,
    remove_hazard,
    sabotage,
    steal_resource,
    steal_scheme,
)
from .state import GameState

Choices = dict[str, Any]
Resolve = Callable[[Builder, int, Choices], None]


@dataclass(frozen=True)
class SchemeRule:
    pay: tuple[tuple[str, int], ...]  # mandatory payment, made first
    resolve: Resolve
    keys: tuple[str, ...] = ()  # the choices it reads


def _resource(choices: Choices, allowed: tuple[str, ...] = RESOURCES) -> str:
    what = choices.get("resource")
    if what not in allowed:
        raise RuleViolation("missing_choice", "Name a resource.", choices=list(allowed))
    return str(what)


def _gains(*gains: tuple[str, int]) -> Resolve:
    def resolve(b: Builder, seat: int, choices: Choices) -> None:
        for what, n in gains:
            gain(b, seat, what, n, "scheme")

    return resolve


def _shakedown(b: Builder, seat: int, c: Choices) -> None:
    rival = check_rival(b.state, seat, c.get("rival"))
    steal_resource(b, seat, rival, _resource(c), "scheme")


def _raid(b: Builder, seat: int, c: Choices) -> None:
    rival = check_rival(b.state, seat, c.get("rival"))
    steal_resource(b, seat, rival, _resource(c, ("weapon", "compound")), "scheme")


def _insider(b: Builder, seat: int, c: Choices) -> None:
    steal_resource(b, seat, check_rival(b.state, seat, c.get("rival")), "data", "scheme")


def _hazard_then(what: str) -> Resolve:
    def resolve(b: Builder, seat: int, c: Choices) -> None:
        place_hazard(b, c.get("space"), "scheme")
        gain(b, seat, what, 1, "scheme")

    return resolve


def _loyal(b: Builder, seat: int, c: Choices) -> None:
    gain(b, seat, "henchman", 1, "scheme")
    if b.state.players[seat].henchman >= 4:
        gain(b, seat, "infamy", 1, "scheme")


def _swap(b: Builder, seat: int, c: Choices) -> None:
    give = tuple(c.get("give") or ())
    take = tuple(c.get("take") or ())
    if len(give) > 2 or len(take) != len(give) or any(r not in RESOURCES for r in give + take):
        raise RuleViolation("illegal_target", "Give up to 2 resources and take as many.")
    p = b.state.players[seat]
    for r in RESOURCES:
        if give.count(r) > p.count(r):
            raise RuleViolation("cannot_pay", f"Not enough {r} to return.")
    for r in give:
        b.emit(Lost(seat, r, 1, "scheme"))
    for r in take:
        if not b.state.supply_of(r):
            raise RuleViolation("supply_empty", f"The supply has no {r} left.")
        gain(b, seat, r, 1, "scheme")


def _rep(faction: str) -> Resolve:
    def resolve(b: Builder, seat: int, c: Choices) -> None:
        gain_rep(b, seat, faction, 1, "scheme")

    return resolve


def _hit_squad(b: Builder, seat: int, c: Choices) -> None:
    rival = check_rival(b.state, seat, c.get("rival"))
    if b.state.players[rival].henchman:
        b.emit(Lost(rival, "henchman", 1, "scheme"))


def _recover_then(n: int, *gains: tuple[str, int]) -> Resolve:
    def resolve(b: Builder, seat: int, c: Choices) -> None:
        recover(b, seat, n, "scheme")
        for what, k in gains:
            gain(b, seat, what, k, "scheme")

    return resolve


def _move(then: tuple[tuple[str, int], ...] = ()) -> Resolve:
    def resolve(b: Builder, seat: int, c: Choices) -> None:
        move_watchdog(b, c.get("from"), c.get("to"), "scheme")
        for what, k in then:
            gain(b, seat, what, k, "scheme")

    return resolve


def _jobs(c: Choices) -> tuple[str, ...]:
    jobs = c.get("jobs") or ()
    if not isinstance(jobs, list | tuple) or not all(isinstance(j, str) for j in jobs):
        raise RuleViolation("bad_command", "'jobs' is a list of job ids.")
    return tuple(jobs)


def _audit(b: Builder, seat: int, c: Choices) -> None:
    sabotage(b, _jobs(c), "scheme", 2)


def _espionage(b: Builder, seat: int, c: Choices) -> None:
    steal_scheme(b, seat, check_rival(b.state, seat, c.get("rival")))


def _clean_sweep(b: Builder, seat: int, c: Choices) -> None:
    remove_hazard(b, c.get("space"), "scheme")
    gain(b, seat, "data", 1, "scheme")


def _deck(b: Builder, name: Any) -> str:
    """A scheme deck that can give a card (IR-28): named, and not empty with an empty
    discard pile (rules 2: the scheme being played is not in its discard pile yet)."""
    able = [f for f in FACTIONS if b.state.can_draw(f)]
    if name in FACTIONS and name not in able:
        raise RuleViolation("illegal_target", "That deck and its discard pile are empty.",
                            reason="deck_empty", choices=able)  # fmt: skip
    if name not in able:
        raise RuleViolation("missing_choice", "Name a scheme deck to draw from.", choices=able)
    return str(name)


def _informer(b: Builder, seat: int, c: Choices) -> None:
    decks = tuple(c.get("decks") or ())
    if len(decks) != 2:
        raise RuleViolation("missing_choice", "Name 2 decks to draw from ('decks').")
    for name in decks:
        if any(b.state.can_draw(f) for f in FACTIONS):
            draw(b, seat, _deck(b, name), 1, "scheme")


def _cut_lines(b: Builder, seat: int, c: Choices) -> None:
    sabotage(b, _jobs(c), "scheme", 1)
    remove_hazard(b, c.get("space"), "scheme", optional=True)


def _cell(b: Builder, seat: int, c: Choices) -> None:
    if any(b.state.can_draw(f) for f in FACTIONS):
        draw(b, seat, _deck(b, c.get("deck")), 1, "scheme")
    gain(b, seat, "data", 1, "scheme")


INFORMER_NETWORK = ("trust", 10)

SCHEME_RULES: dict[tuple[str, int], SchemeRule] = {
    ("harada", 1): SchemeRule((), _gains(("compound", 2))),
    ("harada", 2): SchemeRule((("compound", 1),), _gains(("henchman", 1))),
    ("harada", 3): SchemeRule((), _shakedown, ("rival", "resource")),
    ("harada", 4): SchemeRule((), _hazard_then("compound"), ("space",)),
    ("harada", 5): SchemeRule((("compound", 2),), _gains(("infamy", 2))),
    ("harada", 6): SchemeRule((), _loyal),
    ("harada", 7): SchemeRule((), _swap, ("give", "take")),
    ("harada", 8): SchemeRule((("compound", 3), ("henchman", 1)), _rep("harada")),
    ("harada", 9): SchemeRule((), _hit_squad, ("rival",)),
    ("harada", 10): SchemeRule((), _recover_then(2, ("compound", 1))),
    ("trust", 1): SchemeRule((), _move(), ("from", "to")),
    ("trust", 2): SchemeRule((), _gains(("data", 2))),
    ("trust", 3): SchemeRule((), _insider, ("rival",)),
    ("trust", 4): SchemeRule((), _audit, ("jobs",)),
    ("trust", 5): SchemeRule((), _recover_then(3)),
    ("trust", 6): SchemeRule((("data", 3),), _gains(("favor", 1))),
    ("trust", 7): SchemeRule((("data", 3),), _rep("trust")),
    ("trust", 8): SchemeRule((), _espionage, ("rival",)),
    ("trust", 9): SchemeRule((), _clean_sweep, ("space",)),
    ("trust", 10): SchemeRule((), _informer, ("decks",)),
    ("pkd", 1): SchemeRule((), _gains(("weapon", 2))),
    ("pkd", 2): SchemeRule((), _gains(("henchman", 1), ("weapon", 1))),
    ("pkd", 3): SchemeRule((), _raid, ("rival", "resource")),
    ("pkd", 4): SchemeRule((), _hazard_then("infamy"), ("space",)),
    ("pkd", 5): SchemeRule((("weapon", 3),), _rep("pkd")),
    ("pkd", 6): SchemeRule((("henchman", 2),), _gains(("infamy", 3))),
    ("pkd", 7): SchemeRule((), _cut_lines, ("jobs", "space")),
    ("pkd", 8): SchemeRule((), _recover_then(1, ("weapon", 1))),
    ("pkd", 9): SchemeRule((), _move((("weapon", 1),)), ("from", "to")),
    ("pkd", 10): SchemeRule((), _cell, ("deck",)),
}  # content infamy/standin-1 (the tuned tables)
# content infamy/standin-0 (the specification's ISD-3): the designs the tuning changed
SPEC_SCHEME_RULES: dict[tuple[str, int], SchemeRule] = {
    **SCHEME_RULES,
    ("harada", 2): SchemeRule((("compound", 1),), _gains(("henchman", 2))),
    ("harada", 8): SchemeRule((("compound", 2), ("henchman", 1)), _rep("harada")),
    ("trust", 7): SchemeRule((("data", 2),), _rep("trust")),
    ("pkd", 5): SchemeRule((("weapon", 2),), _rep("pkd")),
}


def scheme_rule(state: GameState, card: str) -> SchemeRule:
    """The payment and resolution of scheme ``card`` in the content ``state``'s game is
    played with (content.content_of)."""
    design = SCHEMES[card]
    rules = SPEC_SCHEME_RULES if content_of(state).id == STANDIN_0 else SCHEME_RULES
    return rules[(design.faction, design.number)]
