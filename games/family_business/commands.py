"""Commands: what a seat (or the system) asks the game to do. Imperative names."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayCard:
    """Play a card from hand on your turn, for its effect or (``discard``) with none.

    ``targets`` are mobster ids, their meaning depending on the card (see docs/rules.md);
    ``player`` is PAY OFF's player; ``own`` is the mobster HIT puts on the Hit List.
    """

    card: str
    targets: tuple[str, ...] = ()
    player: int | None = None
    own: str | None = None
    discard: bool = False


@dataclass(frozen=True)
class Counter:
    """Answer the open window with a counter card; MOB POWER names the attacker's mobster."""

    window: str
    card: str
    mobster: str | None = None


@dataclass(frozen=True)
class Pass:
    """Decline to counter in the open window. A pass is final."""

    window: str


@dataclass(frozen=True)
class CloseWindow:
    """Issued by the system when a window's deadline has passed."""

    window: str


@dataclass(frozen=True)
class Resign:
    """Leave the game at any moment: mobsters go to the graveyard, the hand is discarded."""


@dataclass(frozen=True)
class Draw:
    """Advanced rules, at a pending "draw" decision: draw from ``source`` ("deck" or
    "discard"). With CRIME SCENE CLEANER and a discard pile, one card per command;
    otherwise every card still to draw comes from the deck."""

    source: str = "deck"


@dataclass(frozen=True)
class UseButcher:
    """Advanced rules, BUTCHER: discard ``cards`` from hand and draw as many."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Unforgiving:
    """Advanced rules, UNFORGIVING: put ``mobster`` (in play, not listed) at the end of the
    Hit List, or ``None`` for no effect."""

    window: str
    mobster: str | None = None


@dataclass(frozen=True)
class EndTurn:
    """Advanced rules, SHORT-TEMPERED: decline the extra ATTACK card and end the turn."""


Command = (
    PlayCard | Counter | Pass | CloseWindow | Resign | Draw | UseButcher | Unforgiving | EndTurn
)
