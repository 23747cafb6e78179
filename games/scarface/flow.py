"""The automatic parts of the game: turns starting and ending (S-4, S-5.3), the automatic
steps of a reorganization (S-9.1), raids (S-10), Extra! Extra! and the news (S-9.2, SSD-13)
and the end (S-11). Every function emits through a ``Ctx``; none waits for anybody except
by emitting ``StepStarted``."""

from __future__ import annotations

from . import events as ev
from .content import DISTRICTS, Content
from .ctx import (
    Ctx,
    board_thug,
    business_count,
    change_crime,
    gain,
    lose_business,
    lose_goods,
    seats_from_first,
    take,
)
from .evolve import content_of
from .rng import shuffled
from .state import GameState


def zone(crime: int) -> str:
    if crime <= 3:
        return "green"
    if crime <= 6:
        return "yellow"
    if crime <= 9:
        return "orange"
    return "red"


# --- turns -----------------------------------------------------------------------------


def start_turn(ctx: Ctx, seat: int) -> None:
    p = ctx.p(seat)
    kind = "action" if (p.hand or p.deck) else "reorganization"  # S-4.2, SR-7
    ctx.emit(ev.TurnStarted(seat, kind, ctx.state.turn + 1))
    if ctx.state.ring == seat:  # S-4.1, SR-3, SR-44
        gain(ctx, seat, ctx.state.seats_at_start - 1, "ring")
    if kind == "action":
        if not ctx.p(seat).hand:
            draw(ctx, seat)
        ctx.emit(ev.StepStarted(seat, "plan"))
        return
    if ctx.state.controlled(seat):  # SR-47
        ctx.emit(ev.StepStarted(seat, "reorg_sales"))
        return
    reorg_after_sales(ctx)


def draw(ctx: Ctx, seat: int) -> None:
    p = ctx.p(seat)
    n = min(max(0, p.hand_limit - len(p.hand)), len(p.deck))  # SR-8, SR-79
    if n:
        ctx.emit(ev.CardsDrawn(seat, p.deck[:n]))


def end_action_turn(ctx: Ctx) -> None:
    seat = ctx.state.seat
    draw(ctx, seat)  # S-5.3 (the plan joins the discard pile with TurnEnded)
    ctx.emit(ev.TurnEnded(seat))
    next_turn(ctx)


def next_turn(ctx: Ctx) -> None:
    state = ctx.state
    if state.over:
        return
    n = len(state.players)
    for k in range(1, n + 1):
        seat = (state.seat + k) % n
        if state.players[seat].in_game:
            start_turn(ctx, seat)
            return


# --- reorganization (S-9.1) ---------------------------------------------------------------


def reorg_after_sales(ctx: Ctx) -> None:
    seat = ctx.state.seat
    tables = ctx.tables
    p = ctx.p(seat)
    gain(ctx, seat, 3 * business_count(ctx.state, seat), "income")  # step 2
    chains = p.permanent("speakeasy_chain", tables.jobs)
    gain(ctx, seat, chains * business_count(ctx.state, seat, "speakeasy"), "job_bonus")
    gain(ctx, seat, 2 * p.permanent("numbers", tables.jobs), "job_bonus")
    on_rows = sum(n for place, n in p.thugs if place.startswith("row:"))  # step 3
    if on_rows:
        ctx.emit(ev.ThugsMoved(seat, "dealers", "hq", on_rows, "reorganization"))
    if p.at("authorities"):
        ctx.emit(ev.ThugsMoved(seat, "authorities", "hq", p.at("authorities"), "reorganization"))
    freed = min(ctx.p(seat).lawyer, ctx.p(seat).at("prison"))
    if freed:
        ctx.emit(ev.ThugsMoved(seat, "prison", "hq", freed, "lawyer"))
    p = ctx.p(seat)
    if p.recruiter >= 1 and (p.at("slums") or p.at("safe")):  # step 4, SR-46
        ctx.emit(ev.StepStarted(seat, "reorg_recruit"))
        return
    reorg_finish(ctx)


def reorg_finish(ctx: Ctx) -> None:
    seat = ctx.state.seat
    p = ctx.p(seat)
    label = f"deck:{seat}:reorg:{p.reorgs}"
    cards = _stacked_or_shuffled(ctx.state, p.discard, f"reshuffle.{seat}.{p.reorgs}", label)
    ctx.emit(ev.DeckShuffled(str(seat), cards, "reorganization"))  # step 5
    draw(ctx, seat)
    tables = ctx.tables
    ctx.emit(ev.TimeAdvanced(ctx.state.time + 1))  # step 6
    if ctx.state.time >= tables.extra_space:
        extra_extra(ctx)
        if ctx.state.over:
            return
    ctx.emit(ev.TurnEnded(seat))
    next_turn(ctx)


def _stacked_or_shuffled(state: GameState, cards: tuple[str, ...], key: str, label: str
                         ) -> tuple[str, ...]:  # fmt: skip
    stacked = [c for c in (state.stacked or {}).get(key, ()) if c in cards]
    rest = [c for c in cards if c not in stacked]
    return (*stacked, *shuffled(rest, state.seed, label))


# --- raids (S-10) ---------------------------------------------------------------------------


def settle(ctx: Ctx) -> None:
    """A raid a crime rise triggered resolves after the step that caused it (SR-9); one per
    step (SR-49); the Underworld's after its ``choose``."""
    if ctx.state.raid_pending and ctx.state.step != "choose" and not ctx.state.over:
        raid(ctx, "crime")


def reduction(ctx: Ctx) -> None:
    for seat in seats_from_first(ctx.state):
        change_crime(ctx, seat, -ctx.p(seat).lawyer, "raid")


def raid(ctx: Ctx, trigger: str) -> None:
    state = ctx.state
    if not state.raid_deck:  # S-10.2.2: reshuffle the discards
        n = state.raid_reshuffles + 1
        cards = _stacked_or_shuffled(state, state.raid_discard, f"raids.reshuffle.{n}",
                                     f"raids:reshuffle:{n}")  # fmt: skip
        ctx.emit(ev.DeckShuffled("raids", cards, "reshuffle"))
    card = ctx.state.raid_deck[0]
    ctx.emit(ev.RaidStarted(card, trigger))
    for seat in seats_from_first(ctx.state):  # step 1
        n = ctx.p(seat).at("underworld")
        if n:
            ctx.emit(ev.ThugsImprisoned(seat, n, "underworld"))
    RAID_LINES[ctx.tables.raids[card].design](ctx)  # step 3
    for seat in seats_from_first(ctx.state):  # step 4
        consequence(ctx, seat)
    ctx.emit(ev.RaidEnded(card))  # step 5


def imprison_from_board(ctx: Ctx, seat: int, n: int) -> int:
    done = 0
    for _ in range(n):
        district = board_thug(ctx.state, seat)
        if district is None:
            break
        ctx.emit(ev.ThugsImprisoned(seat, 1, district))
        done += 1
    return done


def consequence(ctx: Ctx, seat: int) -> None:
    where = zone(ctx.p(seat).crime)
    detail: dict[str, object] = {}
    if where != "green":
        due = {"yellow": 2, "orange": 4, "red": 6}[where]
        # the event's detail says what happened; the payments follow it
        detail["money"] = min(due, ctx.p(seat).money)
    if where in ("orange", "red"):
        detail["thugs"] = min(
            1 if where == "orange" else 2,
            sum(n for pl, n in ctx.p(seat).thugs if pl in DISTRICTS),
        )
    ctx.emit(ev.ZoneConsequence(seat, where, dict(detail)))
    if where == "green":
        return
    take(ctx, seat, int(detail["money"]), "raid")  # type: ignore[call-overload]
    if where in ("orange", "red"):
        imprison_from_board(ctx, seat, 1 if where == "orange" else 2)
    if where == "red":
        lose_business(ctx, seat)


def _markers_in(state: GameState, tables: Content, district: str) -> int:
    return sum(
        1 for t in state.tiles if t.owner is not None and tables.tiles[t.id].district == district
    )


def _patrol(ctx: Ctx) -> None:
    state, tables = ctx.state, ctx.tables
    most = max(DISTRICTS, key=lambda d: (_markers_in(state, tables, d), -DISTRICTS.index(d)))
    if len(state.police) < tables.police_cars:
        ctx.emit(ev.PoliceMoved("supply", most))
    else:  # SR-50
        fewest = min(sorted(set(state.police), key=DISTRICTS.index),
                     key=lambda d: _markers_in(state, tables, d))  # fmt: skip
        if fewest != most:
            ctx.emit(ev.PoliceMoved(fewest, most))
    reduction(ctx)


def _speakeasy_bust(ctx: Ctx) -> None:
    for seat in seats_from_first(ctx.state):
        take(ctx, seat, business_count(ctx.state, seat, "speakeasy"), "raid")
    reduction(ctx)


def _gun_sweep(ctx: Ctx) -> None:
    for seat in seats_from_first(ctx.state):
        if ctx.p(seat).crime >= 4:
            lose_goods(ctx, seat, "gun", 1, "raid")
    reduction(ctx)


def _warehouse_raid(ctx: Ctx) -> None:
    for seat in seats_from_first(ctx.state):
        if ctx.p(seat).crime >= 4:
            lose_goods(ctx, seat, "alcohol", 2, "raid")
    reduction(ctx)


def _informant(ctx: Ctx) -> None:
    seats = seats_from_first(ctx.state)
    top = max(ctx.p(s).crime for s in seats)
    for seat in seats:  # SR-56: every seat tied for the highest
        if ctx.p(seat).crime == top:
            imprison_from_board(ctx, seat, 1)
    reduction(ctx)


def _quiet_week(ctx: Ctx) -> None:
    reduction(ctx)
    for seat in seats_from_first(ctx.state):
        change_crime(ctx, seat, -1, "raid")


def _federal(ctx: Ctx) -> None:
    ness_advances(ctx)


RAID_LINES = {
    "patrol": _patrol,
    "speakeasy_bust": _speakeasy_bust,
    "gun_sweep": _gun_sweep,
    "warehouse_raid": _warehouse_raid,
    "informant": _informant,
    "quiet_week": _quiet_week,
    "federal": _federal,
}


def ness_advances(ctx: Ctx) -> None:
    """Ness one space up (max 10, SR-34); a crime marker on his space moves up one."""
    if ctx.state.ness >= 10:
        return
    ness = ctx.state.ness + 1
    for seat in seats_from_first(ctx.state):  # pushed first: crime stays above Ness (3.7)
        if ctx.p(seat).crime <= ness:
            change_crime(ctx, seat, ness + 1 - ctx.p(seat).crime, "ness")
    ctx.emit(ev.NessAdvanced(ness))


# --- Extra! Extra! (S-9.2) --------------------------------------------------------------------


def extra_extra(ctx: Ctx) -> None:
    ctx.emit(ev.ExtraExtraStarted())
    raid(ctx, "extra")  # step 1
    ness_advances(ctx)  # step 2
    settle(ctx)  # SR-12
    for row in ("low", "high"):  # step 3
        refresh(ctx, row)
    reveal_news(ctx)  # step 4
    if ctx.state.over:
        return
    settle(ctx)
    ctx.emit(ev.TimeReset(ctx.tables.time_start[ctx.state.seats_at_start]))  # step 5


def refresh(ctx: Ctx, row: str) -> None:
    cards = list(ctx.state.market_low if row == "low" else ctx.state.market_high)
    deck = ctx.state.low_deck if row == "low" else ctx.state.high_deck
    cards = [None, *cards[:-1]]  # the rightmost leaves the game (SR-45)
    drawn = 0
    if deck:
        cards[0] = deck[0]
        drawn = 1
    ctx.emit(ev.MarketChanged(row, tuple(cards), drawn))


def reveal_news(ctx: Ctx) -> None:
    card = ctx.state.news_deck[0]
    ctx.emit(ev.NewsRevealed(card))
    design = ctx.tables.news[card].design
    if design == "end":
        end_game(ctx)
        return
    seats = seats_from_first(ctx.state)
    if design == "reform_mayor":
        for seat in seats:
            change_crime(ctx, seat, 1, "news")
    elif design == "roaring_economy":
        for seat in seats:
            gain(ctx, seat, business_count(ctx.state, seat), "news")
    elif design == "massacre":
        for seat in seats:
            district = board_thug(ctx.state, seat)
            if district is not None:
                ctx.emit(ev.ThugsMoved(seat, district, "slums", 1, "news"))
    elif design == "reinforcements":
        if len(ctx.state.police) < ctx.tables.police_cars:
            ctx.emit(ev.PoliceMoved("supply", "D1"))
    elif design == "world_series":
        dens = {s: business_count(ctx.state, s, "gambling_den") for s in seats}
        top = max(dens.values(), default=0)
        for seat in seats:
            if top >= 1 and dens[seat] == top:  # SR-56
                gain(ctx, seat, 4, "news")


# --- the end (S-11) ---------------------------------------------------------------------------


def final_income(state: GameState, seat: int) -> int:
    p = state.players[seat]
    tables = content_of(state)
    stars = sum(
        tables.associates[c].stars
        for c in (*p.hand, *p.deck, *p.discard, *p.plan)
        if c in tables.associates
    )
    return 3 * business_count(state, seat) + 2 * stars


def end_game(ctx: Ctx) -> None:
    state = ctx.state
    seats = state.in_game()
    cash = tuple(p.money for p in state.players)
    income = tuple(final_income(state, s) if state.players[s].in_game else 0
                   for s in range(len(state.players)))  # fmt: skip
    ranked = winners_of(seats, cash, income)
    ctx.emit(ev.GameEnded(ranked, cash, income, state.seed))


def winners_of(seats: tuple[int, ...], cash: tuple[int, ...], income: tuple[int, ...]
               ) -> tuple[int, ...]:  # fmt: skip
    """Most cash + final income; tie: more cash; still tied: a shared win (SR-26)."""
    if not seats:
        return ()
    best = max(cash[s] + income[s] for s in seats)
    top = [s for s in seats if cash[s] + income[s] == best]
    most_cash = max(cash[s] for s in top)
    return tuple(s for s in top if cash[s] == most_cash)
