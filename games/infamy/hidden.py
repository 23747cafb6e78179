"""What a viewer may not know of a game of Infamy, as a twin history (``Game.hidden_twin``).

Hidden from a seat: the schemes other seats drew (and those stolen between two others)
and the order of every deck (jobs, contacts, each faction's schemes); from a spectator,
every scheme drawn or stolen. Hidden from everyone but their seat, staff included: the
sector cards committed in the sealed step until they are revealed (issue 17). Hidden from
everyone: the seed, its salt and a sandbox's stacked decks. Everything else an event names
is face up, and everything is known once the game ends.

The twin swaps the schemes the viewer never saw among themselves (each within its faction:
a draw names its deck), puts the cards still in each deck since its last shuffle in another
order, draws the other seats' sealed sector cards again among those they could have
committed, and has another seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.core import Viewer
from games.rng import choice
from games.twins import renamed_unseen, reseeded, untaken_reordered, without

from .cards import SCHEMES
from .codec import decode_event, encode_event
from .events import (
    ContactDeckShuffled,
    ContactsRevealed,
    Event,
    GameEnded,
    GameStarted,
    JobDeckShuffled,
    JobsRefilled,
    SchemeDeckShuffled,
    SchemesDrawn,
    SectorChosen,
    SectorsRevealed,
    StepStarted,
)
from .evolve import evolve
from .legal import legal_sectors
from .state import GameState


def seen_part(data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` (not staff) sees of an event's cards."""
    kind = data["type"]
    if kind == "GameStarted":
        return without(data, "seed", "salt", "stacked")
    if kind in ("JobDeckShuffled", "ContactDeckShuffled", "SchemeDeckShuffled"):
        return without(data, "cards")
    if kind == "SchemesDrawn" and data["seat"] != viewer:
        return without(data, "cards")
    if kind == "SchemeStolen" and viewer not in (data["from_seat"], data["to_seat"]):
        return without(data, "card")
    return data


def hidden_twin(events: Sequence[Event], viewer: Viewer, seed: str) -> tuple[Event, ...]:
    if any(isinstance(e, GameEnded) for e in events):
        return tuple(events)
    twin = [reseeded(e, seed) if isinstance(e, GameStarted) else e for e in events]
    if viewer != "staff":  # staff see every hand and deck
        encoded = renamed_unseen(
            [encode_event(e) for e in twin],
            lambda data: seen_part(data, viewer),
            SCHEMES,
            seed,
            group=lambda card: card[0],  # the faction's deck
        )
        twin = _decks_reordered([decode_event(data) for data in encoded], seed)
    return tuple(_sealed_choices_redrawn(twin, viewer, seed))


def _decks_reordered(events: list[Event], seed: str) -> list[Event]:
    """Each deck's cards not taken since its last shuffle, in another order."""
    last: dict[str, int] = {}
    taken: dict[str, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, JobDeckShuffled | ContactDeckShuffled | SchemeDeckShuffled):
            deck = _deck(event)
            last[deck], taken[deck] = index, 0
        elif isinstance(event, JobsRefilled):
            taken["jobs"] = taken.get("jobs", 0) + len(event.cards)
        elif isinstance(event, ContactsRevealed):
            taken["contacts"] = taken.get("contacts", 0) + len(event.cards)
        elif isinstance(event, SchemesDrawn):
            deck = f"schemes:{event.faction}"
            taken[deck] = taken.get(deck, 0) + len(event.cards)
    twin = list(events)
    for deck, index in last.items():
        shuffle = events[index]
        assert isinstance(shuffle, JobDeckShuffled | ContactDeckShuffled | SchemeDeckShuffled)
        cards = untaken_reordered(shuffle.cards, taken[deck], seed, deck)
        twin[index] = replace(shuffle, cards=cards)
    return twin


def _deck(event: JobDeckShuffled | ContactDeckShuffled | SchemeDeckShuffled) -> str:
    if isinstance(event, JobDeckShuffled):
        return "jobs"
    if isinstance(event, ContactDeckShuffled):
        return "contacts"
    return f"schemes:{event.faction}"


def _sealed_choices_redrawn(events: list[Event], viewer: Viewer, seed: str) -> list[Event]:
    """The other seats' sector cards of a sealed step not yet revealed, drawn again."""
    sealed: list[int] = []  # the step's commitments, while it is not revealed
    for index, event in enumerate(events):
        if (
            isinstance(event, StepStarted)
            and event.step == "sector"
            or isinstance(event, SectorsRevealed)
        ):
            sealed = []
        elif isinstance(event, SectorChosen) and event.seat != viewer:
            sealed.append(index)
    state = GameState()
    twin = list(events)
    for index, event in enumerate(events):
        if index in sealed:
            assert isinstance(event, SectorChosen)
            sectors = legal_sectors(state, event.seat)
            sector = choice(sectors, seed, f"twin:sector:{event.seat}")
            accomplice = 0
            if event.accomplice:
                accomplice = choice(sectors, seed, f"twin:accomplice:{event.seat}")
            event = replace(event, sector=sector, accomplice=accomplice)
            twin[index] = event
        state = evolve(state, event)
    return twin
