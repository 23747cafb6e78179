"""Events: what happened, in the past tense. Each carries its result, so replay needs no
random generator. Fields marked "secret" are redacted by ``view.redact_event``.

Their JSON shape is schema version ``codec.SCHEMA_VERSION``; a stored event of an older
shape is upcast on every read (``codec.upcast_event``), never rewritten."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameStarted:
    rules_version: int
    content_version: str
    names: tuple[str, ...]
    colours: tuple[str, ...]
    sector_seconds: int
    turn_seconds: int
    seed: str  # secret until GameEnded; views show seed_hash
    seed_hash: str
    stacked: dict[str, Any]  # the sandbox's stacked decks (G-15); secret until GameEnded
    # salts seed_hash (a sandbox's short seed cannot be found by hashing guesses); secret
    # until GameEnded, as the seed; "" for a game started without one
    salt: str = ""
    # a game started from a position (position.py): the document, its schemes, deck orders
    # and sealed choices hidden as a dealt game's; None (left out of the stored event): dealt
    position: dict[str, Any] | None = None


@dataclass(frozen=True)
class JobDeckShuffled:
    cards: tuple[str, ...]  # top first; secret


@dataclass(frozen=True)
class SchemeDeckShuffled:
    faction: str
    cards: tuple[str, ...]  # top first; secret
    reason: str  # "setup" | "reshuffle"


@dataclass(frozen=True)
class BodyguardAssigned:
    seat: int


@dataclass(frozen=True)
class WatchdogPlaced:
    sector: int
    cause: str  # "setup" | "c11"


@dataclass(frozen=True)
class RoundStarted:
    round: int
    turn: int
    day: bool


@dataclass(frozen=True)
class ContactDeckShuffled:
    cards: tuple[str, ...]  # top first; secret


@dataclass(frozen=True)
class ContactsRevealed:
    cards: tuple[str, ...]  # track positions 1..5


@dataclass(frozen=True)
class StepStarted:
    """The game now waits on ``seat`` (None: every seat without a commitment, the sealed
    sector step) for ``step``, until ``deadline`` (ms) when the step has one."""

    step: str
    seat: int | None
    deadline: int | None = None


@dataclass(frozen=True)
class WatchdogMoved:
    source: int  # JSON "from" (schema 1: "from_sector")
    target: int  # JSON "to" (schema 1: "to_sector")
    cause: str


@dataclass(frozen=True)
class WatchdogRemoved:
    sector: int
    cause: str


@dataclass(frozen=True)
class AuctionOpened:
    position: int  # 0..4
    contact: str


@dataclass(frozen=True)
class BidPlaced:
    seat: int
    contact: str
    total: int  # the seat's bribes on the contact after the bid
    expense: int = 1


@dataclass(frozen=True)
class FavorUsed:
    seat: int
    contact: str


@dataclass(frozen=True)
class BidPassed:
    seat: int
    contact: str
    auto: bool  # I-4.5.6: no legal bid and no usable favor


@dataclass(frozen=True)
class ContactWon:
    seat: int
    contact: str
    position: int
    returned: tuple[tuple[int, int], ...]  # (seat, bribes) taken back by the losers


@dataclass(frozen=True)
class ContactUnclaimed:
    contact: str
    position: int


@dataclass(frozen=True)
class BodyguardPassed:
    seat: int


@dataclass(frozen=True)
class Gained:
    seat: int
    what: str  # a token kind, "infamy" or "rep.<faction>"
    n: int
    cause: str


@dataclass(frozen=True)
class Lost:
    seat: int
    what: str  # a token kind, back to the general supply
    n: int
    cause: str


@dataclass(frozen=True)
class BribesSpent:
    seat: int
    n: int
    cause: str


@dataclass(frozen=True)
class BribesRecovered:
    seat: int
    n: int
    cause: str


@dataclass(frozen=True)
class BribesRetrieved:
    """I-8.4: every seat's bribes on contacts go to its spent area."""


@dataclass(frozen=True)
class ResourceStolen:
    source: int  # the victim; JSON "from" (schema 1: "from_seat")
    target: int  # the thief; JSON "to" (schema 1: "to_seat")
    what: str
    cause: str


@dataclass(frozen=True)
class SchemesDrawn:
    seat: int
    faction: str
    cards: tuple[str, ...]  # secret to all but the seat
    cause: str


@dataclass(frozen=True)
class SchemeDiscarded:
    seat: int
    card: str
    cause: str


@dataclass(frozen=True)
class SchemeStolen:
    source: int  # the victim; JSON "from" (schema 1: "from_seat")
    target: int  # the thief; JSON "to" (schema 1: "to_seat")
    card: str  # secret to all but the two seats


@dataclass(frozen=True)
class ThugAsked:
    seat: int
    rival: int
    resource: str


@dataclass(frozen=True)
class ThugResolved:
    seat: int
    rival: int
    cancelled: bool
    resource: str


@dataclass(frozen=True)
class HazardPlaced:
    space: str
    cause: str


@dataclass(frozen=True)
class HazardRemoved:
    space: str
    cause: str


@dataclass(frozen=True)
class JobSabotaged:
    job: str  # to the bottom of the job deck
    cause: str


@dataclass(frozen=True)
class SectorChosen:
    seat: int
    sector: int  # secret to all but the seat until SectorsRevealed
    accomplice: int = 0  # the accomplice's sector (Accomplice winner only); secret


@dataclass(frozen=True)
class SectorsRevealed:
    choices: tuple[tuple[int, int, int], ...]  # (seat, sector, accomplice sector or 0)
    order: tuple[int, ...]  # placement order (I-4.7)


@dataclass(frozen=True)
class FigurePlaced:
    seat: int
    figure: str
    space: str


@dataclass(frozen=True)
class FigureNotPlaced:
    seat: int
    figure: str
    reason: str  # "no_legal_space" | "watchdog" (IR-39) | "resigned"


@dataclass(frozen=True)
class PlacementForgone:
    seat: int
    figure: str


@dataclass(frozen=True)
class JobCompleted:
    seat: int
    job: str
    paid: tuple[tuple[str, int], ...]
    faction: str  # where the job's Reputation goes


@dataclass(frozen=True)
class PerkReached:
    seat: int
    faction: str
    level: int


@dataclass(frozen=True)
class SchemePhaseStarted:
    order: tuple[int, ...]


@dataclass(frozen=True)
class SchemePlayed:
    seat: int
    card: str
    choices: dict[str, Any]


@dataclass(frozen=True)
class SchemeStepEnded:
    seat: int
    passed: bool


@dataclass(frozen=True)
class HenchmenScored:
    seat: int
    i: int  # Infamy gained (schema 1: "infamy")


@dataclass(frozen=True)
class FiguresCleared:
    """Figures leave the board at the end of the round (3.8.12)."""


@dataclass(frozen=True)
class JobsRefilled:
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DayNightFlipped:
    day: bool


@dataclass(frozen=True)
class PlayerResigned:
    seat: int


@dataclass(frozen=True)
class GameEnded:
    winners: tuple[int, ...]
    seed: str  # revealed
    reason: str  # "victory" | "last_seat"


Event = (
    GameStarted
    | JobDeckShuffled
    | SchemeDeckShuffled
    | BodyguardAssigned
    | WatchdogPlaced
    | RoundStarted
    | ContactDeckShuffled
    | ContactsRevealed
    | StepStarted
    | WatchdogMoved
    | WatchdogRemoved
    | AuctionOpened
    | BidPlaced
    | FavorUsed
    | BidPassed
    | ContactWon
    | ContactUnclaimed
    | BodyguardPassed
    | Gained
    | Lost
    | BribesSpent
    | BribesRecovered
    | BribesRetrieved
    | ResourceStolen
    | SchemesDrawn
    | SchemeDiscarded
    | SchemeStolen
    | ThugAsked
    | ThugResolved
    | HazardPlaced
    | HazardRemoved
    | JobSabotaged
    | SectorChosen
    | SectorsRevealed
    | FigurePlaced
    | FigureNotPlaced
    | PlacementForgone
    | JobCompleted
    | PerkReached
    | SchemePhaseStarted
    | SchemePlayed
    | SchemeStepEnded
    | HenchmenScored
    | FiguresCleared
    | JobsRefilled
    | DayNightFlipped
    | PlayerResigned
    | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        GameStarted, JobDeckShuffled, SchemeDeckShuffled, BodyguardAssigned, WatchdogPlaced,
        RoundStarted, ContactDeckShuffled, ContactsRevealed, StepStarted, WatchdogMoved,
        WatchdogRemoved, AuctionOpened, BidPlaced, FavorUsed, BidPassed, ContactWon,
        ContactUnclaimed, BodyguardPassed, Gained, Lost, BribesSpent, BribesRecovered,
        BribesRetrieved, ResourceStolen, SchemesDrawn, SchemeDiscarded, SchemeStolen,
        ThugAsked, ThugResolved, HazardPlaced, HazardRemoved, JobSabotaged, SectorChosen,
        SectorsRevealed, FigurePlaced, FigureNotPlaced, PlacementForgone, JobCompleted,
        PerkReached, SchemePhaseStarted, SchemePlayed, SchemeStepEnded, HenchmenScored,
        FiguresCleared, JobsRefilled, DayNightFlipped, PlayerResigned, GameEnded,
    )
}  # fmt: skip
