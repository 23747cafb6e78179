"""Skills with a target (rules version 2; S-7, SSD-4, SSD-5, SSD-9, SR-54, SR-55), one class
per effect: moves (a car or truck, a truck, a thug, the Chauffeur's car with riders, the
Truck Boss's two), sends (the Street Captain, the Torpedo), business markers (the Union
Boss, Al Capone, the Croupier), the Hitman, the Warehouse Keeper and the Rail Baron.

``skills`` gates them (``rules_of(state).targeted_skills``) and checks what every skill
shares (planned, once, the match); a class here reads its own ``choices`` fields only
(another field: ``bad_command``), and refuses a wrong target with the specific code. When
a target exists it must be named (missing: ``bad_command``); with nothing to act on the
skill may still be used and does the rest of its text (the Hitman's crime +1). The
Warehouse Keeper's moves and the Rail Baron's sale may always be left out (SR-55).

Each class also lists its legal targets (``options``), one ``choices`` form each, so that
``legal`` can offer them and the bots can pick; the police fees and payments are left to
``decide`` (``legal`` keeps only what it accepts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from . import events as ev
from .content import BUSINESSES, DISTRICTS
from .ctx import (
    Ctx,
    change_crime,
    entry_fee,
    has_presence,
    held,
    pay,
    refuse,
    room,
    storages,
)
from .evolve import content_of
from .orders import add_business
from .sales import default_sale_pay, sell
from .state import TRUCKS_PER_GANG, GameState

Choices = dict[str, Any]
MAX_OPTIONS = 24  # target forms listed per skill (legal options, bots); others are valid too


class Targeted:
    """One targeted effect. ``fields``: the ``choices`` keys it reads; ``optional``: its
    target may be left out even when one exists."""

    fields: ClassVar[frozenset[str]]
    optional: ClassVar[bool] = False

    def options(self, state: GameState, seat: int) -> list[Choices]:
        raise NotImplementedError

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        raise NotImplementedError

    def untargeted(self, ctx: Ctx, seat: int, cause: str) -> None:
        """The rest of the text, when nothing is named (the Hitman's crime +1)."""
        return None

    def apply(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        extra = sorted(set(choices) - self.fields)
        if extra:
            raise refuse("bad_command", f"This skill does not read {', '.join(extra)}.",
                         field=extra[0])  # fmt: skip
        named = {k: v for k, v in choices.items() if k in self.fields}
        if not named:
            if not self.optional and self.options(ctx.state, seat):
                wanted = ", ".join(sorted(self.fields))
                raise refuse("bad_command", f"Name the skill's target ({wanted}).",
                             field=sorted(self.fields)[0])  # fmt: skip
            self.untargeted(ctx, seat, cause)
            return
        self.run(ctx, seat, named, cause)


# --- moves (SR-54: each piece at most once, no muscle, police fees) -------------------------


def _free(state: GameState, seat: int) -> dict[tuple[str, str], int]:
    p = state.players[seat]
    free: dict[tuple[str, str], int] = {}
    for d in DISTRICTS:
        free[("thug", d)] = p.at(d)
        free[("car", d)] = p.cars.count(d)
        free[("truck", d)] = p.trucks.count(d)
    return free


def move_pieces(
    ctx: Ctx,
    seat: int,
    moves: Sequence[Mapping[str, Any]],
    kinds: tuple[str, ...],
    limit: int,
    *,
    riders: bool,
    cause: str,
) -> None:
    """Move ``moves`` (each ``{"what", "from", "to", "riders"?}``) for a skill."""
    if not moves:
        raise refuse("bad_command", "Field 'moves' must not be empty.", field="moves")
    if len(moves) > limit:
        raise refuse("limit_reached", f"This skill moves {limit} piece(s).", allowed=limit)
    state = ctx.state
    free = _free(state, seat)
    fees = 0
    for m in moves:
        if "what" not in m:
            raise refuse("bad_command", "A move names what moves.", field="moves")
        what, src, dst = str(m["what"]), str(m["from"]), str(m["to"])
        carried = int(m.get("riders", 0))
        if what not in kinds:
            raise refuse("illegal_target", f"This skill does not move a {what}.")
        if src not in DISTRICTS or dst not in DISTRICTS or src == dst:
            raise refuse("illegal_target", "A move goes between two districts.")
        if carried and not riders:
            raise refuse("limit_reached", "This skill carries no riders.", allowed=0)
        if carried > 2 or carried < 0:
            raise refuse("limit_reached", "A car carries up to 2 thugs.", allowed=2)
        if what == "thug" and dst not in ctx.tables.districts[src].adjacent:
            raise refuse("illegal_target", f"{dst} is not next to {src}.")
        if free[(what, src)] < 1 or free[("thug", src)] < carried:
            raise refuse("illegal_target", f"No {what} of the seat left to move in {src}.")
        free[(what, src)] -= 1
        free[("thug", src)] -= carried
        fees += entry_fee(state, seat, dst, 1 + carried)
    pay(ctx, seat, fees, "fee")
    for m in moves:
        what, src, dst = str(m["what"]), str(m["from"]), str(m["to"])
        if what == "thug":
            ctx.emit(ev.ThugsMoved(seat, src, dst, 1, cause))
            continue
        ctx.emit(ev.VehicleMoved(seat, what, src, dst, cause))
        if int(m.get("riders", 0)):
            ctx.emit(ev.ThugsMoved(seat, src, dst, int(m["riders"]), cause))


def move_options(
    state: GameState, seat: int, kinds: tuple[str, ...], *, riders: bool = False
) -> list[Choices]:
    tables = content_of(state)
    free = _free(state, seat)
    out: list[Choices] = []
    for what in kinds:
        for src in DISTRICTS:
            if not free[(what, src)]:
                continue
            targets = tables.districts[src].adjacent if what == "thug" else DISTRICTS
            for dst in targets:
                if dst == src:
                    continue
                move: Choices = {"what": what, "from": src, "to": dst}
                if riders and free[("thug", src)]:
                    move["riders"] = min(2, free[("thug", src)])
                out.append({"moves": [move]})
    return out


class MovePieces(Targeted):
    """ "move 1 of your cars or trucks" (the Driver, the Wheelman, Dean O'Banion), "move 1 of
    your trucks" (the Rumrunner), "move 1 of your thugs to an adjacent district" (the
    Lookout, Stephanie St. Clair), "move 1 of your cars carrying up to 2 of your thugs"
    (the Chauffeur)."""

    fields = frozenset({"moves"})

    def __init__(self, kinds: tuple[str, ...], *, riders: bool = False) -> None:
        self.kinds = kinds
        self.riders = riders

    def options(self, state: GameState, seat: int) -> list[Choices]:
        return move_options(state, seat, self.kinds, riders=self.riders)

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        move_pieces(ctx, seat, list(choices["moves"]), self.kinds, 1, riders=self.riders,
                    cause=cause)  # fmt: skip


class TruckBoss(Targeted):
    """Put 1 truck from the supply in the home district (its entry fee paid, SR-66), or move
    up to 2 of your cars/trucks."""

    fields = frozenset({"place_truck", "moves"})

    def home(self, state: GameState, seat: int) -> str:
        tables = content_of(state)
        return tables.tiles[tables.homes[state.players[seat].gang]].district

    def options(self, state: GameState, seat: int) -> list[Choices]:
        out: list[Choices] = []
        if len(state.players[seat].trucks) < TRUCKS_PER_GANG:
            out.append({"place_truck": True})
        return out + move_options(state, seat, ("car", "truck"))

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        if "place_truck" in choices and "moves" in choices:
            raise refuse("bad_command", "Either place a truck or move, not both.", field="moves")
        if "moves" in choices:
            move_pieces(ctx, seat, list(choices["moves"]), ("car", "truck"), 2, riders=False,
                        cause=cause)  # fmt: skip
            return
        if choices["place_truck"] is not True:
            raise refuse("bad_command", "Field 'place_truck' is true or left out.",
                         field="place_truck")  # fmt: skip
        if len(ctx.p(seat).trucks) >= TRUCKS_PER_GANG:
            raise refuse("limit_reached", "No truck left in the supply.")
        district = self.home(ctx.state, seat)
        pay(ctx, seat, entry_fee(ctx.state, seat, district, 1), "fee")
        ctx.emit(ev.VehicleMoved(seat, "truck", "supply", district, cause))


# --- sends ------------------------------------------------------------------------------------


class SendThug(Targeted):
    """ "send 1 thug from HQ to a district where you have an object" (the Street Captain; the
    Torpedo with its match): presence as Send thugs (SR-71), the entry fee paid."""

    fields = frozenset({"to"})

    def options(self, state: GameState, seat: int) -> list[Choices]:
        if not state.players[seat].at("hq"):
            return []
        return [{"to": d} for d in DISTRICTS if has_presence(state, seat, d, markers=True)]

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        district = choices["to"]
        if not isinstance(district, str) or district not in DISTRICTS:
            raise refuse("illegal_target", f"{district} is not a district.")
        if not ctx.p(seat).at("hq"):
            raise refuse("no_thug_in_hq", "The seat has no thug in HQ to send.")
        if not has_presence(ctx.state, seat, district, markers=True):
            raise refuse("no_presence", f"The seat has nothing in {district}.")
        pay(ctx, seat, entry_fee(ctx.state, seat, district, 1), "fee")
        ctx.emit(ev.ThugsMoved(seat, "hq", district, 1, cause))


# --- business markers -----------------------------------------------------------------------


class AddMarker(Targeted):
    """ "add 1 non-nightclub business marker to a tile you control" (Al Capone, the Union
    Boss; limits apply, SR-25) or "add 1 Gambling Den" (the Croupier, ``only``)."""

    fields = frozenset({"tile", "business"})

    def __init__(self, only: str | None = None) -> None:
        self.only = only

    def options(self, state: GameState, seat: int) -> list[Choices]:
        kinds = [b for b in BUSINESSES if state.supply_of(b) > 0 and self.only in (None, b)]
        out: list[Choices] = []
        for t in state.controlled(seat):
            if len(t.businesses) < 3:
                out += [{"tile": t.id, "business": b} for b in kinds]
        return out

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        if "tile" not in choices:
            raise refuse("bad_command", "Name the tile for the marker.", field="tile")
        business = choices.get("business", self.only)
        if business is None:
            raise refuse("bad_command", "Name the business type.", field="business")
        if self.only is not None and business != self.only:
            raise refuse("illegal_target", f"This skill adds a {self.only} only.",
                         business=str(business))  # fmt: skip
        add_business(ctx, seat, str(choices["tile"]), str(business))


# --- the Hitman -----------------------------------------------------------------------------


class Hitman(Targeted):
    """One opponent's thug in a district where the seat has a thug goes to its owner's slums;
    crime +1 (also with nobody to hit, SR-55)."""

    fields = frozenset({"target", "district"})

    def options(self, state: GameState, seat: int) -> list[Choices]:
        mine = state.players[seat]
        out: list[Choices] = []
        for p in state.players:
            if p.seat == seat or not p.in_game:
                continue
            out += [{"target": p.seat, "district": d} for d in DISTRICTS if mine.at(d) and p.at(d)]
        return out

    def untargeted(self, ctx: Ctx, seat: int, cause: str) -> None:
        change_crime(ctx, seat, 1, cause)

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        if "target" not in choices or "district" not in choices:
            raise refuse("bad_command", "Name the target seat and the district.", field="target")
        target, district = choices["target"], choices["district"]
        players = ctx.state.players
        if (not isinstance(target, int) or isinstance(target, bool) or target == seat
                or not 0 <= target < len(players) or not players[target].in_game):  # fmt: skip
            raise refuse("illegal_target", "The target is another seat in the game.")
        if not isinstance(district, str) or district not in DISTRICTS:
            raise refuse("illegal_target", f"{district} is not a district.")
        if not ctx.p(seat).at(district):
            raise refuse("illegal_target", f"The seat has no thug in {district}.")
        if not players[target].at(district):
            raise refuse("illegal_target", f"Seat {target} has no thug in {district}.")
        ctx.emit(ev.ThugsMoved(target, district, "slums", 1, cause))
        change_crime(ctx, seat, 1, cause)


# --- the Warehouse Keeper -------------------------------------------------------------------


class Warehouse(Targeted):
    """Move up to 2 goods between the seat's storages (its dealers, the tiles it controls):
    ``moves: [{"from", "to", "good", "n"}]``; room as on a gain (SR-51)."""

    fields = frozenset({"moves"})
    optional = True

    def options(self, state: GameState, seat: int) -> list[Choices]:
        places = storages(state, seat)
        out: list[Choices] = []
        for src in places:
            for good in ("alcohol", "gun"):
                n = min(2, held(state, seat, src, good))
                if not n:
                    continue
                for dst in places:
                    k = min(n, room(state, seat, dst, good))
                    if dst != src and k:
                        out.append({"moves": [{"from": src, "to": dst, "good": good, "n": k}]})
        return out

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        moves = list(choices["moves"])
        if not moves:
            raise refuse("bad_command", "Field 'moves' must not be empty.", field="moves")
        if any("good" not in m for m in moves):
            raise refuse("bad_command", "The Warehouse Keeper moves goods.", field="moves")
        if sum(int(m["n"]) for m in moves) > 2:
            raise refuse("limit_reached", "The Warehouse Keeper moves up to 2 goods.", allowed=2)
        places = storages(ctx.state, seat)
        for m in moves:
            src, dst, good, n = str(m["from"]), str(m["to"]), str(m["good"]), int(m["n"])
            if src not in places or dst not in places or src == dst:
                raise refuse("illegal_target", "Goods move between two of the seat's storages.",
                             place=dst if src in places else src)  # fmt: skip
            if held(ctx.state, seat, src, good) < n:
                raise refuse("cannot_pay", f"{src} does not hold {n} {good}.", place=src)
            ctx.emit(ev.GoodsChanged(seat, src, good, -n, cause))
            if room(ctx.state, seat, dst, good) < n:
                raise refuse("illegal_target", f"{dst} has no room for {n} {good}.", place=dst)
            ctx.emit(ev.GoodsChanged(seat, dst, good, n, cause))


# --- the Rail Baron -------------------------------------------------------------------------


class RailBaron(Targeted):
    """One extra sale (as S-6.1.4, not an order) in a tile the seat controls not sold this
    turn (SR-70): ``sale: {"tile", "pay"?}``."""

    fields = frozenset({"sale"})
    optional = True

    def options(self, state: GameState, seat: int) -> list[Choices]:
        tiles = [t.id for t in state.controlled(seat) if t.id not in state.sold]
        return [
            {"sale": {"tile": t}} for t in tiles if default_sale_pay(state, seat, t) is not None
        ]

    def run(self, ctx: Ctx, seat: int, choices: Mapping[str, Any], cause: str) -> None:
        sale = choices["sale"]
        tile = str(sale["tile"])
        if tile in ctx.state.sold:
            raise refuse("illegal_target", f"{tile} was sold this turn.", tile=tile)
        sell(ctx, seat, tile, sale.get("pay"))


EFFECTS: dict[str, Targeted] = {
    "move_vehicle": MovePieces(("car", "truck")),
    "move_truck": MovePieces(("truck",)),
    "move_thug": MovePieces(("thug",)),
    "chauffeur": MovePieces(("car",), riders=True),
    "truck_boss": TruckBoss(),
    "send_thug": SendThug(),
    "m:send_thug": SendThug(),
    "add_business": AddMarker(),
    "m:add_den": AddMarker("gambling_den"),
    "hitman": Hitman(),
    "warehouse": Warehouse(),
    "rail_baron": RailBaron(),
}


def choice_forms(state: GameState, seat: int, skill: str) -> list[Choices | None]:
    """The ``choices`` forms to offer for ``skill`` (None: nothing named), at most
    ``MAX_OPTIONS``; ``decide`` still judges each (fees, payments)."""
    rule = EFFECTS[skill]
    forms: list[Choices | None] = list(rule.options(state, seat)[:MAX_OPTIONS])
    if rule.optional or not forms:
        forms.append(None)
    return forms
