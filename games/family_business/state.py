"""The state of a game: frozen dataclasses and tuples, rebuilt by folding events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from .cards import MOBSTER_FAMILY

T = TypeVar("T")


def with_changes(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for our plain frozen dataclasses, several times faster:
    evolve runs it for every event of every replay."""
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new


@dataclass(frozen=True)
class PlayerState:
    seat: int
    name: str
    family: str
    hand: tuple[str, ...] = ()
    crew: tuple[str, ...] = ()  # mobsters in front of the player, not on the Hit List
    out: bool = False
    resigned: bool = False


@dataclass(frozen=True)
class Window:
    """An open reaction window: the pending card and who may still answer it.

    With the advanced rules the same record holds a pending mid-turn decision
    (``decision`` not empty): ``seat`` alone decides, by ``deadline``; ``CloseWindow``
    applies the decision's default. ``card``/``kind`` then name the ability card that asks
    (``targets`` its mobster), ``count`` the cards still to draw and ``then`` where play
    resumes afterwards ("play", "turn:<seat>", "draw:<seat>" or "extra:<seat>").
    """

    id: str
    seat: int  # the card's player
    card: str
    kind: str
    targets: tuple[str, ...]
    eligible: tuple[int, ...]
    passed: tuple[int, ...]
    counters: tuple[str, ...]
    deadline: int
    decision: str = ""  # "" (a reaction window) | "draw" | "unforgiving" | "short_tempered"
    count: int = 0
    then: str = ""

    @property
    def waiting_on(self) -> tuple[int, ...]:
        return tuple(s for s in self.eligible if s not in self.passed)


@dataclass(frozen=True)
class WindowOutcome:
    """How the latest window closed; a late counter is told who won it."""

    id: str
    reason: str
    countered_by: int | None = None
    counter_card: str | None = None


@dataclass(frozen=True)
class GameState:
    rules_version: int = 0
    started: bool = False
    players: tuple[PlayerState, ...] = ()
    deck: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()  # top last
    hit_list: tuple[str, ...] = ()  # index 0 stands against the wall
    graveyard: tuple[str, ...] = ()
    mob_war: int = 0  # 0: none, 1: normal rate, 2: double rate
    turn_seat: int = 0
    turn: int = 0
    window: Window | None = None
    windows_opened: int = 0
    last_window: WindowOutcome | None = None
    shuffles: int = 0
    reaction_seconds: int = 10
    advanced: bool = False
    # Advanced rules: (mobster, ability card) for every ability under a mobster in play.
    abilities: tuple[tuple[str, str], ...] = ()
    unforgiving: tuple[str, ...] = ()  # dead UNFORGIVING mobsters whose owner must decide
    butcher_turn: int = 0  # the turn BUTCHER was last used in
    temper_turn: int = 0  # the turn SHORT-TEMPERED's extra card was played in
    seed: str = ""
    seed_hash: str = ""
    over: bool = False
    winners: tuple[int, ...] = ()

    # --- derived facts the rules ask for ---------------------------------------------

    def seat_of_family(self, family: str) -> int | None:
        for p in self.players:
            if p.family == family:
                return p.seat
        return None

    def owner(self, mobster: str) -> int:
        seat = self.seat_of_family(MOBSTER_FAMILY[mobster])
        assert seat is not None, mobster
        return seat

    def listed_of(self, seat: int) -> tuple[str, ...]:
        family = self.players[seat].family
        return tuple(m for m in self.hit_list if MOBSTER_FAMILY[m] == family)

    def in_play_count(self, seat: int) -> int:
        return len(self.players[seat].crew) + len(self.listed_of(seat))

    def mobsters_in_play(self) -> tuple[str, ...]:
        crews = tuple(m for p in self.players for m in p.crew)
        return crews + self.hit_list

    def ability_of(self, mobster: str) -> str | None:
        """The ability card under ``mobster``, if any."""
        for m, card in self.abilities:
            if m == mobster:
                return card
        return None

    def in_game(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if not p.out)

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that is still in the game."""
        n = len(self.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if not self.players[candidate].out:
                return candidate
        return seat
