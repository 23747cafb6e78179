"""evolve(state, event) -> state: applies one event. It never decides and never fails
for events that ``decide`` produced."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any

from . import events as ev
from .cards import CARD_KIND, MOBSTER_FAMILY, Kind
from .state import GameState, PlayerState, Window, WindowOutcome
from .state import with_changes as replace


def _player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _without(items: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    out = list(items)
    for item in gone:
        out.remove(item)
    return tuple(out)


def _to_crew(state: GameState, mobster: str) -> GameState:
    seat = state.owner(mobster)
    return _player(state, seat, crew=(*state.players[seat].crew, mobster))


def _off_table(state: GameState, mobster: str) -> GameState:
    """Take a mobster from wherever it is in play (crew or Hit List)."""
    if mobster in state.hit_list:
        return replace(state, hit_list=_without(state.hit_list, mobster))
    seat = state.owner(mobster)
    return _player(state, seat, crew=_without(state.players[seat].crew, mobster))


def _game_started(state: GameState, e: ev.GameStarted) -> GameState:
    from .cards import FAMILY_BY_ID

    if e.position is not None:  # a game started from a position: the state it describes
        from .position import state_of  # noqa: PLC0415 - position imports the state's modules

        return state_of(e.names, e.seed, e.seed_hash, e.position)

    players = tuple(
        PlayerState(
            seat=i, name=name, family=fam, crew=tuple(m for m, _ in FAMILY_BY_ID[fam].members)
        )
        for i, (name, fam) in enumerate(zip(e.names, e.families, strict=True))
    )
    return GameState(
        rules_version=e.rules_version,
        started=True,
        players=players,
        reaction_seconds=e.reaction_seconds,
        advanced=e.advanced,
        seed=e.seed,
        seed_hash=e.seed_hash,
    )


def _deck_shuffled(state: GameState, e: ev.DeckShuffled) -> GameState:
    if e.reason == "undo":
        # the deck in a new order after an undo: the discard pile stays; it counts as a
        # shuffle, so the next reshuffle of the discard pile has a new label (one made
        # inside the undone move, partly seen, is not made in the same order again)
        return replace(state, deck=e.cards, shuffles=state.shuffles + 1)
    return replace(state, deck=e.cards, discard=(), shuffles=state.shuffles + 1)


def _cards_to_hand(state: GameState, e: ev.CardsDealt | ev.CardsDrawn) -> GameState:
    n = len(e.cards)
    state = replace(state, deck=state.deck[n:])
    return _player(state, e.seat, hand=state.players[e.seat].hand + e.cards)


def _turn_started(state: GameState, e: ev.TurnStarted) -> GameState:
    return replace(state, turn_seat=e.seat, turn=e.turn)


def _card_played(state: GameState, e: ev.CardPlayed) -> GameState:
    state = _player(state, e.seat, hand=_without(state.players[e.seat].hand, e.card))
    return replace(state, discard=(*state.discard, e.card))


def _window_opened(state: GameState, e: ev.WindowOpened) -> GameState:
    window = Window(
        id=e.window,
        seat=e.seat,
        card=e.card,
        kind=e.kind,
        targets=e.targets,
        eligible=e.eligible,
        passed=(),
        counters=e.counters,
        deadline=e.deadline,
    )
    return replace(state, window=window, windows_opened=state.windows_opened + 1)


def _window_passed(state: GameState, e: ev.WindowPassed) -> GameState:
    assert state.window is not None
    return replace(state, window=replace(state.window, passed=(*state.window.passed, e.seat)))


def _counter_played(state: GameState, e: ev.CounterPlayed) -> GameState:
    state = _player(state, e.seat, hand=_without(state.players[e.seat].hand, e.card))
    outcome = WindowOutcome(e.window, "countered", e.seat, e.card)
    return replace(state, discard=(*state.discard, e.card), last_window=outcome)


def _window_closed(state: GameState, e: ev.WindowClosed) -> GameState:
    last = state.last_window
    if last is None or last.id != e.window:
        last = WindowOutcome(e.window, e.reason)
    return replace(state, window=None, last_window=last)


def _mobster_listed(state: GameState, e: ev.MobsterListed) -> GameState:
    seat = state.owner(e.mobster)
    state = _player(state, seat, crew=_without(state.players[seat].crew, e.mobster))
    hit_list = list(state.hit_list)
    hit_list.insert(e.position, e.mobster)
    return replace(state, hit_list=tuple(hit_list))


def _mobster_rescued(state: GameState, e: ev.MobsterRescued) -> GameState:
    state = replace(state, hit_list=_without(state.hit_list, e.mobster))
    return _to_crew(state, e.mobster)


def _mobster_eliminated(state: GameState, e: ev.MobsterEliminated) -> GameState:
    state = _off_table(state, e.mobster)
    state = replace(state, graveyard=(*state.graveyard, e.mobster))
    card = state.ability_of(e.mobster) if state.abilities else None
    if card is None:
        return state
    # Advanced rules: the ability card goes to the discard pile; UNFORGIVING asks its owner.
    abilities = tuple(a for a in state.abilities if a[0] != e.mobster)
    state = replace(state, abilities=abilities, discard=(*state.discard, card))
    if CARD_KIND[card] is Kind.UNFORGIVING:
        state = replace(state, unforgiving=(*state.unforgiving, e.mobster))
    return state


def _hit_list_reordered(state: GameState, e: ev.HitListReordered) -> GameState:
    return replace(state, hit_list=e.order)


def _mobster_substituted(state: GameState, e: ev.MobsterSubstituted) -> GameState:
    hit_list = list(state.hit_list)
    i = hit_list.index(e.listed)
    if e.replacement in hit_list:
        j = hit_list.index(e.replacement)
        hit_list[i], hit_list[j] = hit_list[j], hit_list[i]
        return replace(state, hit_list=tuple(hit_list))
    seat = state.owner(e.replacement)
    state = _player(state, seat, crew=_without(state.players[seat].crew, e.replacement))
    hit_list[i] = e.replacement
    return _to_crew(replace(state, hit_list=tuple(hit_list)), e.listed)


def _mobster_returned(state: GameState, e: ev.MobsterReturned) -> GameState:
    state = replace(state, graveyard=_without(state.graveyard, e.mobster))
    if e.position is None:
        return _to_crew(state, e.mobster)
    hit_list = list(state.hit_list)
    hit_list.insert(e.position, e.mobster)
    return replace(state, hit_list=tuple(hit_list))


def _mob_war_started(state: GameState, e: ev.MobWarStarted | ev.MobWarRateChanged) -> GameState:
    return replace(state, mob_war=e.rate)


def _mob_war_ended(state: GameState, e: ev.MobWarEnded) -> GameState:
    return replace(state, mob_war=0)


def _player_resigned(state: GameState, e: ev.PlayerResigned) -> GameState:
    return _player(state, e.seat, resigned=True)


def _player_out(state: GameState, e: ev.PlayerOut) -> GameState:
    state = _player(state, e.seat, out=True, hand=())
    if state.unforgiving:  # an owner out of the game no longer decides
        family = state.players[e.seat].family
        gone = tuple(m for m in state.unforgiving if MOBSTER_FAMILY[m] != family)
        state = replace(state, unforgiving=gone)
    state = replace(state, discard=state.discard + e.discarded)
    window = state.window
    if window is not None and e.seat in window.eligible:
        # An out seat can no longer answer; it leaves the window like a pass would.
        eligible = tuple(s for s in window.eligible if s != e.seat)
        passed = tuple(s for s in window.passed if s != e.seat)
        state = replace(state, window=replace(window, eligible=eligible, passed=passed))
    return state


def _game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(state, over=True, winners=e.winners, window=None)


def _ability_assigned(state: GameState, e: ev.AbilityAssigned) -> GameState:
    state = _player(state, e.seat, hand=_without(state.players[e.seat].hand, e.card))
    return replace(state, abilities=(*state.abilities, (e.mobster, e.card)))


def _ability_used(state: GameState, e: ev.AbilityUsed) -> GameState:
    if e.ability == Kind.SHORT_TEMPERED:
        return replace(state, temper_turn=state.turn)
    return state


def _decision_opened(state: GameState, e: ev.DecisionOpened) -> GameState:
    window = Window(
        id=e.window,
        seat=e.seat,
        card=e.card,
        kind=e.kind,
        targets=(e.mobster,) if e.mobster else (),
        eligible=(e.seat,),
        passed=(),
        counters=(),
        deadline=e.deadline,
        decision=e.decision,
        count=e.count,
        then=e.then,
    )
    state = replace(state, window=window, windows_opened=state.windows_opened + 1)
    if e.decision == "unforgiving":
        state = replace(state, unforgiving=_without(state.unforgiving, e.mobster))
    return state


def _discard_taken(state: GameState, e: ev.DiscardTaken) -> GameState:
    state = replace(state, discard=_without(state.discard, e.card))
    return _player(state, e.seat, hand=(*state.players[e.seat].hand, e.card))


def _butcher_used(state: GameState, e: ev.ButcherUsed) -> GameState:
    state = _player(state, e.seat, hand=_without(state.players[e.seat].hand, *e.cards))
    return replace(state, discard=state.discard + e.cards, butcher_turn=state.turn)


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    ev.GameStarted: _game_started,
    ev.DeckShuffled: _deck_shuffled,
    ev.CardsDealt: _cards_to_hand,
    ev.CardsDrawn: _cards_to_hand,
    ev.TurnStarted: _turn_started,
    ev.CardPlayed: _card_played,
    ev.WindowOpened: _window_opened,
    ev.WindowPassed: _window_passed,
    ev.CounterPlayed: _counter_played,
    ev.WindowClosed: _window_closed,
    ev.MobsterListed: _mobster_listed,
    ev.MobsterRescued: _mobster_rescued,
    ev.MobsterEliminated: _mobster_eliminated,
    ev.HitListReordered: _hit_list_reordered,
    ev.MobsterSubstituted: _mobster_substituted,
    ev.MobsterReturned: _mobster_returned,
    ev.MobWarStarted: _mob_war_started,
    ev.MobWarRateChanged: _mob_war_started,
    ev.MobWarEnded: _mob_war_ended,
    ev.PlayerResigned: _player_resigned,
    ev.PlayerOut: _player_out,
    ev.GameEnded: _game_ended,
    ev.AbilityAssigned: _ability_assigned,
    ev.AbilityUsed: _ability_used,
    ev.DecisionOpened: _decision_opened,
    ev.DiscardTaken: _discard_taken,
    ev.ButcherUsed: _butcher_used,
}


def evolve(state: GameState, event: ev.Event) -> GameState:
    return _HANDLERS[type(event)](state, event)


def replay(events: Iterable[ev.Event], state: GameState | None = None) -> GameState:
    """Fold events onto ``state`` (the empty pre-game state by default)."""
    return reduce(evolve, events, state if state is not None else GameState())
