"""decide(state, seat, command) -> events, or ``RuleViolation``: the one entry point of the
rules. Checks what every command shares in SR-57's precedence (``game_over``,
``not_a_player``, ``not_in_game``, ``not_your_turn``, ``not_allowed_now``, ``order_used``,
``no_thug_in_hq``), then hands over to the step's own rules; a raid a crime rise
triggered resolves after the command's step (SR-9)."""

from __future__ import annotations

from typing import Any

from . import events as ev
from .commands import (
    AUTHORITIES,
    UNDERWORLD,
    Choose,
    Command,
    CompleteJob,
    EndTurn,
    GiveOrder,
    PlanCards,
    ReorgRecruit,
    ReorgSales,
    Resign,
    UseBossSkill,
    UseSkill,
)
from .ctx import Ctx, change_crime, gang_level, refuse
from .flow import end_action_turn, final_income, next_turn, reorg_after_sales, reorg_finish, settle
from .jobs import complete_job
from .orders import ORDER_RULES, recruit_steps
from .sales import sell_many
from .skills import use_boss_skill, use_card_skill
from .state import GameState
from .versions import rules_of

SYSTEM = None
STEP_OF: dict[type[Any], str] = {
    PlanCards: "plan", UseSkill: "actions", UseBossSkill: "actions", GiveOrder: "actions",
    EndTurn: "actions", Choose: "choose", ReorgSales: "reorg_sales",
    ReorgRecruit: "reorg_recruit",
}  # fmt: skip


def awaiting(state: GameState) -> tuple[int, ...]:
    if not state.started or state.over or not state.step:
        return ()
    return (state.seat,)


def out_of_turn(state: GameState) -> tuple[int, ...]:
    """The seats that may act now without being awaited (G-8, SR-65): under rules with
    out-of-turn jobs, at a decision point, every other seat still in the game (whether it
    holds a job it can complete is its own secret: the list says only that it may try)."""
    if not rules_of(state).out_of_turn_jobs:
        return ()
    waiting = awaiting(state)
    if not waiting:
        return ()
    return tuple(s for s in state.in_game() if s not in waiting)


def job_allowed_now(state: GameState, seat: int) -> None:
    """S-8.1, S-8.4, SR-18, SR-65: when a seat may complete a job at all. On its own turn
    at any of its steps but ``choose``; under rules with out-of-turn jobs, also while
    another seat is awaited; never inside an automatic resolution (no step awaited). The
    Plan condition (only in the seat's own action phase) is ``jobs.complete_job``'s."""
    own = seat == state.seat
    if not state.step or (not own and not rules_of(state).out_of_turn_jobs):
        if rules_of(state).out_of_turn_jobs:
            raise refuse("not_allowed_now", "No job inside an automatic resolution (SR-18).")
        raise refuse("not_allowed_now", "Jobs out of turn come in a later stage (G-8).")
    if own and state.step == "choose":
        raise refuse("not_allowed_now", "Choose the offered card first.")


def decide(
    state: GameState, seat: int | None, command: Command, *, now: int = 0
) -> tuple[Any, ...]:
    if not state.started:
        raise refuse("not_allowed_now", "The game has not started.")
    if state.over:
        raise refuse("game_over", "The game has ended.")
    if seat is None or not 0 <= seat < len(state.players):
        raise refuse("not_a_player", "The sender has no seat in this game.")
    if not state.players[seat].in_game:
        raise refuse("not_in_game", "This seat has resigned.")
    ctx = Ctx(state)
    if isinstance(command, Resign):
        resign(ctx, seat)
        return tuple(ctx.events)
    if isinstance(command, CompleteJob):
        job_allowed_now(state, seat)
        complete_job(ctx, seat, command.job, command.pay, command.choices)
        settle(ctx)
        return tuple(ctx.events)
    if seat != state.seat:
        raise refuse("not_your_turn", "It is not this seat's turn.", awaiting=state.seat)
    if STEP_OF[type(command)] != state.step:
        raise refuse("not_allowed_now", f"The game awaits '{state.step}'.", step=state.step)
    if isinstance(command, PlanCards):
        lay_out(ctx, seat, command.cards)
    elif isinstance(command, UseSkill):
        use_card_skill(ctx, seat, command.card, command.choices)
    elif isinstance(command, UseBossSkill):
        use_boss_skill(ctx, seat, command.skill, command.choices)
    elif isinstance(command, GiveOrder):
        give_order(ctx, seat, command)
    elif isinstance(command, Choose):
        choose(ctx, seat, command)
    elif isinstance(command, EndTurn):
        end_action_turn(ctx)
    elif isinstance(command, ReorgSales):
        sell_many(ctx, seat, command.sales)
        reorg_after_sales(ctx)
    elif isinstance(command, ReorgRecruit):
        if len(command.steps) > ctx.p(seat).recruiter:
            raise refuse("requirement_not_met", "More steps than the seat's recruiter level.")
        recruit_steps(ctx, seat, command.steps, "reorganization")
        reorg_finish(ctx)
    settle(ctx)
    return tuple(ctx.events)


def plan_totals(ctx: Ctx, seat: int, cards: tuple[str, ...]) -> tuple[int, int]:
    """S-5.1, SR-60: the boss at the gang level; Loyal Crew +1 muscle per copy."""
    p = ctx.p(seat)
    tables = ctx.tables
    muscle = influence = 0
    for card in cards:
        if card.endswith("-boss"):
            muscle += gang_level(p)
            influence += gang_level(p)
        elif card in tables.associates:
            muscle += tables.associates[card].muscle
            influence += tables.associates[card].influence
        else:
            muscle += tables.gang_cards[card].muscle
            influence += tables.gang_cards[card].influence
    return muscle + p.permanent("loyal", tables.jobs), influence


def lay_out(ctx: Ctx, seat: int, cards: tuple[str, ...]) -> None:
    hand = list(ctx.p(seat).hand)
    for card in cards:
        if card not in hand:
            raise refuse("card_not_in_hand", f"{card} is not in the seat's hand.", card=card)
        hand.remove(card)
    muscle, influence = plan_totals(ctx, seat, cards)
    ctx.emit(ev.PlanLaidOut(seat, tuple(cards), muscle, influence))
    change_crime(ctx, seat, max(0, len(cards) - 2), "plan")
    ctx.emit(ev.StepStarted(seat, "actions"))


def give_order(ctx: Ctx, seat: int, command: GiveOrder) -> None:
    state = ctx.state
    if state.order_used:
        raise refuse("order_used", "One order per action turn.")
    rule = ORDER_RULES[command.order]
    needs_hq = command.order in UNDERWORLD or command.order in AUTHORITIES or command.order == "buy"
    if needs_hq and not ctx.p(seat).at("hq"):
        raise refuse("no_thug_in_hq", "This order needs a thug in the seat's HQ.")
    if rule.area != "other" and state.influence < 1:  # SR-29
        raise refuse("requirement_not_met", "This order needs at least 1 influence.")
    if rule.area == "underworld":  # S-6.1 steps 1 and 2
        already = ctx.p(seat).at("underworld")
        ctx.emit(ev.ThugsMoved(seat, "hq", "underworld", 1, "order"))
        change_crime(ctx, seat, already, "underworld")
    elif rule.area == "authorities":
        ctx.emit(ev.ThugsMoved(seat, "hq", "authorities", 1, "order"))
    detail = rule.run(ctx, seat, command.args)
    if detail is not None:
        ctx.emit(ev.OrderCarriedOut(seat, command.order, detail))


def choose(ctx: Ctx, seat: int, command: Choose) -> None:
    state = ctx.state
    offered, deck = state.offered, state.offered_deck
    if command.keep not in offered:
        raise refuse("illegal_target", f"{command.keep} was not offered.", card=command.keep)
    others = [c for c in offered if c != command.keep]
    bottom = list(command.bottom) if command.bottom is not None else others
    if sorted(bottom) != sorted(others):
        raise refuse("illegal_target", "'bottom' lists the other offered cards.", cards=others)
    row: int | None = None
    storage: str | None = None
    if deck == "jobs":
        if command.row is not None or command.storage is not None:
            raise refuse("bad_command", "A job takes no row or storage.")
    else:
        rows = len(ctx.p(seat).rows)
        if command.row is None:
            row = rows
        elif command.row < rows:
            row = command.row
        else:
            raise refuse("illegal_target", "No such dealer row.", row=command.row)
        kind = ctx.tables.dealers[command.keep].storage
        if kind == "either":
            storage = command.storage or "alcohol"  # SR-67
        elif command.storage is not None:
            raise refuse("bad_command", "Only a Police Captain's storage is chosen.")
        else:
            storage = kind
    if deck == "jobs":
        ctx.emit(ev.JobKept(seat, command.keep))
    else:
        ctx.emit(ev.CardKept(seat, deck, command.keep, row, storage))
    if bottom:
        ctx.emit(ev.CardsBottomed(seat, deck, len(bottom), tuple(bottom)))
    order = "take_job" if deck == "jobs" else "get_dealer"
    kept: dict[str, Any] = (
        {"deck": deck} if deck == "jobs" else {"dealer": command.keep, "row": row}
    )
    ctx.emit(ev.OrderCarriedOut(seat, order, kept))
    ctx.emit(ev.StepStarted(seat, "actions"))


def resign(ctx: Ctx, seat: int) -> None:
    """S-12.3, SR-36, SR-58."""
    active = ctx.state.seat == seat and bool(ctx.state.step)
    if ctx.state.ring == seat:
        ctx.emit(ev.RingReleased())
    ctx.emit(ev.PlayerResigned(seat))
    left = ctx.state.in_game()
    if len(left) == 1:
        state = ctx.state
        cash = tuple(p.money for p in state.players)
        income = tuple(final_income(state, s) if state.players[s].in_game else 0
                       for s in range(len(state.players)))  # fmt: skip
        ctx.emit(ev.GameEnded(left, cash, income, state.seed, "last_seat"))
        return
    if active:
        ctx.emit(ev.TurnEnded(seat))
        next_turn(ctx)
        settle(ctx)
