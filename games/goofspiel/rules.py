"""Goofspiel's state, commands, events and rules: ``decide`` and ``evolve``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.core import Outcome, RuleViolation, TieBreak
from games.rng import seed_hash, shuffled

RULES_VERSION = 1
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MIN_CARDS, MAX_CARDS = 3, 13


# --- commands ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Bid:
    round: int  # the round it is for: a bid for a round that is over is refused (round_over)
    card: int


Command = Bid


# --- events ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    rules_version: int
    names: tuple[str, ...]
    cards: int
    seed: str  # secret until the game ends (the prize deck's order follows from it)
    seed_hash: str
    salt: str
    # a game started from a position (games/goofspiel/position.py): the document, whose
    # prize deck order and sealed bids are hidden as the view hides them; None: dealt
    position: dict[str, Any] | None = None


@dataclass(frozen=True)
class PrizeShown:
    round: int
    prize: int


@dataclass(frozen=True)
class BidPlaced:
    round: int
    seat: int
    card: int  # sealed: only its seat sees it until the bids are revealed


@dataclass(frozen=True)
class BidsRevealed:
    round: int
    bids: tuple[int, ...]  # by seat
    winner: int | None  # the single highest bid, or None on a tie
    prize: int


@dataclass(frozen=True)
class GameEnded:
    winners: tuple[int, ...]
    scores: tuple[int, ...]


Event = GameStarted | PrizeShown | BidPlaced | BidsRevealed | GameEnded
EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in (GameStarted, PrizeShown, BidPlaced, BidsRevealed, GameEnded)
}


# --- state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameState:
    started: bool = False
    names: tuple[str, ...] = ()
    cards: int = 0
    seed: str = ""
    prizes: tuple[int, ...] = ()  # the prize deck, top first (hidden)
    round: int = 0  # 1.. once started
    prize: int = 0  # the prize shown this round
    hands: tuple[tuple[int, ...], ...] = ()
    bids: tuple[int | None, ...] = ()  # this round's sealed bids, by seat
    scores: tuple[int, ...] = ()
    history: tuple[BidsRevealed, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()


def prize_deck(seed: str, cards: int) -> tuple[int, ...]:
    return shuffled(range(1, cards + 1), seed, "prizes")


def awaiting(state: GameState) -> tuple[int, ...]:
    if not state.started or state.over:
        return ()
    return tuple(seat for seat, bid in enumerate(state.bids) if bid is None)


def bids_sealed(state: GameState) -> bool:
    """Whether the round's bids are still sealed: the game runs and they are not revealed
    (a reveal leaves the round's bids in place until the next prize is shown)."""
    if not state.started or state.over:
        return False
    return not (state.history and state.history[-1].round == state.round)


def setup_events(
    names: list[str], cards: int, seed: str, salt: str, position: dict[str, Any] | None = None
) -> tuple[Event, ...]:
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleViolation("bad_options", "Goofspiel is for 2 to 4 players.", field="seats")
    if not MIN_CARDS <= cards <= MAX_CARDS:
        raise RuleViolation("bad_options", "A hand holds 3 to 13 cards.", field="cards")
    if position is not None:  # validated (position.validate_position): it shows its prize
        version = int(position["rules_version"])
        return (
            GameStarted(version, tuple(names), cards, seed, seed_hash(seed, salt), salt, position),
        )
    started = GameStarted(RULES_VERSION, tuple(names), cards, seed, seed_hash(seed, salt), salt)
    return (started, PrizeShown(1, prize_deck(seed, cards)[0]))


# --- decide ------------------------------------------------------------------------------


def decide(state: GameState, seat: int | None, command: Command, *, now: int) -> tuple[Event, ...]:
    if state.over:
        raise RuleViolation("game_over", "The game has ended.")
    if not isinstance(command, Bid):
        raise RuleViolation("bad_command", "Goofspiel knows one command: bid.")
    if seat is None or not 0 <= seat < len(state.names):
        raise RuleViolation("not_a_player", "Only a seat of the game bids.", seat=seat)
    if command.round != state.round:
        raise RuleViolation(
            "round_over", "That round is over.", round=command.round, current=state.round
        )
    if state.bids[seat] is not None:
        raise RuleViolation("already_bid", "This seat has bid this round; a bid is final.")
    if command.card not in state.hands[seat]:
        raise RuleViolation("card_not_in_hand", "The card is not in this seat's hand.")
    events: list[Event] = [BidPlaced(state.round, seat, command.card)]
    bids = tuple(command.card if s == seat else b for s, b in enumerate(state.bids))
    if any(b is None for b in bids):
        return tuple(events)
    # the last bid is in: all are revealed together
    values = tuple(int(b or 0) for b in bids)
    top = max(values)
    winner = values.index(top) if values.count(top) == 1 else None
    events.append(BidsRevealed(state.round, values, winner, state.prize))
    scores = list(state.scores)
    if winner is not None:
        scores[winner] += state.prize
    if state.round == state.cards:
        events.append(GameEnded(standings(state.names, tuple(scores)).winners, tuple(scores)))
    else:
        events.append(PrizeShown(state.round + 1, state.prizes[state.round]))
    return tuple(events)


def standings(names: tuple[str, ...], scores: tuple[int, ...]) -> Outcome:
    """Who wins with these final scores, and why: the highest score; seats tied on it
    share the win (the rules break no tie)."""
    best = max(scores)
    won = tuple(s for s, v in enumerate(scores) if v == best)
    points = TieBreak("Points won (the prizes' values)", tuple(enumerate(scores)), won)
    if len(won) == 1:
        others = ", ".join(f"{names[s]} {v}" for s, v in enumerate(scores) if s not in won)
        summary = f"{names[won[0]]} wins with {best} points, the highest score ({others})."
        return Outcome(won, "highest_score", summary, (points,))
    who = " and ".join(names[s] for s in won)
    summary = f"{who} share the win: tied on {best} points, and Goofspiel breaks no tie."
    return Outcome(won, "shared", summary, (points,))


# --- evolve ------------------------------------------------------------------------------


def evolve(state: GameState, event: Event) -> GameState:
    if isinstance(event, GameStarted) and event.position is not None:
        from .position import state_of  # noqa: PLC0415 - position imports this module

        return state_of(event.names, event.seed, event.position)
    if isinstance(event, GameStarted):
        players = len(event.names)
        return GameState(
            started=True,
            names=event.names,
            cards=event.cards,
            seed=event.seed,
            prizes=prize_deck(event.seed, event.cards),
            hands=tuple(tuple(range(1, event.cards + 1)) for _ in range(players)),
            bids=(None,) * players,
            scores=(0,) * players,
        )
    if isinstance(event, PrizeShown):
        return replace(state, round=event.round, prize=event.prize, bids=(None,) * len(state.names))
    if isinstance(event, BidPlaced):
        hands = tuple(
            tuple(c for c in hand if c != event.card) if s == event.seat else hand
            for s, hand in enumerate(state.hands)
        )
        bids = tuple(event.card if s == event.seat else b for s, b in enumerate(state.bids))
        return replace(state, hands=hands, bids=bids)
    if isinstance(event, BidsRevealed):
        scores = tuple(
            v + (event.prize if s == event.winner else 0) for s, v in enumerate(state.scores)
        )
        return replace(state, scores=scores, history=(*state.history, event))
    if isinstance(event, GameEnded):
        return replace(state, over=True, winners=event.winners)
    raise TypeError(f"not a Goofspiel event: {event!r}")
