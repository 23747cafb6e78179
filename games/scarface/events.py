"""Events (specification 3.3): past tense, each carrying its result, so ``evolve`` never
decides. Python fields ``source`` / ``target`` are ``from`` / ``to`` in JSON (codec).

Two events the specification's list lacks: ``StepStarted`` (which decision the game
awaits: the state's step is recorded, not re-derived) and ``RaidEnded`` (S-10.2.5, the
raid card discarded: it closes the raid, so a rise to 11 inside it starts none, SR-49).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameStarted:
    rules_version: int
    content_version: str
    names: tuple[str, ...]
    gangs: tuple[str, ...]
    first_seat: int
    seed_hash: str
    salt: str = ""
    seed: str = ""  # hidden until the end
    stacked: dict[str, Any] = field(default_factory=dict)  # shared deck orders (hidden)
    position: dict[str, Any] | None = None


@dataclass(frozen=True)
class DeckShuffled:
    owner: str  # a seat's number as text, or "raids"
    cards: tuple[str, ...]  # hidden (top first)
    reason: str


@dataclass(frozen=True)
class CardsDrawn:
    seat: int
    cards: tuple[str, ...]  # hidden from other seats


@dataclass(frozen=True)
class JobsDealt:
    seat: int
    cards: tuple[str, ...]  # hidden from other seats


@dataclass(frozen=True)
class MarketChanged:
    row: str  # "low" | "high"
    cards: tuple[str | None, ...]  # the row afterwards, left to right
    drawn: int  # cards taken from the row's deck (to fill the left)


@dataclass(frozen=True)
class TurnStarted:
    seat: int
    kind: str
    turn: int


@dataclass(frozen=True)
class StepStarted:
    seat: int
    step: str


@dataclass(frozen=True)
class PlanLaidOut:
    seat: int
    cards: tuple[str, ...]
    muscle: int
    influence: int


@dataclass(frozen=True)
class CrimeChanged:
    seat: int
    source: int
    target: int
    cause: str


@dataclass(frozen=True)
class MoneyChanged:
    seat: int
    delta: int
    cause: str


@dataclass(frozen=True)
class GoodsChanged:
    seat: int
    place: str
    good: str
    delta: int
    cause: str


@dataclass(frozen=True)
class SkillUsed:
    seat: int
    card: str
    detail: dict[str, Any]  # "muscle" / "influence": what it adds to the plan


@dataclass(frozen=True)
class BossSkillUsed:
    seat: int
    skill: int
    use: int
    detail: dict[str, Any]


@dataclass(frozen=True)
class OrderCarriedOut:
    seat: int
    order: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class ThugsMoved:
    seat: int
    source: str
    target: str
    n: int
    cause: str


@dataclass(frozen=True)
class VehicleMoved:
    seat: int
    what: str
    source: str
    target: str
    cause: str


@dataclass(frozen=True)
class AssociateRecruited:
    seat: int
    card: str
    to: str
    paid: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class RingTaken:
    seat: int


@dataclass(frozen=True)
class RingReleased:
    pass


@dataclass(frozen=True)
class CardsOffered:
    seat: int
    deck: str  # "jobs" | "dealers"
    cards: tuple[str, ...]  # hidden from other seats


@dataclass(frozen=True)
class CardKept:
    """A dealer kept from a Get a dealer offer (public): its row and storage type."""

    seat: int
    deck: str  # "dealers"
    card: str
    row: int | None = None
    storage: str | None = None


@dataclass(frozen=True)
class JobKept:
    """A job kept from a Take a job offer: the card is hidden from other seats (the
    specification's ``CardKept`` of a job, an event of its own so that what it hides is
    fixed by its kind)."""

    seat: int
    card: str


@dataclass(frozen=True)
class CardsBottomed:
    seat: int
    deck: str
    n: int
    cards: tuple[str, ...]  # hidden from other seats (the deck's order)


@dataclass(frozen=True)
class Sale:
    seat: int
    tile: str
    goods: tuple[dict[str, Any], ...]
    money: int


@dataclass(frozen=True)
class BusinessAdded:
    tile: str
    business: str


@dataclass(frozen=True)
class BusinessRemoved:
    tile: str
    business: str


@dataclass(frozen=True)
class NightclubOpened:
    tile: str


@dataclass(frozen=True)
class NightclubClosed:
    tile: str


@dataclass(frozen=True)
class ControlChanged:
    tile: str
    source: int | None
    target: int | None


@dataclass(frozen=True)
class AttackResolved:
    seat: int
    tile: str
    attack: int
    defence: int
    won: bool


@dataclass(frozen=True)
class DealerBought:
    seat: int
    row: int
    goods: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class GangUpgraded:
    seat: int
    column: str
    slot: int
    money: int
    crime: int


@dataclass(frozen=True)
class HatUnlocked:
    seat: int
    card: str
    to: str


@dataclass(frozen=True)
class JobCompleted:
    seat: int
    job: str
    paid: tuple[dict[str, Any], ...]
    reward: str


@dataclass(frozen=True)
class TurnEnded:
    seat: int


@dataclass(frozen=True)
class TimeAdvanced:
    to: int


@dataclass(frozen=True)
class TimeReset:
    to: int


@dataclass(frozen=True)
class ExtraExtraStarted:
    pass


@dataclass(frozen=True)
class RaidStarted:
    card: str
    trigger: str  # "crime" | "extra"


@dataclass(frozen=True)
class RaidEnded:
    card: str


@dataclass(frozen=True)
class ThugsImprisoned:
    seat: int
    n: int
    source: str


@dataclass(frozen=True)
class ZoneConsequence:
    seat: int
    zone: str
    detail: dict[str, Any]


@dataclass(frozen=True)
class NessAdvanced:
    to: int


@dataclass(frozen=True)
class PoliceMoved:
    source: str
    target: str


@dataclass(frozen=True)
class NewsRevealed:
    card: str


@dataclass(frozen=True)
class PlayerResigned:
    seat: int


@dataclass(frozen=True)
class GameEnded:
    winners: tuple[int, ...]
    cash: tuple[int, ...]
    final_income: tuple[int, ...]
    seed: str
    reason: str = "prohibition_ends"


Event = (
    GameStarted | DeckShuffled | CardsDrawn | JobsDealt | MarketChanged | TurnStarted
    | StepStarted | PlanLaidOut | CrimeChanged | MoneyChanged | GoodsChanged | SkillUsed
    | BossSkillUsed | OrderCarriedOut | ThugsMoved | VehicleMoved | AssociateRecruited
    | RingTaken | RingReleased | CardsOffered | CardKept | JobKept | CardsBottomed | Sale
    | BusinessAdded | BusinessRemoved | NightclubOpened | NightclubClosed | ControlChanged
    | AttackResolved | DealerBought | GangUpgraded | HatUnlocked | JobCompleted | TurnEnded
    | TimeAdvanced | TimeReset | ExtraExtraStarted | RaidStarted | RaidEnded
    | ThugsImprisoned | ZoneConsequence | NessAdvanced | PoliceMoved | NewsRevealed
    | PlayerResigned | GameEnded
)  # fmt: skip

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        GameStarted, DeckShuffled, CardsDrawn, JobsDealt, MarketChanged, TurnStarted,
        StepStarted, PlanLaidOut, CrimeChanged, MoneyChanged, GoodsChanged, SkillUsed,
        BossSkillUsed, OrderCarriedOut, ThugsMoved, VehicleMoved, AssociateRecruited,
        RingTaken, RingReleased, CardsOffered, CardKept, JobKept, CardsBottomed, Sale,
        BusinessAdded, BusinessRemoved, NightclubOpened, NightclubClosed, ControlChanged,
        AttackResolved, DealerBought, GangUpgraded, HatUnlocked, JobCompleted, TurnEnded,
        TimeAdvanced, TimeReset, ExtraExtraStarted, RaidStarted, RaidEnded,
        ThugsImprisoned, ZoneConsequence, NessAdvanced, PoliceMoved, NewsRevealed,
        PlayerResigned, GameEnded,
    )
}  # fmt: skip
