"""Starting a game: who plays which family, the shuffle, the deal and the first turn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import FAMILIES, FAMILY_BY_ID, STARTING_HAND, deck_cards
from .errors import RuleViolation
from .events import CardsDealt, DeckShuffled, Event, GameStarted
from .evolve import replay
from .flow import Builder, start_turn
from .revisions import RULES_VERSION, RULES_VERSIONS
from .rng import seed_hash, shuffled
from .state import GameState

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    family: str | None = None  # None: the first family nobody else chose


@dataclass(frozen=True)
class Options:
    reaction_seconds: int = 10
    advanced: bool = False
    # Cards put on top of the deck in this order before the deal (the rest follow,
    # shuffled by the seed): for scenario tests and tutorials. Dealt five at a time by seat.
    stacked_deck: tuple[str, ...] = ()
    # The rules version the game is played under (recorded by GameStarted): the newest for
    # a new table; an older one to re-derive an old record's setup, or a position's.
    rules_version: int = RULES_VERSION
    # A start position (position.py, validated): the game starts there, not from a deal.
    position: dict[str, Any] | None = None


def _specs(players: int | Sequence[str | PlayerSpec]) -> list[PlayerSpec]:
    if isinstance(players, int):
        return [PlayerSpec(f"Player {i + 1}") for i in range(players)]
    return [p if isinstance(p, PlayerSpec) else PlayerSpec(p) for p in players]


def setup_events(
    players: int | Sequence[str | PlayerSpec],
    options: Options | None = None,
    seed: str = "",
    salt: str = "",
) -> tuple[Event, ...]:
    """The events that start a game: GameStarted, the shuffle, the deal, the first turn.
    ``salt`` (the caller's random string) salts the published ``seed_hash``; the deck
    depends on the seed alone."""
    options = options or Options()
    specs = _specs(players)
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise RuleViolation(
            "bad_command", "Family Business is for 2 to 6 players.", players=len(specs)
        )
    if options.rules_version not in RULES_VERSIONS:
        known = ", ".join(map(str, RULES_VERSIONS))
        raise RuleViolation(
            "bad_command",
            f"Family Business has no rules version {options.rules_version} (it has {known}).",
        )
    if options.reaction_seconds < 1:
        raise RuleViolation("bad_command", "The reaction window lasts at least one second.")
    chosen = [s.family for s in specs if s.family is not None]
    if len(set(chosen)) != len(chosen) or any(f not in FAMILY_BY_ID for f in chosen):
        raise RuleViolation("bad_command", "Each player needs a different, known family.")
    free = [f.id for f in FAMILIES if f.id not in chosen]
    families = tuple(s.family if s.family is not None else free.pop(0) for s in specs)
    if options.position is not None:  # no deal: the first event holds the whole position
        doc = options.position
        started = GameStarted(
            int(doc["rules_version"]),
            tuple(s.name for s in specs),
            tuple(p["family"] for p in doc["players"]),
            int(doc["reaction_seconds"]),
            bool(doc["advanced"]),
            seed,
            seed_hash(seed, salt),
            (),
            salt,
            doc,
        )
        return (started,)
    stacked = options.stacked_deck
    cards = deck_cards(options.advanced)  # with the advanced rules, the 10 abilities too
    if len(set(stacked)) != len(stacked) or any(c not in cards for c in stacked):
        raise RuleViolation("bad_command", "A stacked deck names known cards, each once.")
    rest = shuffled([c for c in cards if c not in stacked], seed, "setup")

    b = Builder(GameState())
    b.emit(
        GameStarted(
            options.rules_version,
            tuple(s.name for s in specs),
            families,
            options.reaction_seconds,
            options.advanced,
            seed,
            seed_hash(seed, salt),
            tuple(stacked),
            salt,
        ),
        DeckShuffled(tuple(stacked) + rest, "setup"),
    )
    for seat in range(len(specs)):
        b.emit(CardsDealt(seat, b.state.deck[:STARTING_HAND]))
    start_turn(b, 0)  # the first seat deals and plays first
    return tuple(b.events)


def initial_state(
    players: int | Sequence[str | PlayerSpec], options: Options | None = None, seed: str = ""
) -> GameState:
    return replay(setup_events(players, options, seed))
