"""Facts that hold in every reachable state; the simulator and property tests check them."""

from __future__ import annotations

from collections import Counter

from .cards import ABILITIES, CARD_KIND, FAMILIES, MOBSTER_FAMILY, deck_cards
from .state import GameState

_ALL_CARDS = {advanced: sorted(deck_cards(advanced)) for advanced in (False, True)}
_MEMBERS = {f.id: [m for m, _ in f.members] for f in FAMILIES}


def violations(state: GameState, *, settled: bool = True) -> list[str]:
    """Every broken invariant of ``state``, in words (empty when all hold).

    Conservation (every card and every mobster in exactly one place) holds after every
    event. ``settled`` adds what holds once a command's events are all applied: someone is
    to act, a window waits on somebody, a player without mobsters is out."""
    if not state.started:
        return []
    found: list[str] = []
    cards = [*state.deck, *state.discard, *(card for _, card in state.abilities)]
    for p in state.players:
        cards.extend(p.hand)
    if sorted(cards) != _ALL_CARDS[state.advanced]:
        places = Counter(cards)
        missing = set(_ALL_CARDS[state.advanced]) - set(places)
        doubled = [c for c, n in places.items() if n > 1]
        found.append(f"cards not each in one place: missing={sorted(missing)} doubled={doubled}")

    mobsters = [*state.hit_list, *state.graveyard]
    expected: list[str] = []
    for p in state.players:
        mobsters.extend(p.crew)
        expected.extend(_MEMBERS[p.family])
        if any(MOBSTER_FAMILY[m] != p.family for m in p.crew):
            found.append(f"seat {p.seat} has another family's mobster in front of it")
        if p.out and (p.hand or p.crew or state.listed_of(p.seat)):
            found.append(f"seat {p.seat} is out but holds cards or mobsters")
        if settled and not p.out and not state.in_play_count(p.seat):
            found.append(f"seat {p.seat} has no mobster in play but is not out")
    if sorted(mobsters) != sorted(expected):
        found.append("mobsters not each in one place")

    # Advanced rules: each ability card lies under one mobster in play, one per mobster.
    in_play = set(state.mobsters_in_play())
    holders = [m for m, _ in state.abilities]
    if len(set(holders)) != len(holders):
        found.append("a mobster carries two abilities")
    for mobster, card in state.abilities:
        if mobster not in in_play or CARD_KIND[card] not in ABILITIES:
            found.append(f"ability {card} lies under {mobster}, which is not in play")

    if state.mob_war not in (0, 1, 2):
        found.append(f"impossible Mob War rate {state.mob_war}")
    if not settled:
        return found
    alive = state.in_game()
    if state.over:
        if state.window is not None or len(alive) > 1:
            found.append("the game is over but play could go on")
    else:
        if len(alive) < 2:
            found.append("fewer than two players remain but the game is not over")
        window = state.window
        deciding = window is not None and window.decision == "unforgiving"
        if state.players[state.turn_seat].out and not deciding:
            # (an UNFORGIVING decision may pause the start of a turn its seat did not survive)
            found.append("the turn belongs to a seat that is out")
        if state.unforgiving and not deciding:
            found.append("an UNFORGIVING decision waits but none is open")
        if window is not None and not window.decision and window.seat != state.turn_seat:
            found.append("a window is open for a card of a seat whose turn it is not")
        if window is not None and not window.waiting_on:
            found.append("a window is open but waits on nobody")
        if state.mob_war and not state.hit_list:
            found.append("a Mob War is on with an empty Hit List")
    return found
