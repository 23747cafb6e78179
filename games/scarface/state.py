"""The state of a game of Scarface 1920: frozen dataclasses and tuples, rebuilt by folding
events (``evolve``). Counts of pieces are kept where they are (a thug place's count, a
tile's goods); supplies are what the gang's limits leave (S-1.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from .content import COLUMNS, CONTENT_VERSION

T = TypeVar("T")


def with_changes(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for our plain frozen dataclasses, several times faster."""
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new


THUGS_PER_GANG = 12
CARS_PER_GANG = 3
TRUCKS_PER_GANG = 2
MARKERS_PER_GANG = 7
TILE_STORAGE = 3
MAX_BUSINESSES = 3


@dataclass(frozen=True)
class Stored:
    """Goods on one of a seat's dealers: its storage type (fixed when kept) and count."""

    dealer: str
    good: str
    n: int = 0


@dataclass(frozen=True)
class PlayerState:
    seat: int
    name: str
    gang: str
    money: int = 10
    crime: int = 1
    boss: int = 0  # boss track space (0..12)
    hand_limit: int = 3
    lawyer: int = 0
    recruiter: int = 1
    support: int = 0  # dealer support
    columns: tuple[int, ...] = tuple(0 for _ in COLUMNS)  # slots filled per column
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()  # top first
    discard: tuple[str, ...] = ()
    plan: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()  # hat cards not yet unlocked (public)
    jobs: tuple[str, ...] = ()  # jobs in hand (hidden)
    done: tuple[str, ...] = ()  # completed permanent jobs (public)
    thugs: tuple[tuple[str, int], ...] = ()  # (place, n), n > 0, sorted by place
    cars: tuple[str, ...] = ()  # the district of each car on the board, sorted
    trucks: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()  # dealer rows (SR-78), each its dealers
    stored: tuple[Stored, ...] = ()  # one per dealer the seat holds
    reorgs: int = 0
    in_game: bool = True

    def at(self, place: str) -> int:
        for p, n in self.thugs:
            if p == place:
                return n
        return 0

    def storage(self, dealer: str) -> Stored | None:
        for s in self.stored:
            if s.dealer == dealer:
                return s
        return None

    def column(self, name: str) -> int:
        return self.columns[COLUMNS.index(name)]

    def permanent(self, reward: str, jobs: Any) -> int:
        """How many completed permanent jobs of this reward the seat has (SR-65)."""
        return sum(1 for j in self.done if jobs[j].reward == reward)


@dataclass(frozen=True)
class Tile:
    id: str
    owner: int | None = None
    alcohol: int = 0
    gun: int = 0
    businesses: tuple[str, ...] = ()  # non-nightclub markers
    nightclub: bool = False

    def goods(self, good: str) -> int:
        return self.alcohol if good == "alcohol" else self.gun

    @property
    def markers(self) -> int:
        return len(self.businesses) + (1 if self.nightclub else 0)


@dataclass(frozen=True)
class GameState:
    rules_version: int = 0
    content_version: str = CONTENT_VERSION
    started: bool = False
    over: bool = False
    seed: str = ""
    salt: str = ""
    seed_hash: str = ""
    names: tuple[str, ...] = ()
    first_seat: int = 0
    seats_at_start: int = 0
    players: tuple[PlayerState, ...] = ()
    tiles: tuple[Tile, ...] = ()
    police: tuple[str, ...] = ()  # the district of each police car on the board
    ness: int = 0
    time: int = 0
    market_low: tuple[str | None, ...] = ()  # left to right
    market_high: tuple[str | None, ...] = ()
    low_deck: tuple[str, ...] = ()
    high_deck: tuple[str, ...] = ()
    job_deck: tuple[str, ...] = ()
    job_discard: tuple[str, ...] = ()
    dealer_deck: tuple[str, ...] = ()
    raid_deck: tuple[str, ...] = ()
    raid_discard: tuple[str, ...] = ()
    raid_reshuffles: int = 0
    news_deck: tuple[str, ...] = ()
    news: str | None = None  # the news last revealed (a lasting one is in force)
    news_seen: tuple[str, ...] = ()
    ring: int | None = None
    business_supply: tuple[tuple[str, int], ...] = ()
    # the turn
    turn: int = 0
    seat: int = 0
    kind: str = ""  # "action" | "reorganization"
    step: str = ""  # plan, actions, choose, reorg_sales, reorg_recruit ("" between)
    muscle: int = 0
    influence: int = 0
    skills_used: tuple[str, ...] = ()
    boss_uses: int = 0
    order_used: bool = False
    sold: tuple[str, ...] = ()
    alderman: bool = False
    offered: tuple[str, ...] = ()
    offered_deck: str = ""  # "jobs" | "dealers" while ``choose`` waits
    # raids
    raid_pending: bool = False
    in_raid: bool = False
    raids: int = 0
    crime_raids: int = 0
    extras: int = 0
    # the end
    winners: tuple[int, ...] = ()
    cash: tuple[int, ...] = ()
    final_income: tuple[int, ...] = ()
    stacked: Any = None

    def tile(self, tid: str) -> Tile:
        return self.tiles[int(tid[1:]) - 1]

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    def in_game(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if p.in_game)

    def controlled(self, seat: int) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if t.owner == seat)

    def supply_of(self, business: str) -> int:
        for b, n in self.business_supply:
            if b == business:
                return n
        return 0
