"""What a seat may do now, for clients and bots: legal concrete commands grouped into
options by command type (docs/api.md, "legal options"). Computed from the seat's own
observation (``bots.observe``), so nothing another seat hides can change them; each
candidate is kept only if ``decide`` accepts it. Commands with free-form choices (a Move,
a Send, a pay list) are offered in one accepted form; others are valid too."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .bots import HeuristicBot, accepted, observe
from .codec import encode_command
from .commands import (
    Choose,
    Command,
    CompleteJob,
    EndTurn,
    GiveOrder,
    PlanCards,
    ReorgRecruit,
    ReorgSales,
    UseBossSkill,
    UseSkill,
)
from .ctx import Ctx
from .evolve import content_of
from .jobs import completable, default_steps
from .rules import awaiting
from .skills import card_skill, targeted, usable
from .state import GameState
from .targeted import choice_forms

LABELS: dict[str, str] = {
    "plan": "Lay out a plan",
    "skill": "Use a planned card's skill",
    "boss_skill": "Use a boss skill",
    "order": "Give this turn's order",
    "choose": "Keep one offered card",
    "complete_job": "Complete a job",
    "end_turn": "End the turn (discard the plan, draw up to the hand limit)",
    "reorg_sales": "Reorganization: sales",
    "reorg_recruit": "Reorganization: recruit thugs",
}


def _label(state: GameState, data: dict[str, Any]) -> str:
    kind = data["type"]
    tables = content_of(state)

    def name(card: str) -> str:
        if card in tables.associates:
            return tables.associates[card].name
        if card in tables.gang_cards:
            return tables.gang_cards[card].name
        if card in tables.jobs:
            return tables.jobs[card].name
        if card in tables.dealers:
            return tables.dealers[card].name
        return "the boss" if card.endswith("-boss") else card

    if kind == "plan":
        return "Plan " + ", ".join(name(c) for c in data["cards"])
    if kind == "skill":
        return f"Use {name(data['card'])}'s skill{_target(data)}"
    if kind == "boss_skill":
        return f"Boss skill {data['skill']}{_target(data)}"
    if kind == "complete_job":
        return f"Complete {name(data['job'])}"
    if kind == "choose":
        return f"Keep {name(data['keep'])}"
    if kind == "order":
        rest = {k: v for k, v in data.items() if k not in ("type", "order")}
        detail = f" {rest}" if rest else ""
        return f"Order: {data['order'].replace('_', ' ')}{detail}"
    if kind == "reorg_sales":
        tiles = [tables.tiles[s["tile"]].name for s in data["sales"]]
        return "Sell in " + ", ".join(tiles) if tiles else "No sales"
    if kind == "reorg_recruit":
        return f"Recruit steps: {', '.join(data['steps']) or 'none'}"
    return LABELS.get(str(kind), str(kind))


def _target(data: dict[str, Any]) -> str:
    """A targeted skill's choices, in words (rules version 2)."""
    ch = data.get("choices")
    if not ch:
        return ""
    parts = []
    for m in ch.get("moves", ()):
        if "what" in m:
            riders = f" with {m['riders']} thug(s)" if m.get("riders") else ""
            parts.append(f"{m['what']} {m['from']} to {m['to']}{riders}")
        else:
            parts.append(f"{m['n']} {m['good']} {m['from']} to {m['to']}")
    if "to" in ch:
        parts.append(f"send a thug to {ch['to']}")
    if "tile" in ch:
        parts.append(f"{ch.get('business', 'gambling_den').replace('_', ' ')} on {ch['tile']}")
    if "target" in ch:
        parts.append(f"hit seat {ch['target']} in {ch['district']}")
    if "sale" in ch:
        parts.append(f"sell in {ch['sale']['tile']}")
    if ch.get("place_truck"):
        parts.append("a truck home")
    return ": " + ", ".join(parts) if parts else ""


def may_complete(state: GameState, seat: int) -> list[str]:
    """The jobs ``seat`` may complete now, on its turn or out of it (G-8 (c), SR-65): its
    own jobs whose conditions hold and whose Spend it can pay, from its own observation."""
    if state.over or not state.started or not 0 <= seat < len(state.players):
        return []
    seen = observe(state, seat)
    return [j for j in completable(seen, seat) if accepted(seen, seat, CompleteJob(j))]


def candidates(state: GameState, seat: int) -> list[Command]:
    if seat not in awaiting(state):
        return [CompleteJob(j) for j in may_complete(state, seat)]  # out of turn (G-8 (d))
    seen = observe(state, seat)
    step = seen.step
    p = seen.players[seat]
    out: list[Command] = []
    if step == "plan":
        hand = sorted(p.hand)
        for k in range(1, len(hand) + 1):
            out += [PlanCards(c) for c in combinations(hand, k)]
        return out
    if step == "choose":
        for keep in seen.offered:
            rest = tuple(c for c in seen.offered if c != keep)
            out.append(Choose(keep, rest))
        return out
    if step == "reorg_sales":
        out.append(ReorgSales(()))
        singles = [ReorgSales(({"tile": t.id},)) for t in seen.controlled(seat)]
        out += [c for c in singles if accepted(seen, seat, c)]
        best = HeuristicBot().reorg_sales(seen, seat)
        if best not in out:
            out.append(best)
        return out
    if step == "reorg_recruit":
        return [ReorgRecruit(default_steps(seen, seat, p.recruiter)), ReorgRecruit(())]
    ctx = Ctx(seen)
    tries: list[Command] = []
    for card in p.plan:
        skill = card_skill(ctx, card)
        if card in seen.skills_used or not usable(seen, skill):
            continue
        if skill is not None and targeted(skill):  # one form per legal target (rules 2)
            tries += [UseSkill(card, ch) for ch in choice_forms(seen, seat, skill)]
        else:
            tries.append(UseSkill(card))
    boss = content_of(seen).boss_skills.get(p.gang)
    for i in range(1, 5):
        skill = boss[i - 1] if boss else None
        if skill is not None and targeted(skill) and usable(seen, skill):
            tries += [UseBossSkill(i, ch) for ch in choice_forms(seen, seat, skill)]
        else:
            tries.append(UseBossSkill(i))
    tries += [CompleteJob(j) for j in completable(seen, seat)]
    if not seen.order_used:
        tries += HeuristicBot().orders(seen, seat)
        tries += [GiveOrder(o) for o in ("take_job", "get_dealer", "lower_crime", "free_thugs")]
    for command in tries:
        if command not in out and accepted(seen, seat, command):
            out.append(command)
    out.append(EndTurn())
    return out


def legal_options(state: GameState, seat: int) -> list[dict[str, Any]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for command in candidates(state, seat):
        data = encode_command(command)
        grouped.setdefault(data["type"], []).append(data)
    options = []
    for kind, forms in grouped.items():
        option: dict[str, Any] = {"command": kind, "send": forms[0], "ready": True,
                                  "label": LABELS.get(kind, kind)}  # fmt: skip
        if len(forms) > 1 or forms[0] != {"type": kind}:
            option["variants"] = forms
            option["variant_labels"] = [_label(state, f) for f in forms]
            if len(forms) == 1:
                option["label"] = _label(state, forms[0])
        options.append(option)
    return options


def legal_commands(state: GameState, seat: int | None, *, now: int | None = None
                   ) -> tuple[dict[str, Any], ...]:  # fmt: skip
    if seat is None or state.over or not state.started:
        return ()
    return tuple(legal_options(state, seat))
