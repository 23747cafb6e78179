"""Scenario builders for Infamy: a real game started with stacked decks (G-15, 3.8.16),
then given the holdings a test asks for, and helpers to play it.

``make_game`` deals chosen contacts (one order per Day), jobs and schemes from the top of
their decks, picks the bodyguard and the Watchdog's sector, and then sets each seat's
tokens, bribes, Reputation, Infamy and hand, moving tokens to or from the general supply
and cards out of their decks so the engine's invariants hold (checked before returning).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.infamy import GameState, decide, evolve, initial_state
from games.infamy.cards import FACTIONS, TOKENS, scheme_faction
from games.infamy.commands import Command, Pass
from games.infamy.events import Event
from games.infamy.invariants import violations
from games.infamy.state import with_changes

# The five contacts that make a quiet first round: plain gains, no choices.
QUIET = ["c02", "c03", "c04", "c06", "c05"]


def make_game(
    players: int = 3,
    *,
    contacts: Sequence[Sequence[str]] = (QUIET,),
    jobs: Sequence[str] = (),
    schemes: Mapping[str, Sequence[str]] | None = None,
    first_seat: int = 0,
    watchdog_sector: int = 6,
    holdings: Mapping[int, Mapping[str, Any]] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    seed: str = "scenario",
    rules_version: int | None = None,
) -> GameState:
    stacked: dict[str, Any] = {
        "contacts": [list(c) for c in contacts],
        "jobs": list(jobs),
        "first_seat": first_seat,
        "watchdog_sector": watchdog_sector,
    }
    for faction, cards in (schemes or {}).items():
        stacked[f"schemes.{faction}"] = list(cards)
    state = initial_state(
        players, {**(options or {}), "stacked": stacked}, seed, rules_version=rules_version
    )
    for seat, hand in (hands or {}).items():
        state = give_hand(state, seat, hand)
    for seat, changes in (holdings or {}).items():
        state = give(state, seat, **changes)
    found = violations(state)
    assert not found, found
    return state


def give(state: GameState, seat: int, **changes: Any) -> GameState:
    """Set a seat's holdings (tokens via the supply; ``rep`` as a dict by faction)."""
    p = state.players[seat]
    supply = list(state.supply)
    if "rep" in changes and isinstance(changes["rep"], Mapping):
        changes["rep"] = tuple(changes["rep"].get(f, p.rep_of(f)) for f in FACTIONS)
    for i, what in enumerate(TOKENS):
        if what in changes:
            supply[i] -= changes[what] - p.count(what)
    if "available" in changes and "spent" not in changes:
        changes["spent"] = 12 - changes["available"] - p.on_contacts
    players = list(state.players)
    players[seat] = with_changes(p, **changes)
    return with_changes(state, players=tuple(players), supply=tuple(supply))


def give_hand(state: GameState, seat: int, cards: Sequence[str]) -> GameState:
    """Move ``cards`` from their decks into a seat's hand."""
    decks = [list(d) for d in state.scheme_decks]
    for card in cards:
        decks[FACTIONS.index(scheme_faction(card))].remove(card)
    players = list(state.players)
    players[seat] = with_changes(players[seat], hand=(*players[seat].hand, *cards))
    return with_changes(state, players=tuple(players), scheme_decks=tuple(tuple(d) for d in decks))


def play(
    state: GameState, seat: int | None, command: Command, now: int = 0
) -> tuple[GameState, tuple[Event, ...]]:
    events = decide(state, seat, command, now=now)
    for event in events:
        state = evolve(state, event)
    found = violations(state)
    assert not found, found
    return state, events


def pass_contacts(state: GameState) -> GameState:
    """Everyone passes every auction of the round (all contacts unclaimed)."""
    while state.step in ("auction", "watchdog"):
        assert state.step == "auction", "move the Watchdog first"
        assert state.actor is not None
        state, _ = play(state, state.actor, Pass())
    return state


def kinds(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]
