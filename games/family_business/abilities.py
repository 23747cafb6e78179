"""Advanced rules: what the ability cards in play change, as questions about a state.

The texts and numbers live in ``cards.py`` (``ABILITY_KINDS``, ``ABILITY``); the flow of
play asks these helpers. An ability acts only while its mobster is in play: it is recorded
in ``GameState.abilities`` from ``AbilityAssigned`` until the mobster is eliminated.
"""

from __future__ import annotations

from .cards import ABILITY, CARD_KIND, HAND_LIMIT, MOBSTER_FAMILY, Kind
from .state import GameState


def holder(state: GameState, seat: int, ability: Kind) -> str | None:
    """The mobster of ``seat`` carrying ``ability``, if it is in play."""
    if not state.abilities:
        return None
    family = state.players[seat].family
    for mobster, card in state.abilities:
        if CARD_KIND[card] is ability and MOBSTER_FAMILY[mobster] == family:
            return mobster
    return None


def carries(state: GameState, mobster: str, ability: Kind) -> bool:
    card = state.ability_of(mobster)
    return card is not None and CARD_KIND[card] is ability


def hand_limit(state: GameState, seat: int) -> int:
    if holder(state, seat, Kind.LIBRARIAN) is not None:
        return ABILITY.librarian_hand_limit
    return HAND_LIMIT


def draw_count(state: GameState, seat: int) -> int:
    """How many cards ``seat`` draws at its draw step (LIBRARIAN, POLITICIAN)."""
    limit = hand_limit(state, seat)
    hand = len(state.players[seat].hand)
    if holder(state, seat, Kind.POLITICIAN) is not None:
        return limit + ABILITY.politician_over_limit - hand if hand < limit else 0
    return max(0, limit - hand)


def shielded(state: GameState, mobster: str, card: Kind) -> bool:
    """DOPPELGANGER: not a target of ``card``."""
    return card in ABILITY.doppelganger_shields_from and carries(state, mobster, Kind.DOPPELGANGER)


def butcher_ready(state: GameState, seat: int) -> str | None:
    """BUTCHER's mobster if ``seat`` may use it now (its turn, not used yet this turn)."""
    if seat != state.turn_seat or state.butcher_turn == state.turn:
        return None
    return holder(state, seat, Kind.BUTCHER)


def cleaner_draws(state: GameState, seat: int) -> str | None:
    """CRIME SCENE CLEANER's mobster if ``seat`` may draw from the discard pile now."""
    return holder(state, seat, Kind.CRIME_SCENE_CLEANER) if state.discard else None


def unforgiving_choices(state: GameState) -> list[str]:
    """Every mobster in play that is not on the Hit List."""
    return [m for p in state.players for m in p.crew]


def assignable(state: GameState, seat: int) -> list[str]:
    """The seat's mobsters in play (in front or listed) without an ability."""
    own = (*state.players[seat].crew, *state.listed_of(seat))
    taken = {m for m, _ in state.abilities}
    return [m for m in own if m not in taken]
