"""The 15 orders (S-6), one class each. ``rules.decide`` checks what every order shares in
SR-57's precedence (the step, one order per turn, a thug in HQ, influence for the
Underworld and the Authorities); each class then carries out its own, refusing with the
specific reason. An order returns its ``OrderCarriedOut`` detail, or None when it waits
for a ``choose`` (Take a job, Get a dealer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from . import events as ev
from .content import BUSINESSES, COLUMNS, DISTRICTS
from .ctx import (
    Ctx,
    change_crime,
    check_pay,
    default_pay,
    entry_fee,
    gain,
    has_presence,
    lasting,
    markers_left,
    pay,
    pay_goods,
    police_in,
    refuse,
    storages,
    store,
)
from .evolve import content_of
from .sales import sell_many
from .state import CARS_PER_GANG, MAX_BUSINESSES, GameState


def recruit_steps(ctx: Ctx, seat: int, steps: tuple[str, ...] | list[str], cause: str) -> None:
    """Recruit steps in the order listed (SR-46): ``safe`` moves a thug safe house -> HQ,
    ``slums`` slums -> safe house."""
    for step in steps:
        if not ctx.p(seat).at(step):
            raise refuse("illegal_target", f"No thug in the seat's {step} to move.", box=step)
        ctx.emit(ev.ThugsMoved(seat, step, "hq" if step == "safe" else "safe", 1, cause))


def authority_threshold(state: GameState, normal: int) -> int:
    """Alderman or Election Year: 1 less influence (Free thugs 1, Remove control 4), not
    stacking (SR-63)."""
    return normal - 1 if (state.alderman or lasting(state, "election_year")) else normal


class Order:
    name: ClassVar[str]
    area: ClassVar[str] = "other"  # "underworld" | "authorities" | "other"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        raise NotImplementedError


# --- the Underworld (S-6.1) -----------------------------------------------------------------


class RecruitAssociate(Order):
    name = "recruit_associate"
    area = "underworld"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        card = str(args["associate"])
        state = ctx.state
        if card in state.market_low:
            row, cards = "low", list(state.market_low)
        elif card in state.market_high:
            row, cards = "high", list(state.market_high)
        else:
            raise refuse("illegal_target", f"{card} is not in the market.", card=card)
        stars = ctx.tables.associates[card].stars
        if stars > state.influence:
            raise refuse("requirement_not_met", f"{card} needs influence {stars}.", needed=stars)
        to = str(args.get("to", "discard"))
        paid: list[dict[str, Any]] = []
        if to == "hand":  # SR-39: 1 alcohol (1-3 stars) or 2 (4-5)
            due = {"alcohol": 1 if stars <= 3 else 2}
            places = storages(state, seat)
            given = args.get("pay")
            paid = (check_pay(state, seat, given, due, places) if given is not None
                    else default_pay(state, seat, due, places))  # fmt: skip
            pay_goods(ctx, seat, paid, "associate")
        k = cards.index(card)  # SR-45: the cards to its left shift right, refill slot 1
        deck = state.low_deck if row == "low" else state.high_deck
        after = [None, *cards[:k], *cards[k + 1 :]]
        drawn = 0
        if deck:
            after[0], drawn = deck[0], 1
        ctx.emit(ev.MarketChanged(row, tuple(after), drawn))
        ctx.emit(ev.AssociateRecruited(seat, card, to, tuple(paid)))
        if ctx.state.ring != seat:
            ctx.emit(ev.RingTaken(seat))
        return {"associate": card, "to": to}


class TakeJob(Order):
    name = "take_job"
    area = "underworld"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        deck = ctx.state.job_deck
        if not deck:
            raise refuse("illegal_target", "The job deck is empty.", deck="jobs")  # SR-48
        ctx.emit(ev.CardsOffered(seat, "jobs", deck[: min(ctx.state.influence, len(deck))]))
        ctx.emit(ev.StepStarted(seat, "choose"))
        return None


class GetDealer(Order):
    name = "get_dealer"
    area = "underworld"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        deck = ctx.state.dealer_deck
        if not deck:
            raise refuse("illegal_target", "The dealer deck is empty.", deck="dealers")
        ctx.emit(ev.CardsOffered(seat, "dealers", deck[: min(ctx.state.influence, len(deck))]))
        ctx.emit(ev.StepStarted(seat, "choose"))
        return None


class Sell(Order):
    name = "sell"
    area = "underworld"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        sales = list(args["sales"])
        if len(sales) > ctx.state.influence:
            raise refuse("requirement_not_met", "More sales than the plan's influence.",
                         allowed=ctx.state.influence)  # fmt: skip
        sell_many(ctx, seat, sales)
        return {"tiles": [s["tile"] for s in sales]}


class RecruitThugs(Order):
    name = "recruit_thugs"
    area = "underworld"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        steps = tuple(args["steps"])
        if len(steps) > ctx.state.influence:
            raise refuse("requirement_not_met", "More steps than the plan's influence.")
        recruit_steps(ctx, seat, steps, "recruit")
        return {"steps": list(steps)}


# --- the Authorities (S-6.2) ----------------------------------------------------------------


class SellAuthorities(Order):
    name = "sell_authorities"
    area = "authorities"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        given = list(args["pay"])
        count: dict[str, int] = {}
        for item in given:
            count[str(item["good"])] = count.get(str(item["good"]), 0) + int(item["n"])
        if sum(count.values()) > ctx.state.influence:
            raise refuse("requirement_not_met", "More goods than the plan's influence.")
        paid = check_pay(ctx.state, seat, given, count, storages(ctx.state, seat))
        gun_price = 4 if lasting(ctx.state, "gun_control") else 6  # Gun Control Act
        money = 6 * count.get("alcohol", 0) + gun_price * count.get("gun", 0)
        pay_goods(ctx, seat, paid, "authorities")
        gain(ctx, seat, money, "authorities")
        return {"goods": count, "money": money}


class LowerCrime(Order):
    name = "lower_crime"
    area = "authorities"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        change_crime(ctx, seat, -ctx.state.influence, "order")  # SR-80: may change nothing
        return {}


class FreeThugs(Order):
    name = "free_thugs"
    area = "authorities"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        needed = authority_threshold(ctx.state, 2)
        if ctx.state.influence < needed:
            raise refuse("requirement_not_met", f"Free thugs needs influence {needed}.")
        n = ctx.p(seat).at("prison")
        if n:
            ctx.emit(ev.ThugsMoved(seat, "prison", "hq", n, "order"))
        return {"freed": n}


class AddBusiness(Order):
    name = "add_business"
    area = "authorities"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        adds = list(args["adds"])
        if len(adds) > ctx.state.influence:
            raise refuse("requirement_not_met", "More markers than the plan's influence.")
        for add in adds:
            add_business(ctx, seat, str(add["tile"]), str(add["type"]))
        return {"adds": [dict(a) for a in adds]}


def add_business(ctx: Ctx, seat: int, tile: str, business: str) -> None:
    if business not in BUSINESSES:
        raise refuse("illegal_target", f"{business} is not a business one may add.")
    if tile not in ctx.tables.tiles or ctx.state.tile(tile).owner != seat:
        raise refuse("illegal_target", f"The seat does not control {tile}.", tile=tile)
    if len(ctx.state.tile(tile).businesses) >= MAX_BUSINESSES:
        raise refuse("limit_reached", f"{tile} holds 3 business markers.", tile=tile)
    if ctx.state.supply_of(business) <= 0:
        raise refuse("limit_reached", f"No {business} marker left.", business=business)
    ctx.emit(ev.BusinessAdded(tile, business))


class RemoveControl(Order):
    name = "remove_control"
    area = "authorities"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        tiles = list(args["tiles"])
        per = authority_threshold(ctx.state, 5)
        if len(tiles) > ctx.state.influence // per:
            raise refuse("requirement_not_met", f"Each marker removed needs {per} influence.")
        if len(set(tiles)) != len(tiles):
            raise refuse("illegal_target", "A tile is named twice.")
        for tile in tiles:
            if tile not in ctx.tables.tiles or ctx.state.tile(tile).owner is None:
                raise refuse("illegal_target", f"{tile} has no control marker.", tile=tile)
            ctx.emit(ev.ControlChanged(tile, ctx.state.tile(tile).owner, None))
        return {"tiles": tiles}


# --- other orders (S-6.3) -------------------------------------------------------------------


class SendThugs(Order):
    name = "send_thugs"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        to: dict[str, int] = dict(args["to"])
        total = sum(to.values())
        if total > ctx.p(seat).at("hq"):
            raise refuse("no_thug_in_hq", "More thugs than the seat's HQ holds.")
        if total > ctx.state.muscle:
            raise refuse("requirement_not_met", "More thugs than the plan's muscle.")
        before = ctx.state  # SR-71: presence judged before anything moves
        fees = 0
        for district, n in to.items():
            if district not in DISTRICTS:
                raise refuse("illegal_target", f"{district} is not a district.")
            if not has_presence(before, seat, district, markers=True):
                raise refuse("no_presence", f"The seat has nothing in {district}.")
            fees += entry_fee(before, seat, district, n)
        pay(ctx, seat, fees, "fee")
        for district, n in to.items():
            ctx.emit(ev.ThugsMoved(seat, "hq", district, n, "order"))
        return {"to": to}


class Move(Order):
    name = "move"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        moves = list(args["moves"])
        objects = sum(1 + int(m.get("riders", 0)) for m in moves)
        if objects > ctx.state.muscle:
            raise refuse("requirement_not_met", "More objects than the plan's muscle.")
        p = ctx.p(seat)
        free: dict[tuple[str, str], int] = {}  # pieces that have not moved (SR-54)
        for d in DISTRICTS:
            free[("thug", d)] = p.at(d)
            free[("car", d)] = p.cars.count(d)
            free[("truck", d)] = p.trucks.count(d)
        fees = 0
        for m in moves:
            what, src, dst = str(m["what"]), str(m["from"]), str(m["to"])
            riders = int(m.get("riders", 0))
            if src not in DISTRICTS or dst not in DISTRICTS or src == dst:
                raise refuse("illegal_target", "A move goes between two districts.")
            if riders and what != "car":
                raise refuse("bad_command", "Only cars carry riders.")
            if riders > 2 or riders < 0:
                raise refuse("limit_reached", "A car carries up to 2 thugs.")
            if what == "thug" and dst not in ctx.tables.districts[src].adjacent:
                raise refuse("illegal_target", f"{dst} is not next to {src}.")
            if free[(what, src)] < 1 or (riders and free[("thug", src)] < riders):
                raise refuse("illegal_target", f"No {what} of the seat left to move in {src}.")
            free[(what, src)] -= 1
            free[("thug", src)] -= riders
            fees += entry_fee(ctx.state, seat, dst, 1 + riders)
        pay(ctx, seat, fees, "fee")
        for m in moves:
            what, src, dst = str(m["what"]), str(m["from"]), str(m["to"])
            if what == "thug":
                ctx.emit(ev.ThugsMoved(seat, src, dst, 1, "order"))
                continue
            ctx.emit(ev.VehicleMoved(seat, what, src, dst, "order"))
            if int(m.get("riders", 0)):
                ctx.emit(ev.ThugsMoved(seat, src, dst, int(m["riders"]), "order"))
        return {"moves": [dict(m) for m in moves]}


def attack_and_defence(state: GameState, seat: int, tile: str) -> tuple[int, int]:
    tables = content_of(state)
    district = tables.tiles[tile].district
    p = state.players[seat]
    attack = state.muscle + p.at(district) + p.cars.count(district)
    t = state.tile(tile)
    defence = tables.tiles[tile].defence + (1 if t.nightclub else 0) + police_in(state, district)
    if t.owner is not None:
        owner = state.players[t.owner]
        defence += 2 + owner.at(district) + owner.cars.count(district)
    return attack, defence


class TakeNeighbourhood(Order):
    name = "take"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        tile = str(args["tile"])
        if tile not in ctx.tables.tiles or ctx.state.tile(tile).owner == seat:
            raise refuse("illegal_target", f"{tile} is not a tile the seat may take.", tile=tile)
        district = ctx.tables.tiles[tile].district
        if not has_presence(ctx.state, seat, district, markers=False):  # SR-23
            raise refuse("no_presence", f"The seat has no thug, car or truck in {district}.")
        if markers_left(ctx.state, seat) <= 0:
            raise refuse("no_marker_left", "All 7 control markers are on the board.")
        attack, defence = attack_and_defence(ctx.state, seat, tile)
        won = attack > defence  # SR-14
        ctx.emit(ev.AttackResolved(seat, tile, attack, defence, won))
        if won:
            ctx.emit(ev.ControlChanged(tile, ctx.state.tile(tile).owner, seat))
        return {"tile": tile, "won": won}


class Buy(Order):
    name = "buy"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        index = int(args["row"])
        p = ctx.p(seat)
        if not 0 <= index < len(p.rows):
            raise refuse("illegal_target", f"The seat has no dealer row {index}.", row=index)
        if p.at(f"row:{index}"):
            raise refuse("row_busy", "A thug already stands on that row.", row=index)
        dealers = [ctx.tables.dealers[d] for d in p.rows[index]]
        if (sum(d.muscle for d in dealers) > ctx.state.muscle
                or sum(d.influence for d in dealers) > ctx.state.influence):  # fmt: skip
            raise refuse("requirement_not_met", "The plan does not meet the row's requirements.")
        gained: dict[str, int] = {}
        for d in dealers:
            for good, n in d.supply:
                gained[good] = gained.get(good, 0) + n
        supplied = [g for g in ("alcohol", "gun") if gained.get(g)]
        if supplied and p.support:  # SR-78
            extra = list(args.get("extra") or [supplied[0]] * p.support)
            if len(extra) != p.support or any(g not in supplied for g in extra):
                raise refuse("illegal_target", "Extra goods: exactly your dealer support, of "
                             "types the row supplies.", support=p.support)  # fmt: skip
            for g in extra:
                gained[g] += 1
        elif args.get("extra"):
            raise refuse("illegal_target", "This purchase gives no extra goods.")
        bonus = (1 if lasting(ctx.state, "bumper_crop") else 0) + p.permanent(
            "dock", ctx.tables.jobs
        )
        if bonus:
            gained["alcohol"] = gained.get("alcohol", 0) + bonus
        ctx.emit(ev.ThugsMoved(seat, "hq", f"row:{index}", 1, "order"))
        goods = tuple({"good": g, "n": n} for g, n in gained.items() if n)
        ctx.emit(ev.DealerBought(seat, index, goods))
        store(ctx, seat, gained, args.get("store"), "dealer")
        return {"row": index, "goods": dict(gained)}


class Upgrade(Order):
    name = "upgrade"

    def run(self, ctx: Ctx, seat: int, args: Mapping[str, Any]) -> dict[str, Any] | None:
        p = ctx.p(seat)
        tables = ctx.tables
        if p.boss >= tables.boss_track_end:
            raise refuse("limit_reached", "The boss is at the end of its track.")  # SR-40
        column = str(args["column"])
        if column not in COLUMNS:
            raise refuse("bad_command", f"Unknown column '{column}'.", field="column")
        filled = p.column(column)
        if filled >= len(tables.slots[column]):
            raise refuse("illegal_target", f"The {column} column is full.", column=column)
        slot = tables.slots[column][filled]
        if ctx.state.muscle < slot.muscle or ctx.state.influence < slot.influence:
            raise refuse("requirement_not_met", "The plan does not meet the slot's requirements.",
                         muscle=slot.muscle, influence=slot.influence)  # fmt: skip
        hat_space = (p.boss + 1) in tables.hat_spaces
        hat = args.get("hat")
        if hat_space and hat is None:
            raise refuse("bad_command", "The boss lands on a hat space: name the hat.", field="hat")
        if not hat_space and hat is not None:
            raise refuse("bad_command", "No hat space here: no hat field.", field="hat")
        for name in ("district", "tile"):
            wanted = (column == "car_dealer" and name == "district") or (
                column == "nightclub" and name == "tile"
            )
            if name in args and not wanted:
                raise refuse("bad_command", f"Field '{name}' is not read by this upgrade.")
        ctx.emit(ev.GangUpgraded(seat, column, slot.slot, slot.money, slot.crime))
        pay(ctx, seat, slot.money, "upgrade")
        change_crime(ctx, seat, slot.crime, "upgrade")
        if column == "car_dealer":
            self._car(ctx, seat, args.get("district"))
        elif column == "nightclub":
            self._nightclub(ctx, seat, args.get("tile"))
        if hat is not None:
            unlock_hat(ctx, seat, hat)
        return {"column": column, "slot": slot.slot}

    def _car(self, ctx: Ctx, seat: int, district: Any) -> None:
        p = ctx.p(seat)
        tables = ctx.tables
        mine = {tables.tiles[t.id].district for t in ctx.state.controlled(seat)}
        if len(p.cars) >= CARS_PER_GANG or not mine:  # SR-62: the effect is lost
            return
        if district is None:
            raise refuse("bad_command", "Name the district for the new car.", field="district")
        if district not in mine:
            raise refuse("illegal_target", "The car goes where the seat controls a tile.")
        pay(ctx, seat, entry_fee(ctx.state, seat, str(district), 1), "fee")
        ctx.emit(ev.VehicleMoved(seat, "car", "supply", str(district), "upgrade"))

    def _nightclub(self, ctx: Ctx, seat: int, tile: Any) -> None:
        options = [t.id for t in ctx.state.controlled(seat) if not t.nightclub]
        if not options or ctx.state.supply_of("nightclub") <= 0:
            return
        if tile is None:
            raise refuse("bad_command", "Name the tile for the nightclub.", field="tile")
        if tile not in options:
            raise refuse("illegal_target", f"{tile} cannot become a nightclub.", tile=tile)
        ctx.emit(ev.NightclubOpened(str(tile)))


def unlock_hat(ctx: Ctx, seat: int, hat: Mapping[str, Any]) -> None:
    card = str(hat["card"])
    if card not in ctx.p(seat).aside:
        raise refuse("illegal_target", f"{card} is not one of the seat's hat cards aside.")
    if hat["to"] == "hand":  # SR-33: 2 alcohol
        places = storages(ctx.state, seat)
        given = hat.get("pay")
        paid = (check_pay(ctx.state, seat, given, {"alcohol": 2}, places) if given
                else default_pay(ctx.state, seat, {"alcohol": 2}, places))  # fmt: skip
        pay_goods(ctx, seat, paid, "hat")
    ctx.emit(ev.HatUnlocked(seat, card, str(hat["to"])))


ORDER_RULES: dict[str, Order] = {
    o.name: o
    for o in (
        RecruitAssociate(), TakeJob(), GetDealer(), Sell(), RecruitThugs(), SellAuthorities(),
        LowerCrime(), FreeThugs(), AddBusiness(), RemoveControl(), SendThugs(), Move(),
        TakeNeighbourhood(), Buy(), Upgrade(),
    )
}  # fmt: skip
_ = GameState
