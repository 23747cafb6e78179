"""Facts that hold in every reachable state; the simulator and property tests check them."""

from __future__ import annotations

from collections import Counter

from .cards import ACTION_CARDS, FAMILY_BY_ID
from .state import GameState


def violations(state: GameState) -> list[str]:
    """Every broken invariant of ``state``, in words (empty when all hold)."""
    if not state.started:
        return []
    found: list[str] = []
    places = Counter(state.deck + state.discard)
    for p in state.players:
        places.update(p.hand)
    if places != Counter(ACTION_CARDS):
        missing = set(ACTION_CARDS) - set(places)
        doubled = [c for c, n in places.items() if n > 1]
        found.append(f"cards not each in one place: missing={sorted(missing)} doubled={doubled}")

    mobsters = Counter(state.hit_list + state.graveyard)
    for p in state.players:
        mobsters.update(p.crew)
    expected = Counter(m for p in state.players for m, _ in FAMILY_BY_ID[p.family].members)
    if mobsters != expected:
        found.append("mobsters not each in one place")
    for p in state.players:
        if any(state.owner(m) != p.seat for m in p.crew):
            found.append(f"seat {p.seat} has another family's mobster in front of it")
        if p.out and (p.hand or state.in_play_count(p.seat)):
            found.append(f"seat {p.seat} is out but holds cards or mobsters")
        if not p.out and not state.in_play_count(p.seat):
            found.append(f"seat {p.seat} has no mobster in play but is not out")

    alive = state.in_game()
    if state.over:
        if state.window is not None or len(alive) > 1:
            found.append("the game is over but play could go on")
    else:
        if len(alive) < 2:
            found.append("fewer than two players remain but the game is not over")
        if state.players[state.turn_seat].out:
            found.append("the turn belongs to a seat that is out")
        if state.window is not None:
            if state.window.seat != state.turn_seat:
                found.append("a window is open for a card of a seat whose turn it is not")
            if not state.window.waiting_on:
                found.append("a window is open but waits on nobody")
        if state.mob_war and not state.hit_list:
            found.append("a Mob War is on with an empty Hit List")
    if state.mob_war not in (0, 1, 2):
        found.append(f"impossible Mob War rate {state.mob_war}")
    return found
