"""The invariants of specification 3.7, checked after every event by the simulator and the
property tests. ``broken(state)`` lists what is wrong (empty: all hold)."""

from __future__ import annotations

from functools import cache

from .content import BUSINESSES, GANGS, hat_cards, starting_cards
from .evolve import content_of
from .state import (
    CARS_PER_GANG,
    MARKERS_PER_GANG,
    MAX_BUSINESSES,
    THUGS_PER_GANG,
    TILE_STORAGE,
    TRUCKS_PER_GANG,
    GameState,
)


@cache
def _gang_cards(gang: str) -> tuple[str, ...]:
    return tuple(sorted((*starting_cards(gang), *hat_cards(gang))))


def broken(state: GameState) -> list[str]:
    if not state.started:
        return []
    out: list[str] = []
    tables = content_of(state)
    owned = 0
    owners = [t.owner for t in state.tiles]
    for p in state.players:
        if not p.in_game:
            continue
        seat = p.seat
        if sum(n for _, n in p.thugs) != THUGS_PER_GANG or any(n <= 0 for _, n in p.thugs):
            out.append(f"seat {seat}: thugs {p.thugs}")
        cards = (*p.aside, *p.hand, *p.deck, *p.discard, *p.plan)
        own = sorted(c for c in cards if c[0] != "a")
        if (state.turn > 0 or p.deck or p.hand) and tuple(own) != _gang_cards(p.gang):
            out.append(f"seat {seat}: gang cards {own}")
        owned += len(cards) - len(own)
        if p.money < 0:
            out.append(f"seat {seat}: money {p.money}")
        if not state.ness < p.crime <= 11:
            out.append(f"seat {seat}: crime {p.crime} with Ness {state.ness}")
        if owners.count(seat) > MARKERS_PER_GANG:
            out.append(f"seat {seat}: more than 7 markers")
        if len(p.cars) > CARS_PER_GANG or len(p.trucks) > TRUCKS_PER_GANG:
            out.append(f"seat {seat}: vehicles")
        for s in p.stored:
            if not 0 <= s.n <= tables.dealers[s.dealer].capacity:
                out.append(f"seat {seat}: dealer {s.dealer} holds {s.n}")
        if state.step == "plan" and state.seat == seat and len(p.hand) > p.hand_limit:
            out.append(f"seat {seat}: hand {len(p.hand)} over the limit")
    # 60 associates: the market, the two decks, the seats' cards, and those gone (market
    # refreshes discard them; a resigning seat's leave the game): never more, never twice
    market = [c for c in (*state.market_low, *state.market_high) if c is not None]
    decks = len(state.low_deck) + len(state.high_deck)
    if len(market) + decks + owned > len(tables.associates) or len(set(market)) != len(market):
        out.append("associates duplicated")
    if state.ness > 10:
        out.append(f"Ness at {state.ness}")
    on_board = dict.fromkeys((*BUSINESSES, "nightclub"), 0)
    for t in state.tiles:
        if len(t.businesses) > MAX_BUSINESSES:
            out.append(f"{t.id}: {len(t.businesses)} businesses")
        if t.alcohol < 0 or t.gun < 0 or t.alcohol + t.gun > TILE_STORAGE:
            out.append(f"{t.id}: goods {t.alcohol}/{t.gun}")
        for b in t.businesses:
            on_board[b] += 1
        on_board["nightclub"] += t.nightclub
    for b, n in on_board.items():
        left = state.supply_of(b)
        if left < 0 or n + left != tables.business_counts[b]:
            out.append(f"business {b}: {n} on the board, {left} left")
    if len(state.police) > tables.police_cars:
        out.append("police cars")
    return out


assert len(GANGS) == 4  # noqa: S101
