"""A plain builder for scripted Family Business scenarios, and a few helpers to play them.

``make_state`` starts from a real ``initial_state`` and then places every card and every
mobster where the scenario asks, putting everything it does not mention somewhere
consistent: unnamed action cards go to the deck (after any requested top cards), unnamed
mobsters stay in front of their owner (or go to the graveyard when a crew is given). The
result is checked against the engine's own invariants, so a scenario can never start from
an impossible table.

Seats play the families in ``FAMILIES`` order: seat 0 the Capone Mob, seat 1 Murder Inc.,
seat 2 the Moran Gang... ``MOB[seat][i]`` names the i-th mobster of that seat's family.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from games.family_business import (
    ACTION_CARDS,
    CARD_KIND,
    FAMILIES,
    CloseWindow,
    Counter,
    GameState,
    Kind,
    Options,
    Pass,
    PlayCard,
    RuleViolation,
    decide,
    initial_state,
    replay,
)
from games.family_business.cards import ADVANCED_DECK
from games.family_business.events import Event
from games.family_business.invariants import violations

# MOB[seat] is the tuple of mobster ids of the family that seat plays.
MOB: tuple[tuple[str, ...], ...] = tuple(tuple(m for m, _ in f.members) for f in FAMILIES)

T = TypeVar("T")

CardSpec = str | Kind  # a kind ("CONTRACT", Kind.HIT) or an exact card id ("c01")


class _Cards:
    """Hands out real card ids, each once (the 10 ability cards too, when ``advanced``)."""

    def __init__(self, advanced: bool = False) -> None:
        self.used: set[str] = set()
        self.pool = ADVANCED_DECK if advanced else ACTION_CARDS

    def take(self, spec: CardSpec) -> str:
        if isinstance(spec, str) and spec in CARD_KIND:
            card = spec
        else:
            kind = Kind(spec)
            free = [c for c in self.pool if CARD_KIND[c] is kind and c not in self.used]
            if not free:
                raise ValueError(f"no copy of {kind} left to place")
            card = free[0]
        if card in self.used:
            raise ValueError(f"card {card} placed twice")
        self.used.add(card)
        return card

    def take_all(self, specs: Sequence[CardSpec]) -> tuple[str, ...]:
        return tuple(self.take(s) for s in specs)

    def rest(self) -> tuple[str, ...]:
        return tuple(c for c in self.pool if c not in self.used)


def make_state(
    players: int = 3,
    *,
    hands: Mapping[int, Sequence[CardSpec]] | None = None,
    crews: Mapping[int, int | Sequence[str]] | None = None,
    hit_list: Sequence[str] = (),
    graveyard: Sequence[str] = (),
    mob_war: int = 0,
    turn_seat: int = 0,
    deck: Sequence[CardSpec] = (),
    discard: Sequence[CardSpec] = (),
    rest: str = "deck",
    seed: str = "scenario",
    reaction_seconds: int = 10,
    advanced: bool = False,
    abilities: Mapping[str, CardSpec] | None = None,
) -> GameState:
    """A consistent mid-game state, ``turn_seat`` to play (its draw already done).

    ``hands``: seat -> cards (kinds or ids); seats not named hold no cards.
    ``crews``: seat -> how many of its remaining mobsters stay in front of it, or exactly
    which. Seats not named keep every mobster not on the Hit List or in the graveyard.
    Mobsters of a seat that are neither in its crew, on ``hit_list`` nor in ``graveyard``
    are dead (appended to the graveyard). A seat left with no mobster in play is out.
    ``deck``: cards on top of the deck, top first; ``discard``: the discard pile, top last.
    ``rest``: where every card not named goes: ``"deck"`` (under ``deck``) or ``"discard"``.
    ``advanced``: the advanced rules (66 cards); ``abilities``: mobster -> the ability card
    (kind or id) under it.
    """
    hands = hands or {}
    crews = crews or {}
    abilities = abilities or {}
    if abilities:
        advanced = True
    base = initial_state(players, Options(advanced=advanced), seed=seed)
    cards = _Cards(advanced)
    under = tuple((m, cards.take(spec)) for m, spec in abilities.items())
    hand_of = {seat: cards.take_all(hands.get(seat, ())) for seat in range(players)}
    top = cards.take_all(deck)
    pile = cards.take_all(discard)
    unnamed = cards.rest()
    if rest == "deck":
        new_deck, new_discard = top + unnamed, pile
    elif rest == "discard":
        new_deck, new_discard = top, unnamed + pile
    else:
        raise ValueError(f"rest must be 'deck' or 'discard', not {rest!r}")

    placed = set(hit_list) | set(graveyard)
    if len(placed) != len(hit_list) + len(graveyard):
        raise ValueError("a mobster is named twice on the Hit List / in the graveyard")
    dead = list(graveyard)
    new_players = []
    for p in base.players:
        family = MOB[_family_index(p.family)]
        free = [m for m in family if m not in placed]
        wanted = crews.get(p.seat)
        if wanted is None:
            crew = tuple(free)
        elif isinstance(wanted, int):
            crew = tuple(free[:wanted])
        else:
            crew = tuple(wanted)
            if any(m not in free for m in crew):
                raise ValueError(f"seat {p.seat}'s crew names a mobster not its own or placed")
        dead.extend(m for m in free if m not in crew)
        listed = [m for m in hit_list if m in family]
        out = not crew and not listed
        if out and hand_of[p.seat]:
            raise ValueError(f"seat {p.seat} has no mobster in play, so it holds no cards")
        new_players.append(replace(p, hand=hand_of[p.seat], crew=crew, out=out))
    foreign = set(placed) - {m for p in base.players for m in MOB[_family_index(p.family)]}
    if foreign:
        raise ValueError(f"mobsters of families not in the game: {sorted(foreign)}")

    state = replace(
        base,
        players=tuple(new_players),
        deck=new_deck,
        discard=new_discard,
        hit_list=tuple(hit_list),
        graveyard=tuple(dead),
        mob_war=mob_war,
        turn_seat=turn_seat,
        reaction_seconds=reaction_seconds,
        abilities=under,
    )
    broken = violations(state)
    if broken:
        raise ValueError(f"inconsistent scenario: {broken}")
    return state


def _family_index(family: str) -> int:
    return next(i for i, f in enumerate(FAMILIES) if f.id == family)


# --- playing a scenario --------------------------------------------------------------------


def play(
    state: GameState, seat: int | None, command: object, now: int = 0
) -> tuple[GameState, tuple[Event, ...]]:
    """Decide and fold one command; the state it leaves must keep every invariant."""
    events = decide(state, seat, command, now=now)  # type: ignore[arg-type]
    new = replay(events, state)
    broken = violations(new)
    assert not broken, broken
    return new, events


def refused(state: GameState, seat: int | None, command: object, now: int = 0) -> RuleViolation:
    """The refusal ``command`` meets; asserts it left the state as it was."""
    before = state
    try:
        events = decide(state, seat, command, now=now)  # type: ignore[arg-type]
    except RuleViolation as err:
        assert state == before
        return err
    raise AssertionError(f"expected a refusal, got {types(events)}")


def card_of(state: GameState, seat: int, kind: CardSpec) -> str:
    """The id of a card of ``kind`` in ``seat``'s hand."""
    for card in state.players[seat].hand:
        if CARD_KIND[card] is Kind(kind):
            return card
    raise AssertionError(f"seat {seat} holds no {kind}")


def play_kind(
    state: GameState, seat: int, kind: CardSpec, *targets: str, now: int = 0, **fields: object
) -> tuple[GameState, tuple[Event, ...]]:
    """Play the seat's card of ``kind`` with ``targets`` (and ``player``/``own``/``discard``)."""
    command = PlayCard(card_of(state, seat, kind), tuple(targets), **fields)  # type: ignore[arg-type]
    return play(state, seat, command, now)


def counter(
    state: GameState, seat: int, kind: CardSpec, mobster: str | None = None
) -> tuple[GameState, tuple[Event, ...]]:
    """Answer the open window with the seat's card of ``kind``."""
    assert state.window is not None, "no window is open"
    return play(state, seat, Counter(state.window.id, card_of(state, seat, kind), mobster))


def pass_all(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    """Every seat the open window waits on passes, in seat order."""
    assert state.window is not None, "no window is open"
    events: tuple[Event, ...] = ()
    window = state.window.id
    for seat in state.window.waiting_on:
        state, more = play(state, seat, Pass(window))
        events += more
    return state, events


def close(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    """The system closes the open window at its deadline."""
    assert state.window is not None, "no window is open"
    return play(state, None, CloseWindow(state.window.id), now=state.window.deadline)


def types(events: Sequence[Event]) -> list[str]:
    """The events' type names, in order."""
    return [type(e).__name__ for e in events]


def of_type(events: Sequence[Event], cls: type[T]) -> list[T]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, cls)]
