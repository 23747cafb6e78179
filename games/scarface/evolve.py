"""evolve(state, event) -> state: applies one event. It never decides and never fails for
events that ``decide`` produced. ``replay`` is a fold."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any

from . import events as ev
from .content import COLUMNS, CONTENTS, GANGS, TILE_IDS, Content, hat_cards
from .state import GameState, PlayerState, Stored, Tile
from .state import with_changes as replace


def content_of(state: GameState) -> Content:
    return CONTENTS[state.content_version]


def _player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _tile(state: GameState, tid: str, **changes: Any) -> GameState:
    tiles = list(state.tiles)
    index = int(tid[1:]) - 1
    tiles[index] = replace(tiles[index], **changes)
    return replace(state, tiles=tuple(tiles))


def _without(items: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    out = list(items)
    for item in gone:
        out.remove(item)
    return tuple(out)


def moved_thugs(
    thugs: tuple[tuple[str, int], ...], source: str, target: str, n: int
) -> tuple[tuple[str, int], ...]:
    counts = dict(thugs)
    if source == "dealers":  # every row's thugs at once (reorganization step 3)
        for place in [p for p in counts if p.startswith("row:")]:
            del counts[place]
    elif source != "supply":
        counts[source] = counts.get(source, 0) - n
    if target != "supply":
        counts[target] = counts.get(target, 0) + n
    return tuple(sorted((p, k) for p, k in counts.items() if k > 0))


def _started(state: GameState, e: ev.GameStarted) -> GameState:
    if e.position is not None:  # a game started from a position: the state it describes
        from .position import decoded  # noqa: PLC0415 - position imports this module's peers

        return decoded(e.position, tuple(e.names), e.seed, e.seed_hash, e.salt)
    tables = CONTENTS[e.content_version]
    players: list[PlayerState] = []
    tiles = {t: Tile(t) for t in TILE_IDS}
    for seat, (name, gang) in enumerate(zip(e.names, e.gangs, strict=True)):
        home = tables.homes[gang]
        district = tables.tiles[home].district
        thugs = {"slums": 4, "safe": 3, "hq": 3, district: 2}
        players.append(
            PlayerState(
                seat=seat, name=name, gang=gang, aside=hat_cards(gang),
                thugs=tuple(sorted(thugs.items())), cars=(district,), trucks=(district,),
            )
        )  # fmt: skip
        tiles[home] = Tile(home, owner=seat, alcohol=2)
    stacked = e.stacked
    return GameState(
        rules_version=e.rules_version,
        content_version=e.content_version,
        started=True,
        seed=e.seed,
        salt=e.salt,
        seed_hash=e.seed_hash,
        names=tuple(e.names),
        first_seat=e.first_seat,
        seats_at_start=len(e.names),
        players=tuple(players),
        tiles=tuple(tiles[t] for t in TILE_IDS),
        police=("D1",),
        time=tables.time_start[len(e.names)],
        market_low=tuple(None for _ in range(tables.low_slots)),
        market_high=tuple(None for _ in range(tables.high_slots)),
        low_deck=tuple(stacked.get("associates.low", ())),
        high_deck=tuple(stacked.get("associates.high", ())),
        job_deck=tuple(stacked.get("jobs", ())),
        dealer_deck=tuple(stacked.get("dealers", ())),
        raid_deck=tuple(stacked.get("raids", ())),
        news_deck=tuple(stacked.get("news", ())),
        business_supply=tuple(sorted(tables.business_counts.items())),
        stacked=stacked,
    )


def _shuffled(state: GameState, e: ev.DeckShuffled) -> GameState:
    if e.owner == "raids":
        n = state.raid_reshuffles + (1 if e.reason == "reshuffle" else 0)
        return replace(state, raid_deck=e.cards, raid_discard=(), raid_reshuffles=n)
    return _player(state, int(e.owner), deck=e.cards, discard=())


def _drawn(state: GameState, e: ev.CardsDrawn) -> GameState:
    p = state.players[e.seat]
    return _player(state, e.seat, deck=p.deck[len(e.cards) :], hand=p.hand + e.cards)


def _jobs_dealt(state: GameState, e: ev.JobsDealt) -> GameState:
    state = replace(state, job_deck=state.job_deck[len(e.cards) :])
    return _player(state, e.seat, jobs=state.players[e.seat].jobs + e.cards)


def _market(state: GameState, e: ev.MarketChanged) -> GameState:
    if e.row == "low":
        return replace(state, market_low=e.cards, low_deck=state.low_deck[e.drawn :])
    return replace(state, market_high=e.cards, high_deck=state.high_deck[e.drawn :])


def _turn_started(state: GameState, e: ev.TurnStarted) -> GameState:
    state = replace(
        state, turn=e.turn, seat=e.seat, kind=e.kind, step="", muscle=0, influence=0,
        skills_used=(), boss_uses=0, order_used=False, sold=(), alderman=False,
        offered=(), offered_deck="",
    )  # fmt: skip
    if e.kind == "reorganization":
        state = _player(state, e.seat, reorgs=state.players[e.seat].reorgs + 1)
    return state


def _plan(state: GameState, e: ev.PlanLaidOut) -> GameState:
    p = state.players[e.seat]
    state = replace(state, muscle=e.muscle, influence=e.influence)
    return _player(state, e.seat, hand=_without(p.hand, *e.cards), plan=e.cards)


def _crime(state: GameState, e: ev.CrimeChanged) -> GameState:
    if e.target >= 11 > e.source and not state.in_raid:  # S-10.1, SR-49
        state = replace(state, raid_pending=True)
    return _player(state, e.seat, crime=e.target)


def _goods(state: GameState, e: ev.GoodsChanged) -> GameState:
    if e.place.startswith("n"):
        t = state.tile(e.place)
        if e.good == "alcohol":
            return _tile(state, e.place, alcohol=t.alcohol + e.delta)
        return _tile(state, e.place, gun=t.gun + e.delta)
    p = state.players[e.seat]
    stored = tuple(replace(s, n=s.n + e.delta) if s.dealer == e.place else s for s in p.stored)
    return _player(state, e.seat, stored=stored)


def _skill(state: GameState, e: ev.SkillUsed) -> GameState:
    return replace(
        state,
        skills_used=(*state.skills_used, e.card),
        muscle=state.muscle + int(e.detail.get("muscle", 0)),
        influence=state.influence + int(e.detail.get("influence", 0)),
        alderman=state.alderman or bool(e.detail.get("alderman")),
    )


def _boss_skill(state: GameState, e: ev.BossSkillUsed) -> GameState:
    return replace(
        state,
        boss_uses=e.use,
        muscle=state.muscle + int(e.detail.get("muscle", 0)),
        influence=state.influence + int(e.detail.get("influence", 0)),
    )


def _thugs(state: GameState, e: ev.ThugsMoved) -> GameState:
    p = state.players[e.seat]
    return _player(state, e.seat, thugs=moved_thugs(p.thugs, e.source, e.target, e.n))


def _vehicle(state: GameState, e: ev.VehicleMoved) -> GameState:
    p = state.players[e.seat]
    pieces = list(p.cars if e.what == "car" else p.trucks)
    if e.source != "supply":
        pieces.remove(e.source)
    if e.target != "supply":
        pieces.append(e.target)
    key = "cars" if e.what == "car" else "trucks"
    return _player(state, e.seat, **{key: tuple(sorted(pieces))})


def _recruited(state: GameState, e: ev.AssociateRecruited) -> GameState:
    p = state.players[e.seat]
    if e.to == "hand":
        return _player(state, e.seat, hand=(*p.hand, e.card))
    return _player(state, e.seat, discard=(*p.discard, e.card))


def _offered(state: GameState, e: ev.CardsOffered) -> GameState:
    n = len(e.cards)
    if e.deck == "jobs":
        state = replace(state, job_deck=state.job_deck[n:])
    else:
        state = replace(state, dealer_deck=state.dealer_deck[n:])
    return replace(state, offered=e.cards, offered_deck=e.deck)


def _job_kept(state: GameState, e: ev.JobKept) -> GameState:
    state = replace(state, offered=(), offered_deck="")
    return _player(state, e.seat, jobs=(*state.players[e.seat].jobs, e.card))


def _kept(state: GameState, e: ev.CardKept) -> GameState:
    state = replace(state, offered=(), offered_deck="")
    p = state.players[e.seat]
    rows = list(p.rows)
    if e.row is None or e.row >= len(rows):
        rows.append((e.card,))
    else:
        rows[e.row] = (*rows[e.row], e.card)
    stored = (*p.stored, Stored(e.card, e.storage or "alcohol", 0))
    return _player(state, e.seat, rows=tuple(rows), stored=stored)


def _bottomed(state: GameState, e: ev.CardsBottomed) -> GameState:
    if e.deck == "jobs":
        return replace(state, job_deck=state.job_deck + e.cards)
    return replace(state, dealer_deck=state.dealer_deck + e.cards)


def _business_supply(state: GameState, business: str, delta: int) -> GameState:
    supply = tuple((b, n + delta if b == business else n) for b, n in state.business_supply)
    return replace(state, business_supply=supply)


def _business_added(state: GameState, e: ev.BusinessAdded) -> GameState:
    t = state.tile(e.tile)
    state = _business_supply(state, e.business, -1)
    return _tile(state, e.tile, businesses=(*t.businesses, e.business))


def _business_removed(state: GameState, e: ev.BusinessRemoved) -> GameState:
    t = state.tile(e.tile)
    state = _business_supply(state, e.business, 1)
    return _tile(state, e.tile, businesses=_without(t.businesses, e.business))


def _upgraded(state: GameState, e: ev.GangUpgraded) -> GameState:
    p = state.players[e.seat]
    columns = list(p.columns)
    columns[COLUMNS.index(e.column)] += 1
    changes: dict[str, Any] = {"boss": p.boss + 1, "columns": tuple(columns)}
    if e.column == "hand_limit":
        changes["hand_limit"] = p.hand_limit + 1
    elif e.column == "lawyer":
        changes["lawyer"] = min(3, p.lawyer + 1)  # SR-61
    elif e.column == "recruiter":
        changes["recruiter"] = p.recruiter + 1
    elif e.column == "dealer_support":
        changes["support"] = p.support + 1
    return _player(state, e.seat, **changes)


def _hat(state: GameState, e: ev.HatUnlocked) -> GameState:
    p = state.players[e.seat]
    aside = _without(p.aside, e.card)
    if e.to == "hand":
        return _player(state, e.seat, aside=aside, hand=(*p.hand, e.card))
    return _player(state, e.seat, aside=aside, discard=(*p.discard, e.card))


def _job_done(state: GameState, e: ev.JobCompleted) -> GameState:
    p = state.players[e.seat]
    card = content_of(state).jobs[e.job]
    jobs = _without(p.jobs, e.job)
    if not card.permanent:
        state = replace(state, job_discard=(*state.job_discard, e.job))
        return _player(state, e.seat, jobs=jobs)
    lawyer = min(3, p.lawyer + 1) if card.reward == "judge" else p.lawyer
    return _player(state, e.seat, jobs=jobs, done=(*p.done, e.job), lawyer=lawyer)


def _turn_ended(state: GameState, e: ev.TurnEnded) -> GameState:
    p = state.players[e.seat]
    state = _player(state, e.seat, plan=(), discard=p.discard + p.plan)
    return replace(
        state, step="", muscle=0, influence=0, skills_used=(), boss_uses=0, order_used=False,
        sold=(), alderman=False,
    )  # fmt: skip


def _raid_started(state: GameState, e: ev.RaidStarted) -> GameState:
    return replace(
        state,
        raid_deck=state.raid_deck[1:],
        in_raid=True,
        raid_pending=False,
        raids=state.raids + 1,
        crime_raids=state.crime_raids + (1 if e.trigger == "crime" else 0),
    )


def _imprisoned(state: GameState, e: ev.ThugsImprisoned) -> GameState:
    p = state.players[e.seat]
    return _player(state, e.seat, thugs=moved_thugs(p.thugs, e.source, "prison", e.n))


def _police(state: GameState, e: ev.PoliceMoved) -> GameState:
    police = list(state.police)
    if e.source != "supply":
        police.remove(e.source)
    police.append(e.target)
    return replace(state, police=tuple(sorted(police)))


def _news(state: GameState, e: ev.NewsRevealed) -> GameState:
    return replace(
        state, news_deck=state.news_deck[1:], news=e.card, news_seen=(*state.news_seen, e.card)
    )


def _resigned(state: GameState, e: ev.PlayerResigned) -> GameState:
    seat = e.seat
    if state.step == "choose" and state.seat == seat and state.offered:  # SR-58
        if state.offered_deck == "jobs":
            state = replace(state, job_deck=state.job_deck + state.offered)
        else:
            state = replace(state, dealer_deck=state.dealer_deck + state.offered)
        state = replace(state, offered=(), offered_deck="")
    tiles = tuple(replace(t, owner=None) if t.owner == seat else t for t in state.tiles)
    state = replace(state, tiles=tiles, ring=None if state.ring == seat else state.ring)
    return _player(
        state, seat, in_game=False, thugs=(), cars=(), trucks=(), rows=(), stored=(),
        hand=(), deck=(), discard=(), plan=(), jobs=(), done=(),
    )  # fmt: skip


def _ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(
        state, over=True, winners=e.winners, cash=e.cash, final_income=e.final_income,
        seed=e.seed, step="",
    )  # fmt: skip


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    ev.GameStarted: _started,
    ev.DeckShuffled: _shuffled,
    ev.CardsDrawn: _drawn,
    ev.JobsDealt: _jobs_dealt,
    ev.MarketChanged: _market,
    ev.TurnStarted: _turn_started,
    ev.StepStarted: lambda s, e: replace(s, step=e.step),
    ev.PlanLaidOut: _plan,
    ev.CrimeChanged: _crime,
    ev.MoneyChanged: lambda s, e: _player(s, e.seat, money=s.players[e.seat].money + e.delta),
    ev.GoodsChanged: _goods,
    ev.SkillUsed: _skill,
    ev.BossSkillUsed: _boss_skill,
    ev.OrderCarriedOut: lambda s, e: replace(s, order_used=True),
    ev.ThugsMoved: _thugs,
    ev.VehicleMoved: _vehicle,
    ev.AssociateRecruited: _recruited,
    ev.RingTaken: lambda s, e: replace(s, ring=e.seat),
    ev.RingReleased: lambda s, e: replace(s, ring=None),
    ev.CardsOffered: _offered,
    ev.CardKept: _kept,
    ev.JobKept: _job_kept,
    ev.CardsBottomed: _bottomed,
    ev.Sale: lambda s, e: replace(s, sold=(*s.sold, e.tile)),
    ev.BusinessAdded: _business_added,
    ev.BusinessRemoved: _business_removed,
    ev.NightclubOpened: lambda s, e: _tile(
        _business_supply(s, "nightclub", -1), e.tile, nightclub=True
    ),
    ev.NightclubClosed: lambda s, e: _tile(
        _business_supply(s, "nightclub", 1), e.tile, nightclub=False
    ),
    ev.ControlChanged: lambda s, e: _tile(s, e.tile, owner=e.target),
    ev.AttackResolved: lambda s, e: s,
    ev.DealerBought: lambda s, e: s,
    ev.GangUpgraded: _upgraded,
    ev.HatUnlocked: _hat,
    ev.JobCompleted: _job_done,
    ev.TurnEnded: _turn_ended,
    ev.TimeAdvanced: lambda s, e: replace(s, time=e.to),
    ev.TimeReset: lambda s, e: replace(s, time=e.to),
    ev.ExtraExtraStarted: lambda s, e: replace(s, extras=s.extras + 1),
    ev.RaidStarted: _raid_started,
    ev.RaidEnded: lambda s, e: replace(s, raid_discard=(*s.raid_discard, e.card), in_raid=False),
    ev.ThugsImprisoned: _imprisoned,
    ev.ZoneConsequence: lambda s, e: s,
    ev.NessAdvanced: lambda s, e: replace(s, ness=e.to),
    ev.PoliceMoved: _police,
    ev.NewsRevealed: _news,
    ev.PlayerResigned: _resigned,
    ev.GameEnded: _ended,
}


def evolve(state: GameState, event: Any) -> GameState:
    return _HANDLERS[type(event)](state, event)


def replay(events: Iterable[Any], state: GameState | None = None) -> GameState:
    return reduce(evolve, events, state or GameState())


assert set(_HANDLERS) == set(ev.EVENT_TYPES.values())  # noqa: S101 - every event folds
assert len(GANGS) == 4  # noqa: S101
