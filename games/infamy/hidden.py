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

from .cards import FACTIONS, SCHEMES
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
from .position import seen_by
from .state import GameState


def seen_part(data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` (not staff) sees of an event's cards."""
    kind = data["type"]
    if kind == "GameStarted":
        shown = without(data, "seed", "salt", "stacked")
        if data.get("position") is not None:
            shown["position"] = seen_by(data["position"], viewer)
        return shown
    if kind in ("JobDeckShuffled", "ContactDeckShuffled", "SchemeDeckShuffled"):
        return without(data, "cards")
    if kind == "SchemesDrawn" and data["seat"] != viewer:
        return without(data, "cards")
    if kind == "SchemeStolen" and viewer not in (data["from"], data["to"]):
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
    twin = _position_twin(twin, viewer, seed)
    return tuple(_sealed_choices_redrawn(twin, viewer, seed))


def _position_twin(events: list[Event], viewer: Viewer, seed: str) -> list[Event]:
    """A game started from a position: the decks it gave that no shuffle replaced since,
    their cards not taken since in another order (not for staff, who see them), and the
    other seats' sealed sector choices of its step, while unrevealed, drawn again."""
    first = events[0] if events else None
    if not isinstance(first, GameStarted) or first.position is None:
        return events
    doc = dict(first.position)
    taken: dict[str, int] = {}
    shuffled_since: set[str] = set()
    opened = False  # a new sector step or the reveal since the start
    for event in events[1:]:
        if isinstance(event, JobDeckShuffled | ContactDeckShuffled | SchemeDeckShuffled):
            shuffled_since.add(_deck(event))
        elif drawn := _drawn(event):
            taken[drawn[0]] = taken.get(drawn[0], 0) + drawn[1]
        elif isinstance(event, SectorsRevealed) or (
            isinstance(event, StepStarted) and event.step == "sector"
        ):
            opened = True
    if viewer != "staff":
        for key, deck in (("job_deck", "jobs"), ("contact_deck", "contacts")):
            if deck not in shuffled_since:
                doc[key] = list(untaken_reordered(doc[key], taken.get(deck, 0), seed, deck))
        decks = [list(d) for d in doc["scheme_decks"]]
        for i, faction in enumerate(FACTIONS):
            deck = f"schemes:{faction}"
            if deck not in shuffled_since:
                decks[i] = list(untaken_reordered(decks[i], taken.get(deck, 0), seed, deck))
        doc["scheme_decks"] = decks
    if doc["step"] == "sector" and not doc["revealed"] and not opened:
        state = evolve(GameState(), first)
        choices = list(doc["choices"])
        for seat, chosen in enumerate(choices):
            if chosen is None or seat == viewer:
                continue
            sectors = legal_sectors(state, seat)
            sector = choice(sectors, seed, f"twin:position-sector:{seat}")
            accomplice = (
                choice(sectors, seed, f"twin:position-accomplice:{seat}") if chosen[1] else 0
            )
            choices[seat] = [sector, accomplice]
        doc["choices"] = choices
    return [replace(first, position=doc), *events[1:]]


def _drawn(event: Event) -> tuple[str, int] | None:
    """The deck an event takes cards from, and how many (None: it takes none)."""
    if isinstance(event, JobsRefilled):
        return "jobs", len(event.cards)
    if isinstance(event, ContactsRevealed):
        return "contacts", len(event.cards)
    if isinstance(event, SchemesDrawn):
        return f"schemes:{event.faction}", len(event.cards)
    return None


def _decks_reordered(events: list[Event], seed: str) -> list[Event]:
    """Each deck's cards not taken since its last shuffle, in another order."""
    last: dict[str, int] = {}
    taken: dict[str, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, JobDeckShuffled | ContactDeckShuffled | SchemeDeckShuffled):
            deck = _deck(event)
            last[deck], taken[deck] = index, 0
        elif drawn := _drawn(event):
            taken[drawn[0]] = taken.get(drawn[0], 0) + drawn[1]
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
