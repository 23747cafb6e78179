"""One sale in a neighbourhood (S-6.1.4), shared by the Sell order and the reorganization's
sales (S-9.1.1): the tile's goods less one per truck of the seat in its district (SR-53),
paid from that tile or the seat's dealers (SR-21); its money less $2 per police car there
(SR-38), unless the seat pays no police fees (SR-66)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import events as ev
from .ctx import Ctx, fee_waived, gain, held, pay_goods, police_in, refuse
from .evolve import content_of
from .state import GameState


def sale_places(state: GameState, seat: int, tile: str) -> list[str]:
    p = state.players[seat]
    return [tile, *(s.dealer for s in sorted(p.stored, key=lambda s: s.dealer))]


def sale_due(state: GameState, seat: int, tile: str) -> tuple[dict[str, int], int]:
    """What the sale asks for per good, and how many units in all are to be paid."""
    tables = content_of(state)
    card = tables.tiles[tile]
    asked = dict(card.sale)
    trucks = sum(1 for d in state.players[seat].trucks if d == card.district)
    return asked, max(0, sum(asked.values()) - trucks)


def sale_money(state: GameState, seat: int, tile: str) -> int:
    card = content_of(state).tiles[tile]
    money = card.money + (3 if state.tile(tile).nightclub else 0)
    if not fee_waived(state, seat):
        money -= 2 * police_in(state, card.district)
    return max(0, money)


def default_sale_pay(state: GameState, seat: int, tile: str) -> list[dict[str, Any]] | None:
    """A payment for the sale from the tile first, then the dealers; None: not payable."""
    asked, total = sale_due(state, seat, tile)
    out: list[dict[str, Any]] = []
    left = total
    for good, n in asked.items():
        want = min(n, left)
        for place in sale_places(state, seat, tile):
            k = min(want, held(state, seat, place, good))
            if k:
                out.append({"from": place, "good": good, "n": k})
                want -= k
                left -= k
    return out if left == 0 else None


def sell(ctx: Ctx, seat: int, tile: str, given: Sequence[Mapping[str, Any]] | None) -> None:
    state = ctx.state
    if tile not in ctx.tables.tiles or state.tile(tile).owner != seat:
        raise refuse("illegal_target", f"The seat does not control {tile}.", tile=tile)
    asked, total = sale_due(state, seat, tile)
    if given is None:
        chosen = default_sale_pay(state, seat, tile)
        if chosen is None:
            raise refuse("cannot_pay", f"The goods for a sale in {tile} are not there.", tile=tile)
    else:
        places = sale_places(state, seat, tile)
        per_good: dict[str, int] = {}
        taken: dict[tuple[str, str], int] = {}
        for item in given:
            place, good, n = str(item["from"]), str(item["good"]), int(item["n"])
            if place not in places:
                raise refuse("illegal_target", f"A sale in {tile} cannot pay from {place}.")
            per_good[good] = per_good.get(good, 0) + n
            taken[(place, good)] = taken.get((place, good), 0) + n
        if sum(per_good.values()) != total or any(n > asked.get(g, 0) for g, n in per_good.items()):
            raise refuse("cannot_pay", f"A sale in {tile} pays exactly {total} of its goods.",
                         tile=tile, due=total)  # fmt: skip
        for (place, good), n in taken.items():
            if held(state, seat, place, good) < n:
                raise refuse("cannot_pay", f"{place} does not hold {n} {good}.", place=place)
        chosen = [{"from": p, "good": g, "n": n} for (p, g), n in taken.items()]
    pay_goods(ctx, seat, chosen, "sale")
    money = sale_money(ctx.state, seat, tile)
    ctx.emit(ev.Sale(seat, tile, tuple(chosen), money))
    gain(ctx, seat, money, "sale")


def sell_many(ctx: Ctx, seat: int, sales: Sequence[Mapping[str, Any]]) -> None:
    tiles = [str(s["tile"]) for s in sales]
    if len(set(tiles)) != len(tiles):  # SR-70
        raise refuse("illegal_target", "One sale per tile.", tiles=tiles)
    for s in sales:
        sell(ctx, seat, str(s["tile"]), s.get("pay"))
