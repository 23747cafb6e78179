"""Jobs (S-8, SSD-11): their Have, Plan and Spend conditions and their rewards, one rule
per design. Stage 1: a seat completes jobs on its own turn (any of its steps but
``choose``; a Plan job only in its action phase)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import events as ev
from .content import DISTRICTS, JobCard
from .ctx import (
    Ctx,
    business_count,
    change_crime,
    check_pay,
    default_pay,
    gain,
    pay,
    pay_goods,
    refuse,
    storages,
    thugs_in_districts,
)
from .evolve import content_of
from .orders import recruit_steps
from .state import GameState


def _districts(state: GameState, seat: int) -> int:
    tables = content_of(state)
    return len({tables.tiles[t.id].district for t in state.controlled(seat)})


def _truck_at_tile(state: GameState, seat: int) -> bool:
    tables = content_of(state)
    mine = {tables.tiles[t.id].district for t in state.controlled(seat)}
    return any(d in mine for d in state.players[seat].trucks)


HAVE: dict[str, Callable[[GameState, int], bool]] = {
    "tiles3": lambda s, seat: len(s.controlled(seat)) >= 3,
    "districts3": lambda s, seat: _districts(s, seat) >= 3,
    "truck_at_tile": _truck_at_tile,
    "speakeasies3": lambda s, seat: business_count(s, seat, "speakeasy") >= 3,
    "thugs6": lambda s, seat: thugs_in_districts(s.players[seat]) >= 6,
    "dens2": lambda s, seat: business_count(s, seat, "gambling_den") >= 2,
}


def default_steps(state: GameState, seat: int, n: int) -> tuple[str, ...]:
    """SR-59: each step from the safe house whenever it holds a thug, else the slums."""
    p = state.players[seat]
    safe, slums = p.at("safe"), p.at("slums")
    steps: list[str] = []
    for _ in range(n):
        if safe:
            steps.append("safe")
            safe -= 1
        elif slums:
            steps.append("slums")
            slums -= 1
            safe += 1
        else:
            break
    return tuple(steps)


def _reward(ctx: Ctx, seat: int, card: JobCard, choices: Mapping[str, Any]) -> None:
    reward = card.reward
    if reward.startswith("money"):
        gain(ctx, seat, int(reward[5:]), "job")
    elif reward == "favor":
        gain(ctx, seat, 3, "job")
        change_crime(ctx, seat, -2, "job")
    elif reward == "recruit3":
        steps = choices.get("steps")
        if steps is None:
            steps = default_steps(ctx.state, seat, 3)
        if len(steps) > 3:
            raise refuse("limit_reached", "Hire Muscle gives 3 recruit steps.")
        recruit_steps(ctx, seat, tuple(steps), "job")
    elif reward == "escape":
        n = ctx.p(seat).at("prison")
        if n:
            ctx.emit(ev.ThugsMoved(seat, "prison", "hq", n, "job"))
        change_crime(ctx, seat, 2, "job")
    # permanent rewards act through the seat's completed jobs (state.PlayerState.done)


def complete_job(
    ctx: Ctx,
    seat: int,
    job: str,
    given: Sequence[Mapping[str, Any]] | None,
    choices: Mapping[str, Any] | None,
) -> None:
    state = ctx.state
    p = ctx.p(seat)
    if job not in p.jobs:
        raise refuse("card_not_in_hand", f"The seat does not hold job {job}.", job=job)
    card = ctx.tables.jobs[job]
    if card.plan is not None and not (state.step == "actions" and state.seat == seat):
        raise refuse("not_allowed_now", "A Plan job only in the seat's own action phase.")
    if card.have is not None and not HAVE[card.have](state, seat):
        raise refuse("job_condition_not_met", f"{card.name}: {card.text}", job=job)
    if card.plan is not None:
        total = state.muscle if card.plan[0] == "muscle" else state.influence
        if total < card.plan[1]:
            raise refuse("job_condition_not_met", f"{card.name}: {card.text}", job=job)
    money = sum(n for what, n in card.spend if what == "money")
    goods = {what: n for what, n in card.spend if what != "money"}
    if money > p.money:
        raise refuse("cannot_pay", f"{card.name} costs ${money}.", needed=money)
    paid: list[dict[str, Any]] = []
    if goods:
        places = storages(state, seat)
        paid = (check_pay(state, seat, given, goods, places) if given is not None
                else default_pay(state, seat, goods, places))  # fmt: skip
    elif given:
        raise refuse("cannot_pay", "This job spends no goods.")
    ctx.emit(ev.JobCompleted(seat, job, tuple(paid), card.reward))
    pay(ctx, seat, money, "job_spend")
    pay_goods(ctx, seat, paid, "job")
    _reward(ctx, seat, card, choices or {})


def completable(state: GameState, seat: int) -> list[str]:
    """The seat's jobs whose conditions hold now (a cheap pre-check for bots and ``legal``;
    ``complete_job`` decides)."""
    tables = content_of(state)
    out = []
    for job in state.players[seat].jobs:
        card = tables.jobs[job]
        if card.have is not None and not HAVE[card.have](state, seat):
            continue
        if card.plan is not None:
            if state.step != "actions" or state.seat != seat:
                continue
            total = state.muscle if card.plan[0] == "muscle" else state.influence
            if total < card.plan[1]:
                continue
        out.append(job)
    return out


_ = DISTRICTS
