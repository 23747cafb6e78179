"""Card skills and boss skills (S-7, SSD-4, SSD-5, SSD-9), one rule per skill design.

The skills without a target are here. A skill whose effect names a target (a move, a
send, a business marker, the Hitman, the Warehouse Keeper, the Rail Baron, the Truck Boss,
the Chauffeur) is carried out by ``targeted`` when the game's rules have
``targeted_skills`` (rules version 2); under rules version 1 (stage 1, specification
section 9) it is refused ``not_allowed_now``.
A skill with plain and matching parts gives its plain parts without the match; one with
matching parts only needs it (SR-55)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import events as ev
from .ctx import Ctx, business_count, change_crime, gain, refuse, seats_from_first, store
from .state import GameState
from .targeted import EFFECTS as TARGETED_EFFECTS
from .versions import rules_of

TARGETED: frozenset[str] = frozenset(TARGETED_EFFECTS)


@dataclass(frozen=True)
class Use:
    """One use of a skill: who, whether its match is there, the command's choices, and the
    money/crime cause its effects are recorded with."""

    seat: int
    matched: bool
    choices: Mapping[str, Any]
    cause: str  # "skill" | "boss_skill"


Effect = Callable[[Ctx, Use], None]


def _money(n: int) -> Effect:
    return lambda ctx, use: gain(ctx, use.seat, n, use.cause)


def _crime(n: int) -> Effect:
    return lambda ctx, use: change_crime(ctx, use.seat, n, use.cause)


def _goods(alcohol: int, gun: int = 0, *, matched_gun: int = 0) -> Effect:
    def effect(ctx: Ctx, use: Use) -> None:
        gained = {"alcohol": alcohol, "gun": gun + (matched_gun if use.matched else 0)}
        gained = {g: n for g, n in gained.items() if n}
        store(ctx, use.seat, gained, use.choices.get("store"), use.cause)

    return effect


def _free_one(ctx: Ctx, use: Use) -> None:
    if ctx.p(use.seat).at("prison"):  # SR-80: with nobody there it changes nothing
        ctx.emit(ev.ThugsMoved(use.seat, "prison", "hq", 1, use.cause))


def _per(business: str | None, each: int, cap: int, *, tiles: bool = False) -> Effect:
    def effect(ctx: Ctx, use: Use) -> None:
        if tiles:
            count = len(ctx.state.controlled(use.seat))
        else:
            count = business_count(ctx.state, use.seat, business)
        gain(ctx, use.seat, min(cap, each * count), use.cause)

    return effect


def _tax(ctx: Ctx, use: Use) -> None:
    total = 0
    for seat in seats_from_first(ctx.state):
        if seat != use.seat and ctx.p(seat).money > 0:
            ctx.emit(ev.MoneyChanged(seat, -1, "tax"))
            total += 1
    gain(ctx, use.seat, total, "tax")


def _judge(ctx: Ctx, use: Use) -> None:
    change_crime(ctx, use.seat, -2, use.cause)
    n = ctx.p(use.seat).at("prison")
    if use.matched and n:
        ctx.emit(ev.ThugsMoved(use.seat, "prison", "hq", n, use.cause))


def _alderman(ctx: Ctx, use: Use) -> None:
    if use.matched:
        gain(ctx, use.seat, 6 if ctx.state.ring == use.seat else 4, use.cause)


def _casino(ctx: Ctx, use: Use) -> None:
    gain(ctx, use.seat, 6 if ctx.state.ring == use.seat else 4, use.cause)


def _nothing(ctx: Ctx, use: Use) -> None:
    return None


# skill id -> (effect, plan muscle added, plan influence added, needs the match for the rest)
EFFECTS: dict[str, Effect] = {
    "money1": _money(1), "money2": _money(2), "money3": _money(3),
    "m:money2": _money(2),
    "crime_down1": _crime(-1), "crime_down2": _crime(-2), "m:crime_down1": _crime(-1),
    "muscle1": _nothing, "influence1": _nothing, "m:muscle1": _nothing, "m:muscle2": _nothing,
    "m:influence1": _nothing,
    "free1": _free_one,
    "per_den1": _per("gambling_den", 1, 3), "m:per_den2": _per("gambling_den", 2, 6),
    "per_marker1": _per(None, 1, 4), "per_tile2": _per(None, 2, 10, tiles=True),
    "alcohol1": _goods(1), "alcohol2": _goods(2), "m:alcohol2": _goods(2), "gun1": _goods(0, 1),
    "canadian": _goods(3, matched_gun=1),
    "m:tax1": _tax, "judge": _judge, "alderman": _alderman, "casino": _casino,
    "strong_arm": _crime(1),
}  # fmt: skip
PLAN_BONUS: dict[str, tuple[int, int]] = {
    "muscle1": (1, 0), "influence1": (0, 1), "m:muscle1": (1, 0), "m:muscle2": (2, 0),
    "m:influence1": (0, 1), "strong_arm": (2, 0),
}  # fmt: skip


def card_type(ctx: Ctx, card: str) -> str:
    tables = ctx.tables
    if card in tables.associates:
        return tables.associates[card].type
    if card.endswith("-boss"):
        return tables.boss_types[card.split("-")[0]]
    return tables.gang_cards[card].type


def card_skill(ctx: Ctx, card: str) -> str | None:
    tables = ctx.tables
    if card in tables.associates:
        return tables.associates[card].skill
    if card in tables.gang_cards:
        return tables.gang_cards[card].skill
    return None


def matched(ctx: Ctx, seat: int, card: str) -> bool:
    """Another planned card of the same crime type (SR-5: a card cannot match itself)."""
    kind = card_type(ctx, card)
    return any(c != card and card_type(ctx, c) == kind for c in ctx.p(seat).plan)


def detail(skill: str, match: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"skill": skill}
    muscle, influence = PLAN_BONUS.get(skill, (0, 0))
    if muscle:
        out["muscle"] = muscle
    if influence:
        out["influence"] = influence
    if skill == "alderman":
        out["alderman"] = True
    if match:
        out["matched"] = True
    return out


def use_card_skill(ctx: Ctx, seat: int, card: str, choices: Mapping[str, Any] | None) -> None:
    p = ctx.p(seat)
    if card in ctx.state.skills_used:
        raise refuse("not_allowed_now", f"{card}'s skill is used once a turn.", card=card)
    skill = card_skill(ctx, card) if card in p.plan else None
    if skill is None:
        raise refuse("illegal_target", f"{card} is not a planned card with a skill.", card=card)
    if skill in TARGETED and not rules_of(ctx.state).targeted_skills:
        raise refuse("not_allowed_now", "Skills with a target come in a later stage.", card=card)
    match = matched(ctx, seat, card)
    if skill.startswith("m:") and not match:
        raise refuse("requirement_not_met", f"{card}'s skill needs a matching card.", card=card)
    ctx.emit(ev.SkillUsed(seat, card, detail(skill, match)))
    _effect(ctx, skill, Use(seat, match, choices or {}, "skill"))


def use_boss_skill(ctx: Ctx, seat: int, index: int, choices: Mapping[str, Any] | None) -> None:
    p = ctx.p(seat)
    if f"{p.gang}-boss" not in p.plan or ctx.state.boss_uses >= 3:  # S-7.3, SR-41
        raise refuse("not_allowed_now", "Boss skills need the boss planned, 3 uses a turn.")
    skill = ctx.tables.boss_skills[p.gang][index - 1]
    if skill in TARGETED and not rules_of(ctx.state).targeted_skills:
        raise refuse("not_allowed_now", "Skills with a target come in a later stage.", skill=index)
    ctx.emit(ev.BossSkillUsed(seat, index, ctx.state.boss_uses + 1, detail(skill, False)))
    _effect(ctx, skill, Use(seat, False, choices or {}, "boss_skill"))


def _effect(ctx: Ctx, skill: str, use: Use) -> None:
    if skill in TARGETED:
        TARGETED_EFFECTS[skill].apply(ctx, use.seat, use.choices, use.cause)
    else:
        EFFECTS[skill](ctx, use)


def usable(state: GameState, skill: str | None) -> bool:
    """Whether a skill may be used at all under ``state``'s rules (not whether now)."""
    if skill is None:
        return False
    return skill not in TARGETED or rules_of(state).targeted_skills


def targeted(skill: str | None) -> bool:
    return skill in TARGETED
