"""The working context of one decision: the state as it stands after each event emitted so
far (``emit`` folds it at once, so later rules read what earlier ones did), and the
helpers every rule shares: money, crime, police fees, paying and storing goods, and the
choice-free selections of raids (SR-31, SR-50).

A refused command raises ``RuleViolation`` and its events are dropped with the context:
a rule may check as it goes without leaving anything half done.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import events as ev
from .content import BUSINESSES, DISTRICTS, Content
from .errors import RuleViolation
from .evolve import content_of, evolve
from .state import MARKERS_PER_GANG, TILE_STORAGE, GameState, PlayerState


class Ctx:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Any] = []

    @property
    def tables(self) -> Content:
        return content_of(self.state)

    def emit(self, *events: Any) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def p(self, seat: int) -> PlayerState:
        return self.state.players[seat]


def refuse(code: str, message: str, **data: Any) -> RuleViolation:
    return RuleViolation(code, message, **data)


# --- reading the board --------------------------------------------------------------------


def gang_level(p: PlayerState) -> int:
    return 1 + p.boss // 3


def police_in(state: GameState, district: str) -> int:
    return sum(1 for d in state.police if d == district)


def thugs_in_districts(p: PlayerState) -> int:
    return sum(n for place, n in p.thugs if place in DISTRICTS)


def markers_on_board(state: GameState, seat: int) -> int:
    return sum(1 for t in state.tiles if t.owner == seat)


def markers_left(state: GameState, seat: int) -> int:
    return MARKERS_PER_GANG - markers_on_board(state, seat)


def business_count(state: GameState, seat: int, business: str | None = None) -> int:
    """Business markers on tiles ``seat`` controls (nightclubs included unless a type)."""
    total = 0
    for t in state.controlled(seat):
        if business is None:
            total += t.markers
        else:
            total += sum(1 for b in t.businesses if b == business)
    return total


def has_presence(state: GameState, seat: int, district: str, *, markers: bool) -> bool:
    p = state.players[seat]
    if p.at(district) or district in p.cars or district in p.trucks:
        return True
    tables = content_of(state)
    return markers and any(tables.tiles[t.id].district == district for t in state.controlled(seat))


def lasting(state: GameState, design: str) -> bool:
    """Whether the lasting news of ``design`` is in force (until the next news, SR-30)."""
    return state.news is not None and content_of(state).news[state.news].design == design


def fee_waived(state: GameState, seat: int) -> bool:
    return state.players[seat].permanent("payroll", content_of(state).jobs) > 0  # SR-66


def entry_fee(state: GameState, seat: int, district: str, objects: int) -> int:
    """$2 per police car in ``district`` per object entering (SR-38), unless waived."""
    if fee_waived(state, seat):
        return 0
    return 2 * police_in(state, district) * objects


# --- money and crime ----------------------------------------------------------------------


def gain(ctx: Ctx, seat: int, n: int, cause: str) -> None:
    if n > 0:
        ctx.emit(ev.MoneyChanged(seat, n, cause))


def pay(ctx: Ctx, seat: int, n: int, cause: str) -> None:
    """A required payment (SR-37): refused if the seat cannot pay it."""
    if n <= 0:
        return
    if ctx.p(seat).money < n:
        raise refuse("cannot_pay", f"This costs ${n}.", needed=n)
    ctx.emit(ev.MoneyChanged(seat, -n, cause))


def take(ctx: Ctx, seat: int, n: int, cause: str) -> int:
    """An "as much as possible" payment: what there is, up to ``n``."""
    n = min(n, ctx.p(seat).money)
    if n > 0:
        ctx.emit(ev.MoneyChanged(seat, -n, cause))
    return n


def change_crime(ctx: Ctx, seat: int, delta: int, cause: str) -> None:
    """Crime caps at 11 (SR-10) and every reduction stops at Ness + 1 (SR-11)."""
    before = ctx.p(seat).crime
    if delta > 0:
        after = min(11, before + delta)
    else:
        after = max(min(before, ctx.state.ness + 1), before + delta)
    if after != before:
        ctx.emit(ev.CrimeChanged(seat, before, after, cause))


# --- goods: where they are, paying, storing ------------------------------------------------


def storages(state: GameState, seat: int) -> list[str]:
    """The seat's dealers (id order) then the tiles it controls (id order)."""
    p = state.players[seat]
    return [s.dealer for s in sorted(p.stored, key=lambda s: s.dealer)] + [
        t.id for t in state.controlled(seat)
    ]


def held(state: GameState, seat: int, place: str, good: str) -> int:
    if place.startswith("n"):
        t = state.tile(place)
        return t.goods(good) if t.owner == seat else 0
    s = state.players[seat].storage(place)
    return s.n if s is not None and s.good == good else 0


def total_goods(state: GameState, seat: int, good: str, places: Iterable[str] | None = None) -> int:
    return sum(held(state, seat, pl, good) for pl in (places or storages(state, seat)))


def room(state: GameState, seat: int, place: str, good: str) -> int:
    if place.startswith("n"):
        if place not in content_of(state).tiles:
            return 0
        t = state.tile(place)
        return TILE_STORAGE - t.alcohol - t.gun if t.owner == seat else 0
    s = state.players[seat].storage(place)
    if s is None or s.good != good:
        return 0
    return content_of(state).dealers[place].capacity - s.n


def default_pay(
    state: GameState, seat: int, due: Mapping[str, int], places: Sequence[str]
) -> list[dict[str, Any]]:
    """A payment of exactly ``due`` from ``places`` (in order, most held first), or
    ``cannot_pay`` when the goods are not there."""
    out: list[dict[str, Any]] = []
    for good, n in due.items():
        left = n
        ranked = sorted(places, key=lambda pl: -held(state, seat, pl, good))
        for place in ranked:
            k = min(left, held(state, seat, place, good))
            if k > 0:
                out.append({"from": place, "good": good, "n": k})
                left -= k
        if left > 0:
            raise refuse("cannot_pay", f"This needs {n} {good}.", good=good, needed=n)
    return out


def check_pay(
    state: GameState,
    seat: int,
    given: Sequence[Mapping[str, Any]],
    due: Mapping[str, int],
    places: Sequence[str],
) -> list[dict[str, Any]]:
    """``given`` pays exactly ``due`` from ``places`` (SR-52): a place not allowed is
    ``illegal_target``; a wrong amount or a place without the goods ``cannot_pay``."""
    paid: dict[str, int] = {}
    taken: dict[tuple[str, str], int] = {}
    for item in given:
        place, good, n = str(item["from"]), str(item["good"]), int(item["n"])
        if place not in places:
            raise refuse("illegal_target", f"Goods cannot be paid from {place} here.", place=place)
        taken[(place, good)] = taken.get((place, good), 0) + n
        paid[good] = paid.get(good, 0) + n
    if {g: n for g, n in paid.items() if n} != {g: n for g, n in due.items() if n}:
        raise refuse("cannot_pay", "The pay list must pay exactly what is due.", due=dict(due))
    for (place, good), n in taken.items():
        if held(state, seat, place, good) < n:
            raise refuse("cannot_pay", f"{place} does not hold {n} {good}.", place=place)
    return [{"from": p, "good": g, "n": n} for (p, g), n in taken.items()]


def pay_goods(ctx: Ctx, seat: int, items: Sequence[Mapping[str, Any]], cause: str) -> None:
    for item in items:
        ctx.emit(
            ev.GoodsChanged(seat, str(item["from"]), str(item["good"]), -int(item["n"]), cause)
        )


def lose_goods(ctx: Ctx, seat: int, good: str, n: int, cause: str) -> int:
    """SR-31/SR-50: one unit at a time from the storage holding most of it (ties: dealers
    before tiles, then the lowest id). Returns how many were lost."""
    lost = 0
    for _ in range(n):
        places = storages(ctx.state, seat)
        best = max(places, key=lambda pl: (held(ctx.state, seat, pl, good),
                                           pl.startswith("d"), [-ord(c) for c in pl]),
                   default=None)  # fmt: skip
        if best is None or held(ctx.state, seat, best, good) == 0:
            break
        ctx.emit(ev.GoodsChanged(seat, best, good, -1, cause))
        lost += 1
    return lost


def store(
    ctx: Ctx,
    seat: int,
    gained: Mapping[str, int],
    where: Sequence[Mapping[str, Any]] | None,
    cause: str,
) -> None:
    """Store gained goods (SR-51): where the seat says, else its dealers storing that good
    in id order, then its tiles in id order; the rest is lost."""
    state = ctx.state
    if where is not None:
        placed: dict[str, int] = {}
        for item in where:
            good, n = str(item["good"]), int(item["n"])
            placed[good] = placed.get(good, 0) + n
        if any(n > gained.get(g, 0) for g, n in placed.items()):
            raise refuse("bad_command", "The store list holds more than was gained.")
        for item in where:
            place, good, n = str(item["to"]), str(item["good"]), int(item["n"])
            if room(ctx.state, seat, place, good) < n:
                raise refuse("illegal_target", f"{place} has no room for {n} {good}.", place=place)
            ctx.emit(ev.GoodsChanged(seat, place, good, n, cause))
        return
    for good, n in gained.items():
        left = n
        for place in storages(state, seat):
            k = min(left, room(ctx.state, seat, place, good))
            if k > 0:
                ctx.emit(ev.GoodsChanged(seat, place, good, k, cause))
                left -= k


# --- selections (raids, news) ---------------------------------------------------------------


def board_thug(state: GameState, seat: int) -> str | None:
    """The district holding most of the seat's thugs (ties: the lowest), or None."""
    p = state.players[seat]
    best: str | None = None
    for d in DISTRICTS:
        if p.at(d) and (best is None or p.at(d) > p.at(best)):
            best = d
    return best


def lose_business(ctx: Ctx, seat: int) -> str | None:
    tiles = [t for t in ctx.state.controlled(seat) if t.markers]
    if not tiles:
        return None
    tile = max(tiles, key=lambda t: (t.markers, -int(t.id[1:])))
    if tile.businesses:
        kind = max(BUSINESSES, key=lambda b: (tile.businesses.count(b), -BUSINESSES.index(b)))
        ctx.emit(ev.BusinessRemoved(tile.id, kind))
        return kind
    ctx.emit(ev.NightclubClosed(tile.id))
    return "nightclub"


def seats_from_first(state: GameState) -> list[int]:
    n = len(state.players)
    order = [(state.first_seat + k) % n for k in range(n)]
    return [s for s in order if state.players[s].in_game]
