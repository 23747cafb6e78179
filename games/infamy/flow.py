"""The flow of a round between decisions (I-3 to I-8), and the effects shared by contacts,
jobs and schemes.

``Builder`` lets ``decide`` produce events while seeing their effect: every emitted event is
folded at once. Each ``*_next`` function runs the automatic steps until the game waits on
somebody (a ``StepStarted``) or ends.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core import Outcome, TieBreak

from .cards import (
    BOARD,
    CONTACT_GAINS,
    CONTACT_IDS,
    CONTACT_TRACK,
    FACTION_NAMES,
    FACTIONS,
    FIXER,
    INFORMANT,
    JOBS,
    LIAISON,
    PEDDLER,
    RESOURCES,
    SABOTEUR,
    SECTOR_CHIEF,
    THUG,
    TOKENS,
    WATCHDOGS,
    WIN_INFAMY,
    WIN_REPUTATION,
)
from .content import content_of
from .errors import RuleViolation
from .events import (
    AuctionOpened,
    BidPassed,
    BodyguardPassed,
    BribesRecovered,
    BribesRetrieved,
    ContactDeckShuffled,
    ContactsRevealed,
    ContactUnclaimed,
    ContactWon,
    DayNightFlipped,
    Event,
    FigureNotPlaced,
    FiguresCleared,
    Gained,
    GameEnded,
    HazardPlaced,
    HazardRemoved,
    HenchmenScored,
    JobSabotaged,
    JobsRefilled,
    PerkReached,
    ResourceStolen,
    RoundStarted,
    SchemeDeckShuffled,
    SchemePhaseStarted,
    SchemesDrawn,
    SchemeStolen,
    SectorsRevealed,
    StepStarted,
    ThugResolved,
    WatchdogMoved,
    WatchdogRemoved,
)
from .evolve import evolve
from .rng import choice, shuffled
from .state import GameState, PlayerState
from .versions import rules_of


class Builder:
    def __init__(self, state: GameState, now: int = 0) -> None:
        self.state = state
        self.events: list[Event] = []
        self.now = now  # the command's clock (ms): the steps it opens get deadlines from it

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)


def ask(b: Builder, step: str, seat: int | None) -> None:
    s = b.state
    seconds = s.sector_seconds if step == "sector" else s.turn_seconds
    b.emit(StepStarted(step, seat, b.now + seconds * 1000 if seconds else None))


# --- effects ------------------------------------------------------------------------------


def gain(b: Builder, seat: int, what: str, n: int, cause: str) -> None:
    """Gain tokens from the general supply (as many as it holds, IR-2), Infamy or
    Reputation (``rep.<faction>``)."""
    if what.startswith("rep."):
        gain_rep(b, seat, what[4:], n, cause)
        return
    if what in TOKENS:
        n = min(n, b.state.supply_of(what))
    if n > 0:
        b.emit(Gained(seat, what, n, cause))


def gain_rep(b: Builder, seat: int, faction: str, n: int, cause: str) -> None:
    """Reputation up to 5 (IR-23), lost after winning the Accomplice (IR-17); each level
    first reached grants its perk, in order (I-9.2, IR-24)."""
    s = b.state
    if s.accomplice == seat:
        return
    before = s.players[seat].rep_of(faction)
    after = min(WIN_REPUTATION, before + n)
    if after <= before:
        return
    b.emit(Gained(seat, f"rep.{faction}", after - before, cause))
    perks = content_of(s).perks[faction]
    for level in range(before + 1, after + 1):
        if level > len(perks):
            continue
        perk = perks[level - 1]
        b.emit(PerkReached(seat, faction, level))
        for what, k in perk.gains:
            gain(b, seat, what, k, f"perk.{faction}.{level}")
        if perk.draw:
            draw(b, seat, faction, 1, f"perk.{faction}.{level}")


def gain_any_resource(b: Builder, seat: int, resource: str | None, cause: str) -> None:
    """A resource of the seat's choice: it must name a type the supply still holds (IR-33)."""
    held = [r for r in RESOURCES if b.state.supply_of(r)]
    if not held:
        return
    if resource not in held:
        raise RuleViolation(
            "supply_empty" if resource in RESOURCES else "missing_choice",
            "Name a resource the general supply still holds.",
            choices=held,
        )
    gain(b, seat, resource, 1, cause)


def recover(b: Builder, seat: int, up_to: int, cause: str) -> None:
    n = min(up_to, b.state.players[seat].spent)
    if n:
        b.emit(BribesRecovered(seat, n, cause))


def draw(b: Builder, seat: int, faction: str, n: int, cause: str) -> None:
    """Draw from a faction's deck, re-forming it from its discards when empty (IR-28)."""
    got: list[str] = []
    while n > 0:
        s = b.state
        deck = s.deck_of(faction)
        if not deck:
            pile = s.scheme_discards[FACTIONS.index(faction)]
            if not pile:
                break
            label = f"schemes:{faction}:reshuffle:{s.reshuffles}"
            b.emit(SchemeDeckShuffled(faction, shuffled(pile, s.seed, label), "reshuffle"))
            continue
        take = deck[:n]
        b.emit(SchemesDrawn(seat, faction, take, cause))
        got.extend(take)
        n -= len(take)


def free_draw(b: Builder, seat: int, deck: str | None, cause: str) -> None:
    """A draw from a deck of the seat's choice (I-9.4): a deck that can give a card."""
    able = [f for f in FACTIONS if b.state.can_draw(f)]
    if not able:
        return
    if deck not in able:
        raise RuleViolation("missing_choice", "Name a scheme deck to draw from.", choices=able)
    draw(b, seat, deck, 1, cause)


def place_hazard(b: Builder, space: str | None, cause: str, *, non_faction: bool = False,
                 optional: bool = False) -> None:  # fmt: skip
    """Place a hazard on a free supply space (I-7.1, 3.8.11); nothing if none is left."""
    s = b.state
    free = s.free_supply_spaces(non_faction)
    if not s.hazards_left() or not free:
        return  # 3.8.11: nothing happens, no refusal
    if space is None:
        if optional:
            return
        raise RuleViolation("missing_choice", "Name a supply space for the hazard.",
                            choices=list(free))  # fmt: skip
    if space not in free:
        raise RuleViolation("illegal_target", "That space cannot take a hazard.",
                            choices=list(free))  # fmt: skip
    b.emit(HazardPlaced(space, cause))


def remove_hazard(b: Builder, space: str | None, cause: str, *, optional: bool = False) -> None:
    s = b.state
    if not s.hazards:
        return
    if space is None and optional:
        return
    if space not in s.hazards:
        raise RuleViolation("illegal_target", "Name a space with a hazard.",
                            choices=list(s.hazards))  # fmt: skip
    b.emit(HazardRemoved(space, cause))


def sabotage(b: Builder, jobs: tuple[str, ...], cause: str, limit: int) -> None:
    """Put available jobs at the bottom of the deck in the order given (I-9.3, 3.8.10)."""
    if len(jobs) > limit or len(set(jobs)) != len(jobs):
        raise RuleViolation("illegal_target", f"Sabotage at most {limit} different jobs.")
    for job in jobs:
        if job not in b.state.jobs:
            raise RuleViolation("illegal_target", "Only available jobs can be sabotaged.",
                                job=job, choices=list(b.state.jobs))  # fmt: skip
        b.emit(JobSabotaged(job, cause))


def move_watchdog(b: Builder, source: int | None, target: int | None, cause: str) -> None:
    s = b.state
    if source not in s.watchdogs or target not in BOARD or target == source:
        raise RuleViolation(
            "illegal_target", "Move a Watchdog on the board to a different sector.",
            watchdogs=list(s.watchdogs),
        )  # fmt: skip
    b.emit(WatchdogMoved(source, target, cause))


def steal_resource(b: Builder, thief: int, rival: int, what: str, cause: str) -> None:
    if b.state.players[rival].count(what) > 0:  # IR-27: nothing from an empty rival
        b.emit(ResourceStolen(rival, thief, what, cause))


def steal_scheme(b: Builder, thief: int, rival: int) -> None:
    s = b.state
    hand = s.players[rival].hand
    if hand:  # IR-34: a uniformly random card, seeded
        card = choice(hand, s.seed, f"steal:{s.round}:{s.steals}")
        b.emit(SchemeStolen(rival, thief, card))


def check_rival(state: GameState, seat: int, rival: int | None) -> int:
    if rival is None or rival == seat or rival not in state.in_game():
        raise RuleViolation(
            "illegal_target", "Name a rival still in the game.",
            choices=[r for r in state.in_game() if r != seat],
        )  # fmt: skip
    return rival


# --- the round ----------------------------------------------------------------------------


def start_round(b: Builder) -> None:
    s = b.state
    r = s.round + 1
    day = r % 2 == 1
    b.emit(RoundStarted(r, (r + 1) // 2, day))
    if day:  # I-4.1: a fresh contact deck each Day
        t = (r + 1) // 2
        stacked = s.stacked_contacts[t - 1] if t - 1 < len(s.stacked_contacts) else ()
        rest = [c for c in CONTACT_IDS if c not in stacked]
        order = tuple(stacked) + shuffled(rest, s.seed, f"contacts:turn:{t}")
        b.emit(ContactDeckShuffled(order))
    b.emit(ContactsRevealed(b.state.contact_deck[:CONTACT_TRACK]))
    if day:  # I-4.3, IR-37: level-3 perk income
        for seat in b.state.clockwise_from(b.state.bodyguard):
            for f in FACTIONS:
                if b.state.players[seat].rep_of(f) >= 3:
                    gain(b, seat, content_of(s).perks[f][2].income, 1, f"perk.{f}.3")
    if r > 1 and b.state.watchdogs:  # I-4.4, IR-5
        ask(b, "watchdog", b.state.bodyguard)
        return
    open_auction(b, 0)


def open_auction(b: Builder, position: int) -> None:
    s = b.state
    if position >= len(s.track):
        ask(b, "sector", None)
        return
    b.emit(AuctionOpened(position, s.track[position]))
    auction_next(b, s.bodyguard)


def can_bid(state: GameState, seat: int) -> bool:
    a = state.auction
    assert a is not None
    p = state.players[seat]
    high = a.bids[a.high] if a.high is not None else 0
    lowest = max(high + 1, a.bids[seat] + 1, 1)
    return p.available >= 1 + lowest - a.bids[seat]


def can_favor(state: GameState, seat: int) -> bool:
    a = state.auction
    assert a is not None
    p = state.players[seat]
    return a.contact != FIXER and p.favor > 0 and p.available > 0 and seat not in a.bidders


def auction_over(state: GameState) -> bool:
    a = state.auction
    assert a is not None
    others = [s for s in state.in_game() if s != a.high]
    return all(s in a.passes for s in others)


def auction_next(b: Builder, candidate: int) -> None:
    """Ask the next seat that can act, passing those that cannot (I-4.5.6), or settle."""
    for _ in range(2 * len(b.state.players) + 1):
        s = b.state
        a = s.auction
        assert a is not None
        if auction_over(s):
            settle(b)
            return
        if s.players[candidate].out or candidate == a.high:
            candidate = s.next_seat(candidate)
            continue
        if can_bid(s, candidate) or can_favor(s, candidate):
            ask(b, "auction", candidate)
            return
        b.emit(BidPassed(candidate, a.contact, True))
        candidate = s.next_seat(candidate)
    settle(b)  # unreachable: every seat passes within two laps


def settle(b: Builder) -> None:
    """I-4.5.7-8: the winner keeps a marker on the contact, takes the bodyguard and its
    reward at once (IR-7); an unclaimed contact changes nothing (IR-10)."""
    s = b.state
    a = s.auction
    assert a is not None
    if a.high is None:
        b.emit(ContactUnclaimed(a.contact, a.position))
        open_auction(b, a.position + 1)
        return
    winner = a.high
    returned = tuple((seat, n) for seat, n in enumerate(a.bids) if seat != winner and n)
    b.emit(ContactWon(winner, a.contact, a.position, returned))
    if s.bodyguard != winner:
        b.emit(BodyguardPassed(winner))
    contact = a.contact
    for what, n in CONTACT_GAINS.get(contact, ()):
        gain(b, winner, what, n, contact)
    s = b.state
    asks = (
        contact in (LIAISON, SABOTEUR, THUG)
        or (contact == PEDDLER and any(s.supply_of(r) for r in RESOURCES))
        or (contact == SECTOR_CHIEF and len(s.watchdogs) < WATCHDOGS)
        or (contact == INFORMANT and (any(s.can_draw(f) for f in FACTIONS)
                                      or s.players[winner].hand))
    )  # fmt: skip
    if asks:
        draws = contact != INFORMANT or _informant_draws(s)
        ask(b, "reward" if draws else rules_of(s).informant_discard_step, winner)
        return
    reward_done(b)


def _informant_draws(state: GameState) -> bool:
    return state.drawn < 2 and any(state.can_draw(f) for f in FACTIONS)


def informant_next(b: Builder, seat: int) -> None:
    s = b.state
    if _informant_draws(s):
        ask(b, "reward", seat)
    elif s.players[seat].hand:
        ask(b, rules_of(s).informant_discard_step, seat)
    else:
        reward_done(b)


def phase(state: GameState) -> str:
    """The step by what it awaits: its recorded name, but for the two discards, which
    3.3 names after the step they belong to (rules 2: ``reward`` for the Informant's,
    ``scheme`` for Informer Network's) and rules 1 named apart: ``discard`` and
    ``scheme_discard`` whatever the rules version."""
    step = state.step
    if step == "reward" and state.results and state.auction is None:
        if state.track[len(state.results) - 1] == INFORMANT and not _informant_draws(state):
            return "discard"
    elif step == "scheme" and state.in_play:
        return "scheme_discard"
    return step


def reward_done(b: Builder) -> None:
    open_auction(b, len(b.state.results))


# --- sector phase -------------------------------------------------------------------------


def sector_awaiting(state: GameState) -> tuple[int, ...]:
    return tuple(s for s in state.in_game() if state.choices[s] is None)


def placement_order(state: GameState) -> tuple[int, ...]:
    """I-4.7: by leftmost won contact (IR-11), then the rest clockwise from the bodyguard
    holder (IR-12)."""
    order: list[int] = []
    for seat in state.results:
        if seat is not None and seat not in order and not state.players[seat].out:
            order.append(seat)
    order.extend(s for s in state.clockwise_from(state.bodyguard) if s not in order)
    return tuple(order)


def reveal(b: Builder) -> None:
    s = b.state
    choices = tuple(
        (seat, c[0], c[1]) for seat in s.in_game() if (c := s.choices[seat]) is not None
    )
    b.emit(SectorsRevealed(choices, placement_order(s)))
    placement_next(b)


def figure_sector(state: GameState, seat: int, figure: str) -> int:
    chosen = state.choices[seat]
    assert chosen is not None
    return chosen[1] if figure == "accomplice" else chosen[0]


def payable(state: GameState, seat: int, job: str) -> bool:
    p = state.players[seat]
    return all(p.count(what) >= n for what, n in JOBS[job].requires)


def legal_spaces(state: GameState, seat: int, figure: str) -> tuple[str, ...]:
    """I-5.3: the spaces ``figure`` may take now."""
    sector = figure_sector(state, seat, figure)
    if sector in state.watchdogs and state.chief != seat:
        return ()
    out: list[str] = []
    for kind in ("supply", "hq", "job"):
        space = f"{sector}/{kind}"
        if state.figure_on(space) is not None or space in state.hazards:
            continue
        if kind == "job" and not any(
            JOBS[j].sector == sector and payable(state, seat, j) for j in state.jobs
        ):
            continue
        out.append(space)
    return tuple(out)


def pending_figures(state: GameState, seat: int) -> tuple[str, ...]:
    return tuple(f for f in state.figures_of(seat) if (seat, f) not in state.handled)


def may_forgo(state: GameState, seat: int) -> bool:
    """The Smuggler's Day option (c12, IR-16): once, for either figure."""
    return state.smuggler == seat and state.day and not state.forgone


def placement_next(b: Builder) -> None:
    """Ask the next seat in contact order with a figure to place; figures without a legal
    space are not placed (IR-14, IR-39); then the scheme phase."""
    s = b.state
    for seat in s.order:
        if s.players[seat].out:
            continue
        pending = pending_figures(s, seat)
        if not pending:
            continue
        if may_forgo(s, seat) or any(legal_spaces(s, seat, f) for f in pending):
            ask(b, "place", seat)
            return
        for figure in pending:
            sector = figure_sector(s, seat, figure)
            blocked = sector in s.watchdogs and s.chief != seat
            b.emit(FigureNotPlaced(seat, figure, "watchdog" if blocked else "no_legal_space"))
        s = b.state
    b.emit(SchemePhaseStarted(s.clockwise_from(s.bodyguard)))
    scheme_next(b)


# --- scheme phase and the end of the round ------------------------------------------------


def scheme_next(b: Builder) -> None:
    s = b.state
    for seat in s.order:
        if not s.players[seat].out and seat not in s.done:
            ask(b, "scheme", seat)
            return
    end_round(b)


def winners(state: GameState) -> tuple[int, ...]:
    """I-10.3, IR-25: the seats that win now, if any (``victory``)."""
    won = victory(state)
    return won.winners if won is not None else ()


def _class(p: PlayerState) -> str:
    if p.infamy > WIN_INFAMY:
        return f"Infamy {p.infamy}: above {WIN_INFAMY}"
    best = max(p.rep)
    if best >= WIN_REPUTATION:
        return f"Reputation {best} with {FACTION_NAMES[FACTIONS[p.rep.index(best)]]}"
    if p.infamy == WIN_INFAMY:
        return f"Infamy {WIN_INFAMY}"
    return f"none (Infamy {p.infamy}, best Reputation {best})"


def victory(state: GameState) -> Outcome | None:
    """I-10.3, IR-25: class A (i >= 16), then B (5R), then C (i == 15); tie chains per rule
    1 (A, C) and rule 2 (B), applied one criterion at a time while seats stay tied; a full
    tie is a shared win. None: nobody wins yet. Says why, comparison by comparison."""
    seats = [state.players[s] for s in state.in_game()]
    a = [p for p in seats if p.infamy > WIN_INFAMY]
    b_ = [p for p in seats if max(p.rep) >= WIN_REPUTATION]
    c = [p for p in seats if p.infamy == WIN_INFAMY and p not in b_]
    pool = a or b_ or c
    if not pool:
        return None
    criteria: list[tuple[str, Callable[[PlayerState], int]]]
    if pool is b_:
        criteria = [
            ("Infamy", lambda p: p.infamy),
            ("Total Reputation", lambda p: sum(p.rep)),
            ("Henchmen", lambda p: p.henchman),
            ("Jobs completed", lambda p: len(p.jobs)),
        ]
    else:
        criteria = [
            ("Infamy", lambda p: p.infamy),
            ("Highest Reputation with one faction", lambda p: max(p.rep)),
            ("Total Reputation", lambda p: sum(p.rep)),
            ("Henchmen", lambda p: p.henchman),
        ]
    route = (
        f"Victory: Infamy above {WIN_INFAMY} beats {WIN_REPUTATION} Reputation with a "
        f"faction, which beats Infamy {WIN_INFAMY}"
    )
    breaks = [
        TieBreak(route, tuple((p.seat, _class(p)) for p in seats), tuple(p.seat for p in pool))
    ]
    kept = pool
    for name, key in criteria:
        if len(kept) == 1:
            break
        best = max(key(p) for p in kept)
        values = tuple((p.seat, key(p)) for p in kept)
        kept = [p for p in kept if key(p) == best]
        breaks.append(TieBreak(name, values, tuple(p.seat for p in kept)))
    won = tuple(sorted(p.seat for p in kept))
    names = " and ".join(state.players[s].name for s in won)
    top = kept[0]
    if pool is a:
        why = f"on Infamy: {top.infamy}, above {WIN_INFAMY}"
    elif pool is b_:
        best = max(top.rep)
        faction = FACTION_NAMES[FACTIONS[top.rep.index(best)]]
        why = f"on Reputation: {best} with {faction}"
        rivals = [p for p in seats if p not in pool and p.infamy > top.infamy]
        if rivals:
            why += (
                f"; nobody passed {WIN_INFAMY} Infamy, so {WIN_REPUTATION} Reputation wins "
                f"over more Infamy ({', '.join(f'{p.name} had {p.infamy}' for p in rivals)})"
            )
    else:
        why = (
            f"with Infamy {WIN_INFAMY}: nobody passed it or reached {WIN_REPUTATION} "
            "Reputation with a faction"
        )
    applied = breaks[1:]
    if applied:
        why += "; tied, then " + ", then ".join(
            f"{t.criterion} ({', '.join(f'{state.players[s].name} {v}' for s, v in t.values)})"
            for t in applied
        )
    if len(won) > 1:
        summary = f"{names} share the win {why}: tied on every criterion."
        return Outcome(won, "shared", summary, tuple(breaks))
    reason = "infamy" if pool is a else "reputation" if pool is b_ else "infamy_15"
    return Outcome(won, reason, f"{names} wins {why}.", tuple(breaks))


def outcome(state: GameState) -> Outcome | None:
    """How a finished game was decided: the last seat left, or ``victory``'s reasoning."""
    if not state.over:
        return None
    if state.end_reason == "last_seat":
        name = state.players[state.winners[0]].name if state.winners else "nobody"
        gone = ", ".join(p.name for p in state.players if p.out)
        values = tuple((p.seat, "left" if p.out else "in the game") for p in state.players)
        tie = TieBreak("Still in the game", values, tuple(state.winners))
        return Outcome(
            tuple(state.winners),
            "last_seat",
            f"{name} wins as the last seat in the game ({gone} left).",
            (tie,),
        )
    return victory(state)


def end_round(b: Builder) -> None:
    s = b.state
    if not s.day:  # I-8.2
        for seat in s.clockwise_from(s.bodyguard):
            score = s.players[seat].henchman // 2
            if score:
                b.emit(HenchmenScored(seat, score))
    won = winners(b.state)  # I-8.3
    if won:
        b.emit(GameEnded(won, b.state.seed, "victory"))
        return
    if any(p.on_contacts for p in b.state.players):  # I-8.4
        b.emit(BribesRetrieved())
    if not b.state.day:  # I-8.5
        for p in b.state.players:
            if not p.out and p.spent:
                b.emit(BribesRecovered(p.seat, p.spent, "night"))
    s = b.state
    if s.chief is not None and s.watchdogs:  # c11, IR-18
        if not s.players[s.chief].out:
            ask(b, "chief_remove", s.chief)
            return
        b.emit(WatchdogRemoved(min(s.watchdogs), "c11"))  # 3.8.5
    finish_round(b)


def finish_round(b: Builder) -> None:
    if b.state.figures:
        b.emit(FiguresCleared())
    s = b.state
    need = len(s.in_game()) - len(s.jobs)  # I-8.6, IR-28
    if need > 0 and s.job_deck:
        b.emit(JobsRefilled(s.job_deck[:need]))
    b.emit(DayNightFlipped(not b.state.day))
    start_round(b)


def resigned(b: Builder, seat: int) -> None:
    """Continue the step after ``seat`` left (I-11.1, 3.8.3-5)."""
    s = b.state
    if len(s.in_game()) == 1:
        b.emit(GameEnded(s.in_game(), s.seed, "last_seat"))
        return
    if s.bodyguard == seat:
        b.emit(BodyguardPassed(s.next_seat(seat)))
        s = b.state
    step, actor = phase(s), s.actor
    if step == "watchdog" and actor == seat:
        ask(b, "watchdog", s.bodyguard)
    elif step == "auction":
        if auction_over(s):
            settle(b)
        elif actor == seat:
            auction_next(b, s.next_seat(seat))
    elif step in ("reward", "discard") and actor == seat:
        reward_done(b)
    elif step == "thug_response" and (actor == seat or s.results[-1] == seat):
        winner = s.results[-1]
        assert winner is not None and s.thug is not None
        b.emit(ThugResolved(winner, s.thug[0], False, ""))
        reward_done(b)
    elif step == "sector" and not sector_awaiting(s):
        reveal(b)
    elif step == "place" and actor == seat:
        placement_next(b)
    elif step in ("scheme", "scheme_discard") and actor == seat:
        scheme_next(b)
    elif step == "chief_remove" and actor == seat:
        b.emit(WatchdogRemoved(min(s.watchdogs), "c11"))
        finish_round(b)
