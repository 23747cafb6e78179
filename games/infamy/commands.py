"""Commands: what a seat (or the system) asks the game to do. Imperative names.

Each names only the fields its step reads (docs/rules-infamy.md "Commands"); JSON names
differ only where Python reserves the word (``from``/``to`` are ``source``/``target``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MoveWatchdog:
    """I-4.4: the bodyguard holder moves a Watchdog to a different sector."""

    source: int
    target: int


@dataclass(frozen=True)
class Bid:
    """I-4.5.3: pay one expense and raise this seat's bribes on the contact to ``total``."""

    total: int


@dataclass(frozen=True)
class UseFavor:
    """I-4.6: win the contact at once with a favor (and the expense)."""


@dataclass(frozen=True)
class Pass:
    """Pass in an auction (not final, I-4.5.4) or in the scheme step (ends it)."""


@dataclass(frozen=True)
class Reward:
    """A contact reward's choice (I-4.8). Which fields count depends on the contact:
    Liaison ``choice`` ("infamy" | "rep") and ``faction``; Peddler ``resource``; Informant
    ``deck``; Saboteur ``job`` and ``hazard`` (each may be None); Sector Chief ``sector``;
    Thug ``rival`` (None: decline) and ``resource``."""

    choice: str | None = None
    faction: str | None = None
    resource: str | None = None
    deck: str | None = None
    job: str | None = None
    hazard: str | None = None
    sector: int | None = None
    rival: int | None = None


@dataclass(frozen=True)
class Discard:
    """Discard a scheme from hand where an effect asks for it (Informant, Informer
    Network)."""

    card: str


@dataclass(frozen=True)
class ThugResponse:
    """The Thug's rival: spend 3 bribes to cancel, or let the resource go."""

    cancel: bool


@dataclass(frozen=True)
class ChooseSector:
    """I-5.1, sealed: this seat's sector card (and the accomplice's, with the Accomplice)."""

    sector: int
    accomplice: int | None = None


@dataclass(frozen=True)
class Place:
    """I-5.3: put ``figure`` ("own" | "accomplice") on a space ("job" | "hq" | "supply") of
    its committed sector. On the job space: ``job``, the ``faction`` for its Reputation and
    the ``choices`` its reward asks (``deck``, ``hazard``, ``sabotage``, ``source`` and
    ``target`` for a Watchdog move)."""

    figure: str
    space: str
    job: str | None = None
    faction: str | None = None
    choices: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Forgo:
    """Smuggler, Day: place ``figure`` nowhere; gain ``resource`` and draw from ``deck``."""

    figure: str
    resource: str
    deck: str


@dataclass(frozen=True)
class PlayScheme:
    """I-8.1: play ``card`` from hand; ``choices`` per ISD-3."""

    card: str
    choices: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RemoveWatchdog:
    """Sector Chief, end of the round: remove the Watchdog from ``sector``."""

    sector: int


@dataclass(frozen=True)
class Resign:
    """Leave the game at any moment (I-11.1)."""


@dataclass(frozen=True)
class Timeout:
    """Issued by the system once the step's deadline has passed: plays the minimal default
    (I-11.4) for ``seat``, or for every awaited seat when ``seat`` is None."""

    seat: int | None = None


Command = (
    MoveWatchdog
    | Bid
    | UseFavor
    | Pass
    | Reward
    | Discard
    | ThugResponse
    | ChooseSector
    | Place
    | Forgo
    | PlayScheme
    | RemoveWatchdog
    | Resign
    | Timeout
)
