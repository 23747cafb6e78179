"""evolve(state, event) -> state: applies one event. It never decides and never fails for
events that ``decide`` produced. ``replay`` is a fold."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any

from . import events as ev
from .cards import FACTIONS, TOKENS, scheme_faction
from .state import Auction, Figure, GameState, PlayerState
from .state import with_changes as replace
from .versions import rules_of


def _player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _supply(state: GameState, what: str, delta: int) -> tuple[int, ...]:
    supply = list(state.supply)
    supply[TOKENS.index(what)] += delta
    return tuple(supply)


def _without(items: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    out = list(items)
    for item in gone:
        out.remove(item)
    return tuple(out)


def _per_faction(
    piles: tuple[tuple[str, ...], ...], faction: str, pile: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    out = list(piles)
    out[FACTIONS.index(faction)] = pile
    return tuple(out)


def _game_started(state: GameState, e: ev.GameStarted) -> GameState:
    if e.position is not None:  # a game started from a position: the state it describes
        from .position import decoded  # noqa: PLC0415 - position imports this module's peers

        return decoded(e.position, e.names, e.seed, e.seed_hash)
    players = tuple(
        PlayerState(seat=i, name=name, colour=colour, weapon=1, data=1, compound=1)
        for i, (name, colour) in enumerate(zip(e.names, e.colours, strict=True))
    )
    n = len(players)
    supply = list(GameState().supply)
    for r in ("weapon", "data", "compound"):  # I-2.7
        supply[TOKENS.index(r)] -= n
    return GameState(
        rules_version=e.rules_version,
        content_version=e.content_version,
        started=True,
        seed=e.seed,
        seed_hash=e.seed_hash,
        sector_seconds=e.sector_seconds,
        turn_seconds=e.turn_seconds,
        players=players,
        supply=tuple(supply),
        choices=(None,) * n,
        stacked_contacts=tuple(tuple(order) for order in e.stacked.get("contacts", ())),
    )


def _job_deck(state: GameState, e: ev.JobDeckShuffled) -> GameState:
    return replace(state, job_deck=e.cards)


def _scheme_deck(state: GameState, e: ev.SchemeDeckShuffled) -> GameState:
    decks = _per_faction(state.scheme_decks, e.faction, e.cards)
    discards = state.scheme_discards
    reshuffles = state.reshuffles
    if e.reason == "reshuffle":
        discards = _per_faction(discards, e.faction, ())
        reshuffles += 1
    return replace(state, scheme_decks=decks, scheme_discards=discards, reshuffles=reshuffles)


def _bodyguard(state: GameState, e: ev.BodyguardAssigned | ev.BodyguardPassed) -> GameState:
    return replace(state, bodyguard=e.seat)


def _watchdog_placed(state: GameState, e: ev.WatchdogPlaced) -> GameState:
    return replace(state, watchdogs=tuple(sorted((*state.watchdogs, e.sector))))


def _watchdog_moved(state: GameState, e: ev.WatchdogMoved) -> GameState:
    dogs = list(state.watchdogs)
    dogs.remove(e.source)
    return replace(state, watchdogs=tuple(sorted((*dogs, e.target))))


def _watchdog_removed(state: GameState, e: ev.WatchdogRemoved) -> GameState:
    dogs = list(state.watchdogs)
    dogs.remove(e.sector)
    return replace(state, watchdogs=tuple(dogs))


def _round_started(state: GameState, e: ev.RoundStarted) -> GameState:
    n = len(state.players)
    return replace(
        state,
        round=e.round,
        step="",
        actor=None,
        deadline=None,
        track=(),
        results=(),
        auction=None,
        reward="",
        accomplice=None,
        chief=None,
        smuggler=None,
        informant=None,
        forgone=False,
        choices=(None,) * n,
        revealed=False,
        order=(),
        done=(),
        handled=(),
        played=0,
    )


def _contact_deck(state: GameState, e: ev.ContactDeckShuffled) -> GameState:
    return replace(state, contact_deck=e.cards)


def _contacts_revealed(state: GameState, e: ev.ContactsRevealed) -> GameState:
    return replace(state, track=e.cards, contact_deck=state.contact_deck[len(e.cards) :])


def _step_started(state: GameState, e: ev.StepStarted) -> GameState:
    return replace(state, step=e.step, actor=e.seat, deadline=e.deadline, steps=state.steps + 1)


def _auction_opened(state: GameState, e: ev.AuctionOpened) -> GameState:
    bids = (0,) * len(state.players)
    return replace(state, auction=Auction(e.position, e.contact, bids), reward="", drawn=0)


def _bid_placed(state: GameState, e: ev.BidPlaced) -> GameState:
    a = state.auction
    assert a is not None
    p = state.players[e.seat]
    added = e.total - a.bids[e.seat]
    bids = list(a.bids)
    bids[e.seat] = e.total
    bidders = a.bidders if e.seat in a.bidders else (*a.bidders, e.seat)
    log = (*a.log, (e.seat, True))
    auction = replace(a, bids=tuple(bids), bidders=bidders, high=e.seat, passes=(), log=log)
    state = _player(
        state,
        e.seat,
        available=p.available - added - e.expense,
        spent=p.spent + e.expense,
        on_contacts=p.on_contacts + added,
    )
    return replace(state, auction=auction)


def _favor_used(state: GameState, e: ev.FavorUsed) -> GameState:
    a = state.auction
    assert a is not None
    p = state.players[e.seat]
    # The expense bribe, spent, goes on the contact as the winner's marker (I-4.6).
    state = _player(
        state, e.seat, favor=p.favor - 1, available=p.available - 1, on_contacts=p.on_contacts + 1
    )
    return replace(state, supply=_supply(state, "favor", 1), auction=replace(a, high=e.seat))


def _bid_passed(state: GameState, e: ev.BidPassed) -> GameState:
    a = state.auction
    assert a is not None
    log = (*a.log, (e.seat, False))
    return replace(state, auction=replace(a, passes=(*a.passes, e.seat), log=log))


def _contact_won(state: GameState, e: ev.ContactWon) -> GameState:
    a = state.auction
    assert a is not None
    for seat, n in e.returned:
        p = state.players[seat]
        state = _player(state, seat, available=p.available + n, on_contacts=p.on_contacts - n)
    own = a.bids[e.seat]
    if own > 0:  # one token stays as the marker; the rest go to the spent area (I-4.5.7)
        p = state.players[e.seat]
        state = _player(
            state, e.seat, on_contacts=p.on_contacts - (own - 1), spent=p.spent + own - 1
        )
    won = {"c01": "accomplice", "c11": "chief", "c12": "smuggler", "c07": "informant"}
    changes: dict[str, Any] = {"results": (*state.results, e.seat), "auction": None}
    if e.contact in won:
        changes[won[e.contact]] = e.seat
    return replace(state, **changes)


def _contact_unclaimed(state: GameState, e: ev.ContactUnclaimed) -> GameState:
    return replace(state, results=(*state.results, None), auction=None)


def _gained(state: GameState, e: ev.Gained) -> GameState:
    p = state.players[e.seat]
    if e.what == "infamy":
        return _player(state, e.seat, infamy=p.infamy + e.n)
    if e.what.startswith("rep."):
        rep = list(p.rep)
        rep[FACTIONS.index(e.what[4:])] += e.n
        return _player(state, e.seat, rep=tuple(rep))
    state = _player(state, e.seat, **{e.what: p.count(e.what) + e.n})
    return replace(state, supply=_supply(state, e.what, -e.n))


def _lost(state: GameState, e: ev.Lost) -> GameState:
    p = state.players[e.seat]
    state = _player(state, e.seat, **{e.what: p.count(e.what) - e.n})
    return replace(state, supply=_supply(state, e.what, e.n))


def _bribes_spent(state: GameState, e: ev.BribesSpent) -> GameState:
    p = state.players[e.seat]
    return _player(state, e.seat, available=p.available - e.n, spent=p.spent + e.n)


def _bribes_recovered(state: GameState, e: ev.BribesRecovered) -> GameState:
    p = state.players[e.seat]
    return _player(state, e.seat, available=p.available + e.n, spent=p.spent - e.n)


def _bribes_retrieved(state: GameState, e: ev.BribesRetrieved) -> GameState:
    players = tuple(replace(p, spent=p.spent + p.on_contacts, on_contacts=0) for p in state.players)
    return replace(state, players=players)


def _resource_stolen(state: GameState, e: ev.ResourceStolen) -> GameState:
    victim = state.players[e.source]
    state = _player(state, e.source, **{e.what: victim.count(e.what) - 1})
    thief = state.players[e.target]
    return _player(state, e.target, **{e.what: thief.count(e.what) + 1})


def _schemes_drawn(state: GameState, e: ev.SchemesDrawn) -> GameState:
    deck = state.deck_of(e.faction)[len(e.cards) :]
    state = replace(state, scheme_decks=_per_faction(state.scheme_decks, e.faction, deck))
    if e.cause == "c07":
        state = replace(state, drawn=state.drawn + 1)
    return _player(state, e.seat, hand=(*state.players[e.seat].hand, *e.cards))


def _to_discard(state: GameState, card: str) -> GameState:
    faction = scheme_faction(card)
    pile = state.scheme_discards[FACTIONS.index(faction)]
    return replace(
        state, scheme_discards=_per_faction(state.scheme_discards, faction, (*pile, card))
    )


def _scheme_discarded(state: GameState, e: ev.SchemeDiscarded) -> GameState:
    if e.card == state.in_play:  # rules 2: the played scheme, resolved (I-8.1)
        return _to_discard(replace(state, in_play=""), e.card)
    state = _player(state, e.seat, hand=_without(state.players[e.seat].hand, e.card))
    return _to_discard(state, e.card)


def _scheme_stolen(state: GameState, e: ev.SchemeStolen) -> GameState:
    state = _player(state, e.source, hand=_without(state.players[e.source].hand, e.card))
    state = _player(state, e.target, hand=(*state.players[e.target].hand, e.card))
    return replace(state, steals=state.steals + 1)


def _thug_asked(state: GameState, e: ev.ThugAsked) -> GameState:
    return replace(state, thug=(e.rival, e.resource))


def _thug_resolved(state: GameState, e: ev.ThugResolved) -> GameState:
    return replace(state, thug=None, reward="")


def _hazard_placed(state: GameState, e: ev.HazardPlaced) -> GameState:
    return replace(state, hazards=tuple(sorted((*state.hazards, e.space))))


def _hazard_removed(state: GameState, e: ev.HazardRemoved) -> GameState:
    return replace(state, hazards=_without(state.hazards, e.space))


def _job_sabotaged(state: GameState, e: ev.JobSabotaged) -> GameState:
    return replace(state, jobs=_without(state.jobs, e.job), job_deck=(*state.job_deck, e.job))


def _sector_chosen(state: GameState, e: ev.SectorChosen) -> GameState:
    choices = list(state.choices)
    choices[e.seat] = (e.sector, e.accomplice)
    return replace(state, choices=tuple(choices))


def _sectors_revealed(state: GameState, e: ev.SectorsRevealed) -> GameState:
    return replace(state, revealed=True, order=e.order, done=(), handled=())


def _figure_placed(state: GameState, e: ev.FigurePlaced) -> GameState:
    return replace(
        state,
        figures=(*state.figures, Figure(e.space, e.seat, e.figure)),
        handled=(*state.handled, (e.seat, e.figure)),
    )


def _figure_not_placed(state: GameState, e: ev.FigureNotPlaced) -> GameState:
    return replace(state, handled=(*state.handled, (e.seat, e.figure)))


def _placement_forgone(state: GameState, e: ev.PlacementForgone) -> GameState:
    return replace(state, handled=(*state.handled, (e.seat, e.figure)), forgone=True)


def _job_completed(state: GameState, e: ev.JobCompleted) -> GameState:
    p = state.players[e.seat]
    changes = {what: p.count(what) - n for what, n in e.paid}
    state = _player(state, e.seat, jobs=(*p.jobs, e.job), **changes)
    supply = list(state.supply)
    for what, n in e.paid:
        supply[TOKENS.index(what)] += n
    return replace(state, supply=tuple(supply), jobs=_without(state.jobs, e.job))


def _perk_reached(state: GameState, e: ev.PerkReached) -> GameState:
    return state  # perks follow from Reputation; the event records the moment


def _scheme_phase(state: GameState, e: ev.SchemePhaseStarted) -> GameState:
    return replace(state, order=e.order, done=(), played=0)


def _scheme_played(state: GameState, e: ev.SchemePlayed) -> GameState:
    state = _player(state, e.seat, hand=_without(state.players[e.seat].hand, e.card))
    if rules_of(state).discard_after_resolving:  # I-8.1: in play until it has resolved
        return replace(state, in_play=e.card, played=state.played + 1)
    return replace(_to_discard(state, e.card), played=state.played + 1)


def _scheme_step_ended(state: GameState, e: ev.SchemeStepEnded) -> GameState:
    return replace(state, done=(*state.done, e.seat), played=0)


def _henchmen_scored(state: GameState, e: ev.HenchmenScored) -> GameState:
    return _player(state, e.seat, infamy=state.players[e.seat].infamy + e.i)


def _figures_cleared(state: GameState, e: ev.FiguresCleared) -> GameState:
    return replace(state, figures=())


def _jobs_refilled(state: GameState, e: ev.JobsRefilled) -> GameState:
    return replace(state, jobs=(*state.jobs, *e.cards), job_deck=state.job_deck[len(e.cards) :])


def _day_night(state: GameState, e: ev.DayNightFlipped) -> GameState:
    return state  # the round number says Day or Night; the event marks the moment


def _player_resigned(state: GameState, e: ev.PlayerResigned) -> GameState:
    """The seat leaves (I-11.1, 3.8.3-4): tokens back to the supply, bribes out of the game,
    schemes to their discard piles, its bids off the running contact."""
    p = state.players[e.seat]
    supply = list(state.supply)
    for i, what in enumerate(TOKENS):
        supply[i] += p.count(what)
    state = replace(state, supply=tuple(supply))
    for card in p.hand:
        state = _to_discard(state, card)
    if state.in_play and state.actor == e.seat:  # its scheme in play, unresolved
        state = replace(_to_discard(state, state.in_play), in_play="")
    zero = {what: 0 for what in TOKENS}
    state = _player(
        state,
        e.seat,
        out=True,
        resigned=True,
        hand=(),
        available=0,
        spent=0,
        on_contacts=0,
        **zero,
    )
    a = state.auction
    if a is not None:
        bids = list(a.bids)
        bids[e.seat] = 0
        passes = tuple(s for s in a.passes if s != e.seat)
        high = a.high
        if high == e.seat:  # 3.8.3: the highest remaining bid becomes the high bid
            high = max((s for s in range(len(bids)) if bids[s]), key=bids.__getitem__, default=None)
            if high is None:
                passes = ()  # no bid left: passes are counted afresh
            elif rules_of(state).passes_since_remaining_high:  # ...with the passes since it
                passes = _passes_since_bid(a.log, high, e.seat)
        state = replace(state, auction=replace(a, bids=tuple(bids), high=high, passes=passes))
    choices = list(state.choices)
    if choices:
        choices[e.seat] = None
    return replace(state, choices=tuple(choices))


def _passes_since_bid(log: tuple[tuple[int, bool], ...], bidder: int, gone: int) -> tuple[int, ...]:
    """The seats (but ``gone``) that passed after ``bidder``'s latest bid."""
    last = max(i for i, (seat, bid) in enumerate(log) if bid and seat == bidder)
    return tuple(dict.fromkeys(s for s, bid in log[last + 1 :] if not bid and s != gone))


def _game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(
        state,
        over=True,
        winners=e.winners,
        end_reason=e.reason,
        step="",
        actor=None,
        deadline=None,
    )


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    ev.GameStarted: _game_started,
    ev.JobDeckShuffled: _job_deck,
    ev.SchemeDeckShuffled: _scheme_deck,
    ev.BodyguardAssigned: _bodyguard,
    ev.WatchdogPlaced: _watchdog_placed,
    ev.RoundStarted: _round_started,
    ev.ContactDeckShuffled: _contact_deck,
    ev.ContactsRevealed: _contacts_revealed,
    ev.StepStarted: _step_started,
    ev.WatchdogMoved: _watchdog_moved,
    ev.WatchdogRemoved: _watchdog_removed,
    ev.AuctionOpened: _auction_opened,
    ev.BidPlaced: _bid_placed,
    ev.FavorUsed: _favor_used,
    ev.BidPassed: _bid_passed,
    ev.ContactWon: _contact_won,
    ev.ContactUnclaimed: _contact_unclaimed,
    ev.BodyguardPassed: _bodyguard,
    ev.Gained: _gained,
    ev.Lost: _lost,
    ev.BribesSpent: _bribes_spent,
    ev.BribesRecovered: _bribes_recovered,
    ev.BribesRetrieved: _bribes_retrieved,
    ev.ResourceStolen: _resource_stolen,
    ev.SchemesDrawn: _schemes_drawn,
    ev.SchemeDiscarded: _scheme_discarded,
    ev.SchemeStolen: _scheme_stolen,
    ev.ThugAsked: _thug_asked,
    ev.ThugResolved: _thug_resolved,
    ev.HazardPlaced: _hazard_placed,
    ev.HazardRemoved: _hazard_removed,
    ev.JobSabotaged: _job_sabotaged,
    ev.SectorChosen: _sector_chosen,
    ev.SectorsRevealed: _sectors_revealed,
    ev.FigurePlaced: _figure_placed,
    ev.FigureNotPlaced: _figure_not_placed,
    ev.PlacementForgone: _placement_forgone,
    ev.JobCompleted: _job_completed,
    ev.PerkReached: _perk_reached,
    ev.SchemePhaseStarted: _scheme_phase,
    ev.SchemePlayed: _scheme_played,
    ev.SchemeStepEnded: _scheme_step_ended,
    ev.HenchmenScored: _henchmen_scored,
    ev.FiguresCleared: _figures_cleared,
    ev.JobsRefilled: _jobs_refilled,
    ev.DayNightFlipped: _day_night,
    ev.PlayerResigned: _player_resigned,
    ev.GameEnded: _game_ended,
}


def evolve(state: GameState, event: ev.Event) -> GameState:
    return _HANDLERS[type(event)](state, event)


def replay(events: Iterable[ev.Event], state: GameState | None = None) -> GameState:
    """Fold events onto ``state`` (the empty pre-game state by default)."""
    return reduce(evolve, events, state if state is not None else GameState())
