"""Events: what happened, in the past tense. Each carries its result, so replay needs no dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameStarted:
    rules_version: int
    names: tuple[str, ...]
    families: tuple[str, ...]
    reaction_seconds: int
    advanced: bool
    seed: str  # secret until GameEnded; views show seed_hash
    seed_hash: str
    stacked_deck: tuple[str, ...] = ()  # cards put on top before the setup shuffle; secret
    salt: str = ""  # mixed into seed_hash; secret until GameEnded like the seed
    # a game started from a position (position.py): the document, its hands and deck
    # hidden as a dealt game's; None (left out of the stored event): a dealt game
    position: dict[str, Any] | None = None


@dataclass(frozen=True)
class DeckShuffled:
    cards: tuple[str, ...]  # the new deck, top first; secret
    reason: str  # "setup" | "reshuffle" | "undo" (after an undo, from a fresh seed)


@dataclass(frozen=True)
class CardsDealt:
    seat: int
    cards: tuple[str, ...]  # secret to all but the seat


@dataclass(frozen=True)
class TurnStarted:
    seat: int
    turn: int


@dataclass(frozen=True)
class CardsDrawn:
    seat: int
    cards: tuple[str, ...]  # secret to all but the seat


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: str
    kind: str
    discard: bool
    targets: tuple[str, ...] = ()
    player: int | None = None
    own: str | None = None


@dataclass(frozen=True)
class WindowOpened:
    window: str
    seat: int
    card: str
    kind: str
    targets: tuple[str, ...]
    eligible: tuple[int, ...]
    counters: tuple[str, ...]  # counter kinds that answer the card
    deadline: int  # milliseconds since the epoch, from the command's clock


@dataclass(frozen=True)
class WindowPassed:
    window: str
    seat: int


@dataclass(frozen=True)
class CounterPlayed:
    window: str
    seat: int
    card: str
    kind: str
    mobster: str | None = None


@dataclass(frozen=True)
class WindowClosed:
    window: str
    reason: str  # "countered" | "all_passed" | "deadline" | "withdrawn" | "game_over"


@dataclass(frozen=True)
class MobsterListed:
    mobster: str
    position: int  # 0 is against the wall


@dataclass(frozen=True)
class MobsterRescued:
    mobster: str  # off the Hit List, back in front of its owner


@dataclass(frozen=True)
class MobsterEliminated:
    mobster: str
    cause: str  # "mob_war" | "hit" | "massacre" | "turncoat" | "resign"


@dataclass(frozen=True)
class HitListReordered:
    order: tuple[str, ...]


@dataclass(frozen=True)
class MobsterSubstituted:
    listed: str
    replacement: str  # swaps places if listed too; else the listed one goes home


@dataclass(frozen=True)
class MobsterReturned:
    """TURNCOAT brings a dead mobster back: into the Hit List place of the one it replaced
    (``position``), or home in front of its owner (``position`` None)."""

    mobster: str
    position: int | None


@dataclass(frozen=True)
class MobWarStarted:
    rate: int


@dataclass(frozen=True)
class MobWarRateChanged:
    rate: int


@dataclass(frozen=True)
class MobWarEnded:
    reason: str  # "truce" | "hit_list_empty"


@dataclass(frozen=True)
class PlayerResigned:
    seat: int


@dataclass(frozen=True)
class PlayerOut:
    seat: int
    discarded: tuple[str, ...]  # the hand, face up on the discard pile


@dataclass(frozen=True)
class GameEnded:
    winners: tuple[int, ...]  # one seat, or several sharing a draw, or none
    seed: str  # revealed, so anyone can re-run every shuffle


# --- advanced rules ----------------------------------------------------------------------


@dataclass(frozen=True)
class AbilityAssigned:
    """An ability card from hand slides under one of the player's own mobsters in play."""

    seat: int
    card: str
    kind: str
    mobster: str


@dataclass(frozen=True)
class AbilityUsed:
    """An ability changed what happened (a marker for the record and for clients)."""

    seat: int
    mobster: str
    ability: str
    detail: str = ""


@dataclass(frozen=True)
class DecisionOpened:
    """A pending decision of one seat (same id series and deadline as reaction windows).

    ``decision`` is "draw" (CRIME SCENE CLEANER / BUTCHER at a draw), "unforgiving" or
    "short_tempered"; ``card``/``kind``/``mobster`` name the asking ability."""

    window: str
    decision: str
    seat: int
    card: str
    kind: str
    mobster: str
    count: int
    then: str
    deadline: int


@dataclass(frozen=True)
class DiscardTaken:
    """CRIME SCENE CLEANER: the top card of the discard pile goes to the seat's hand."""

    seat: int
    card: str


@dataclass(frozen=True)
class ButcherUsed:
    """BUTCHER: the seat discards these cards face up; as many draws follow."""

    seat: int
    mobster: str
    cards: tuple[str, ...]


Event = (
    GameStarted
    | DeckShuffled
    | CardsDealt
    | TurnStarted
    | CardsDrawn
    | CardPlayed
    | WindowOpened
    | WindowPassed
    | CounterPlayed
    | WindowClosed
    | MobsterListed
    | MobsterRescued
    | MobsterEliminated
    | HitListReordered
    | MobsterSubstituted
    | MobsterReturned
    | MobWarStarted
    | MobWarRateChanged
    | MobWarEnded
    | PlayerResigned
    | PlayerOut
    | GameEnded
    | AbilityAssigned
    | AbilityUsed
    | DecisionOpened
    | DiscardTaken
    | ButcherUsed
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        DeckShuffled,
        CardsDealt,
        TurnStarted,
        CardsDrawn,
        CardPlayed,
        WindowOpened,
        WindowPassed,
        CounterPlayed,
        WindowClosed,
        MobsterListed,
        MobsterRescued,
        MobsterEliminated,
        HitListReordered,
        MobsterSubstituted,
        MobsterReturned,
        MobWarStarted,
        MobWarRateChanged,
        MobWarEnded,
        PlayerResigned,
        PlayerOut,
        GameEnded,
        AbilityAssigned,
        AbilityUsed,
        DecisionOpened,
        DiscardTaken,
        ButcherUsed,
    )
}
