"""Bots (G-12). Both choose from ``observe(state, seat)`` only: the state with every other
seat's hand, deck, jobs, offers and money total, every deck order (its own included) and
the seed replaced by placeholders that do not depend on them. So nothing a seat may not
know can change a bot's command (T9), by construction.

- ``MinimalBot`` plays every step's legal default (SR-59).
- ``RandomBot`` picks any legal option (uniformly, seeded): the platform's tests explore
  with it.
- ``HeuristicBot`` plans its two strongest cards, uses every skill it can, completes the
  jobs it can on its own turn (SR-16), and gives the first order of a priority list that
  the rules accept (tried with ``decide`` on its observation), then ends its turn.
"""

from __future__ import annotations

from random import Random
from typing import Any

from .commands import (
    Choose,
    Command,
    CompleteJob,
    EndTurn,
    GiveOrder,
    PlanCards,
    ReorgSales,
    UseBossSkill,
    UseSkill,
)
from .content import COLUMNS, DISTRICTS
from .ctx import Ctx, has_presence, markers_left
from .defaults import minimal_command
from .errors import RuleViolation
from .evolve import content_of
from .jobs import completable
from .orders import attack_and_defence
from .rules import decide, plan_totals
from .sales import default_sale_pay, sale_money
from .skills import card_skill, targeted, usable
from .state import GameState
from .state import with_changes as replace
from .targeted import Choices, choice_forms

HIDDEN = "?"
PLACEHOLDER_RAID = "r23"  # a fixed card: a bot's trial of a command never reads the deck
PLACEHOLDER_NEWS = "w09"


def observe(state: GameState, seat: int) -> GameState:
    """What ``seat`` may know, as a state the rules can decide on."""
    players = []
    for p in state.players:
        if p.seat == seat:
            players.append(replace(p, deck=tuple(sorted(p.deck))))
        else:
            players.append(replace(p, hand=(HIDDEN,) * len(p.hand), deck=(HIDDEN,) * len(p.deck),
                                   jobs=(HIDDEN,) * len(p.jobs), money=0))  # fmt: skip
    news = state.news_deck
    offered = state.offered if state.seat == seat else (HIDDEN,) * len(state.offered)
    return replace(
        state,
        players=tuple(players),
        seed="observed",
        stacked=None,
        low_deck=(HIDDEN,) * len(state.low_deck),
        high_deck=(HIDDEN,) * len(state.high_deck),
        job_deck=(HIDDEN,) * len(state.job_deck),
        dealer_deck=(HIDDEN,) * len(state.dealer_deck),
        raid_deck=(PLACEHOLDER_RAID,) * len(state.raid_deck),
        news_deck=(PLACEHOLDER_NEWS,) * (len(news) - 1) + news[-1:],
        offered=offered,
    )


def accepted(state: GameState, seat: int, command: Command) -> bool:
    try:
        decide(state, seat, command)
    except (RuleViolation, KeyError):
        return False
    return True


class MinimalBot:
    def choose(self, state: GameState, seat: int) -> Command:
        return minimal_command(observe(state, seat), seat)


class HeuristicBot:
    def choose(self, state: GameState, seat: int) -> Command:
        seen = observe(state, seat)
        step = seen.step
        if step == "plan":
            return self.plan(seen, seat)
        if step == "actions":
            return self.act(seen, seat)
        if step == "reorg_sales":
            return self.reorg_sales(seen, seat)
        if step == "choose" and seen.offered_deck == "dealers":
            return self.keep_dealer(seen)
        return minimal_command(seen, seat)

    def plan(self, state: GameState, seat: int) -> Command:
        p = state.players[seat]
        ctx = Ctx(state)

        def score(card: str) -> tuple[int, str]:
            m, i = plan_totals(ctx, seat, (card,))
            return (m + i + (2 if card.endswith("-boss") else 0), card)

        ranked = sorted(p.hand, key=score, reverse=True)
        count = 3 if (len(ranked) >= 3 and p.crime <= 3) else 2
        return PlanCards(tuple(ranked[:count]))

    def act(self, state: GameState, seat: int) -> Command:
        p = state.players[seat]
        ctx = Ctx(state)
        for card in p.plan:
            skill = card_skill(ctx, card)
            if card in state.skills_used or not usable(state, skill):
                continue
            if skill in ("strong_arm", "hitman") and p.crime >= 7:
                continue
            for choices in self.targets(state, seat, skill):
                command: Command = UseSkill(card, choices)
                if accepted(state, seat, command):
                    return command
        if f"{p.gang}-boss" in p.plan and state.boss_uses < 3:
            skills = content_of(state).boss_skills[p.gang]
            for index in self.boss_order(state, seat):
                for choices in self.targets(state, seat, skills[index - 1]):
                    command = UseBossSkill(index, choices)
                    if accepted(state, seat, command):
                        return command
        for job in completable(state, seat):
            command = CompleteJob(job)
            if accepted(state, seat, command):
                return command
        if not state.order_used:
            for order in self.orders(state, seat):
                if accepted(state, seat, order):
                    return order
        return EndTurn()

    def boss_order(self, state: GameState, seat: int) -> list[int]:
        p = state.players[seat]
        skills = content_of(state).boss_skills[p.gang]
        rank = {
            "alcohol1": 0,
            "money2": 1,
            "per_den1": 2,
            "muscle1": 3,
            "influence1": 3,
            "crime_down1": 0 if p.crime >= 5 else 5,
            "free1": 1 if p.at("prison") else 6,
            # rules 2: one marker a turn (three a turn made the Outfit win 3 games in 4)
            # rules 2: one marker a turn ($3 of final income each; three a turn made the
            # Outfit win 3 games in 4, never one left the Black Wolves far ahead)
            "add_business": 0 if state.boss_uses == 0 else 9,
            "move_vehicle": 7,
            "move_thug": 8,
        }
        return sorted(range(1, 5), key=lambda i: rank.get(skills[i - 1], 9))

    def targets(self, state: GameState, seat: int, skill: str | None) -> list[Choices | None]:
        """The choices to try for ``skill``, best first: [None] for a skill without a
        target; for a targeted one (rules 2) its legal targets ranked by ``target_score``
        (nothing named last, where that is allowed)."""
        if skill is None or not targeted(skill) or not usable(state, skill):
            return [None]  # no target, or rules 1 (where decide refuses it)
        forms = choice_forms(state, seat, skill)
        return sorted(forms, key=lambda ch: -self.target_score(state, seat, ch))

    def target_score(self, state: GameState, seat: int, choices: Choices | None) -> int:
        """A rough worth: a sale's money, a business marker, a piece moving where the seat
        can take or sell, a rival's thug sent home; nothing named is worth nothing."""
        if choices is None:
            return 0
        tables = content_of(state)
        if "sale" in choices:
            return sale_money(state, seat, choices["sale"]["tile"])
        if "tile" in choices:
            return 5 - len(state.tile(choices["tile"]).businesses)
        if "target" in choices:
            return 3
        if choices.get("place_truck"):
            return 4
        district = choices.get("to")
        if "moves" in choices:
            move = choices["moves"][0]
            if "good" in move:
                return -1  # the Warehouse Keeper: only if nothing else
            district = move["to"]
            if move["what"] == "truck":  # a truck lowers the goods of a sale there
                return 2 * sum(1 for t in state.controlled(seat)
                               if tables.tiles[t.id].district == district)  # fmt: skip
        neutral = sum(1 for t, c in tables.tiles.items()
                      if c.district == district and state.tile(t).owner is None)  # fmt: skip
        return 2 * neutral - (2 if state.police.count(str(district)) else 0) + 1

    def orders(self, state: GameState, seat: int) -> list[Command]:
        p = state.players[seat]
        tables = content_of(state)
        out: list[Command] = []
        if p.crime >= 8:
            out.append(GiveOrder("lower_crime"))
        sales = [t.id for t in state.controlled(seat)
                 if default_sale_pay(state, seat, t.id) is not None]  # fmt: skip
        sales.sort(key=lambda t: -sale_money(state, seat, t))
        sales = sales[: state.influence]
        if sales and sum(sale_money(state, seat, t) for t in sales) >= 8:
            out.append(GiveOrder("sell", {"sales": tuple({"tile": t} for t in sales)}))
        targets = []
        if markers_left(state, seat) > 0:
            for tid, card in tables.tiles.items():
                if state.tile(tid).owner == seat:
                    continue
                if not has_presence(state, seat, card.district, markers=False):
                    continue
                attack, defence = attack_and_defence(state, seat, tid)
                if attack > defence:
                    targets.append((card.money, tid))
        for _, tid in sorted(targets, reverse=True):
            out.append(GiveOrder("take", {"tile": tid}))
        for src in DISTRICTS:
            if p.at(src) >= 2:
                for dst in tables.districts[src].adjacent:
                    if any(
                        state.tile(t).owner is None and c.district == dst
                        for t, c in tables.tiles.items()
                    ) and not p.at(dst):
                        out.append(GiveOrder("move", {"moves": (
                            {"what": "thug", "from": src, "to": dst},)}))  # fmt: skip
        for index in range(len(p.rows)):
            out.append(GiveOrder("buy", {"row": index}))
        adds = [t.id for t in state.controlled(seat) if len(t.businesses) < 3][: state.influence]
        if adds:
            kinds = ("speakeasy", "gambling_den", "laundry_front")
            out.append(GiveOrder("add_business", {"adds": tuple(
                {"tile": t, "type": kinds[k % 3]} for k, t in enumerate(adds))}))  # fmt: skip
        if len(p.rows) < 2:
            out.append(GiveOrder("get_dealer"))
        if p.money >= 20:
            for column in ("hand_limit", "nightclub", "dealer_support", "lawyer"):
                out.append(GiveOrder("upgrade", self.upgrade_args(state, seat, column)))
        market = [c for c in (*state.market_high, *state.market_low) if c and c != HIDDEN]
        market.sort(key=lambda c: -tables.associates[c].stars)
        for associate in market:
            out.append(GiveOrder("recruit_associate", {"associate": associate}))
        if p.at("hq") <= 1 and (p.at("safe") or p.at("slums")):
            steps = tuple(
                "safe" if k < p.at("safe") else "slums"
                for k in range(min(state.influence, p.at("safe") + p.at("slums")))
            )
            out.append(GiveOrder("recruit_thugs", {"steps": steps}))  # fmt: skip
        if len(p.jobs) < 2:
            out.append(GiveOrder("take_job"))
        if p.at("prison") >= 2:
            out.append(GiveOrder("free_thugs"))
        if p.at("hq") >= 2 and state.muscle >= 1:
            for d in DISTRICTS:
                neutral = any(
                    state.tile(t).owner is None for t, c in tables.tiles.items() if c.district == d
                )
                if neutral and has_presence(state, seat, d, markers=True):
                    out.append(GiveOrder("send_thugs", {"to": {d: 1}}))
                    break
        return out

    def upgrade_args(self, state: GameState, seat: int, column: str) -> dict[str, Any]:
        p = state.players[seat]
        tables = content_of(state)
        args: dict[str, Any] = {"column": column}
        if (p.boss + 1) in tables.hat_spaces and p.aside:
            args["hat"] = {"card": sorted(p.aside)[-1], "to": "discard"}
        mine = state.controlled(seat)
        if column == "car_dealer" and mine:
            args["district"] = tables.tiles[mine[0].id].district
        if column == "nightclub":
            open_tiles = [t.id for t in mine if not t.nightclub]
            if open_tiles:
                args["tile"] = max(open_tiles, key=lambda t: tables.tiles[t].money)
        assert column in COLUMNS  # noqa: S101
        return args

    def reorg_sales(self, state: GameState, seat: int) -> Command:
        chosen: list[dict[str, Any]] = []
        for t in state.controlled(seat):
            trial = (*chosen, {"tile": t.id})
            if accepted(state, seat, ReorgSales(tuple(trial))):
                chosen.append({"tile": t.id})
        return ReorgSales(tuple(chosen))

    def keep_dealer(self, state: GameState) -> Command:
        tables = content_of(state)
        offered = list(state.offered)
        best = max(offered, key=lambda d: sum(n for _, n in tables.dealers[d].supply))
        rest = tuple(c for c in offered if c != best)
        return Choose(best, rest)


class RandomBot:
    """Any legal option, uniformly (the platform's tests explore with it): the options of
    ``legal.candidates``, which come from the seat's observation."""

    def __init__(self, seed: str = "") -> None:
        self.seed = seed

    def choose(self, state: GameState, seat: int) -> Command:
        from .legal import candidates  # noqa: PLC0415 - legal builds on the bots

        options = candidates(state, seat)
        key = f"{self.seed}:{seat}:{state.turn}:{state.step}:{state.skills_used}:{state.boss_uses}"
        return options[Random(key).randrange(len(options))] if options else EndTurn()


def bot_for(kind: str, seed: str = "") -> MinimalBot | HeuristicBot | RandomBot:
    if kind == "random":
        return RandomBot(seed)
    return MinimalBot() if kind == "minimal" else HeuristicBot()
