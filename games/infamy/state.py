"""The state of a game of Infamy: frozen dataclasses and tuples, rebuilt by folding events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from .cards import BOARD, CONTENT_VERSION, FACTIONS, SUPPLY, TOKENS

T = TypeVar("T")


def with_changes(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for our plain frozen dataclasses, several times faster."""
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new


@dataclass(frozen=True)
class PlayerState:
    seat: int
    name: str
    colour: str
    weapon: int = 0
    data: int = 0
    compound: int = 0
    henchman: int = 0
    favor: int = 0
    available: int = 12  # bribes, available side up, in front of the seat
    spent: int = 0  # bribes in the spent area
    on_contacts: int = 0  # bribes on contacts (current bids and winners' markers)
    rep: tuple[int, int, int] = (0, 0, 0)  # Reputation in FACTIONS order
    infamy: int = 0
    hand: tuple[str, ...] = ()  # schemes; secret to other seats
    jobs: tuple[str, ...] = ()  # completed jobs, public
    out: bool = False
    resigned: bool = False

    def count(self, what: str) -> int:
        value: int = getattr(self, what)
        return value

    def rep_of(self, faction: str) -> int:
        return self.rep[FACTIONS.index(faction)]


@dataclass(frozen=True)
class Auction:
    """The running auction (I-4.5) of the contact at track ``position``."""

    position: int
    contact: str
    bids: tuple[int, ...]  # each seat's bribes on this contact
    bidders: tuple[int, ...] = ()  # seats that have bid on it (favors: IR-9)
    high: int | None = None  # the high bidder
    passes: tuple[int, ...] = ()  # seats that passed since the latest bid (or the start)
    log: tuple[tuple[int, bool], ...] = ()  # (seat, bid: True / passed: False), in order


@dataclass(frozen=True)
class Figure:
    space: str  # "<sector>/<job|hq|supply>"
    seat: int
    figure: str  # "own" | "accomplice"


@dataclass(frozen=True)
class GameState:
    rules_version: int = 0
    content_version: str = CONTENT_VERSION
    started: bool = False
    seed: str = ""
    seed_hash: str = ""
    sector_seconds: int = 60
    turn_seconds: int = 0  # 0: single-seat steps carry no engine deadline
    players: tuple[PlayerState, ...] = ()
    round: int = 0  # 1, 2, ...: odd rounds are Day, even Night (I-3.1)
    step: str = ""  # who is awaited for what (docs/rules-infamy.md "Steps")
    actor: int | None = None  # the awaited seat of a single-seat step
    deadline: int | None = None  # ms since the epoch, from the clock of the opening command
    steps: int = 0  # steps opened so far (the step key)
    bodyguard: int = 0
    watchdogs: tuple[int, ...] = ()  # sectors, sorted; the rest are in the supply
    hazards: tuple[str, ...] = ()  # supply spaces, sorted
    supply: tuple[int, ...] = tuple(SUPPLY[t] for t in TOKENS)  # general supply per TOKENS
    job_deck: tuple[str, ...] = ()  # top first
    jobs: tuple[str, ...] = ()  # available jobs
    contact_deck: tuple[str, ...] = ()  # top first
    track: tuple[str, ...] = ()  # the revealed contacts, positions 1..5
    results: tuple[int | None, ...] = ()  # per finished auction: winner, None if unclaimed
    auction: Auction | None = None
    reward: str = ""  # the contact whose reward its winner is choosing
    drawn: int = 0  # Informant: schemes drawn so far
    thug: tuple[int, str] | None = None  # (rival, resource) asked to answer the Thug
    scheme_decks: tuple[tuple[str, ...], ...] = ((), (), ())  # per FACTIONS, top first
    scheme_discards: tuple[tuple[str, ...], ...] = ((), (), ())
    reshuffles: int = 0
    steals: int = 0
    # Contacts won this round (seats), and what they allow.
    accomplice: int | None = None
    chief: int | None = None
    smuggler: int | None = None
    informant: int | None = None
    forgone: bool = False  # the Smuggler's Day option was used
    # Sector phase: each seat's sealed (sector, accomplice sector or 0); secret until revealed.
    choices: tuple[tuple[int, int] | None, ...] = ()
    revealed: bool = False
    order: tuple[int, ...] = ()  # placement or scheme order of the current phase
    done: tuple[int, ...] = ()  # seats whose turn in the phase is over
    handled: tuple[tuple[int, str], ...] = ()  # (seat, figure) placed, not placed or forgone
    figures: tuple[Figure, ...] = ()
    played: int = 0  # schemes the current seat played in this scheme step
    in_play: str = ""  # rules 2: the scheme resolving, discarded once resolved (I-8.1)
    stacked_contacts: tuple[tuple[str, ...], ...] = ()  # sandbox: each Day's contact order
    over: bool = False
    winners: tuple[int, ...] = ()
    end_reason: str = ""  # GameEnded's reason: "victory" or "last_seat"

    # --- derived facts ---------------------------------------------------------------

    @property
    def day(self) -> bool:
        return self.round % 2 == 1

    @property
    def turn(self) -> int:
        return (self.round + 1) // 2

    def supply_of(self, what: str) -> int:
        return self.supply[TOKENS.index(what)]

    def in_game(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if not p.out)

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """Seats still in the game, clockwise starting at ``seat`` (or the next one)."""
        n = len(self.players)
        return tuple((seat + k) % n for k in range(n) if not self.players[(seat + k) % n].out)

    def next_seat(self, seat: int) -> int:
        n = len(self.players)
        for k in range(1, n + 1):
            if not self.players[(seat + k) % n].out:
                return (seat + k) % n
        return seat

    def figure_on(self, space: str) -> Figure | None:
        for f in self.figures:
            if f.space == space:
                return f
        return None

    def figures_of(self, seat: int) -> tuple[str, ...]:
        """The figures ``seat`` places this round."""
        return ("own", "accomplice") if self.accomplice == seat else ("own",)

    def hazards_left(self) -> int:
        from .cards import HAZARDS

        return HAZARDS - len(self.hazards)

    def deck_of(self, faction: str) -> tuple[str, ...]:
        return self.scheme_decks[FACTIONS.index(faction)]

    def can_draw(self, faction: str) -> bool:
        i = FACTIONS.index(faction)
        return bool(self.scheme_decks[i] or self.scheme_discards[i])

    def sector_of(self, space: str) -> int:
        return int(space.split("/")[0])

    def free_supply_spaces(self, non_faction_only: bool = False) -> tuple[str, ...]:
        """Supply spaces without hazard or figure (3.8.11)."""
        kinds = ("supply",) if non_faction_only else ("hq", "supply")
        return tuple(
            f"{s}/{k}"
            for s in BOARD
            for k in kinds
            if f"{s}/{k}" not in self.hazards and self.figure_on(f"{s}/{k}") is None
        )
