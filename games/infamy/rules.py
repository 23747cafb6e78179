"""decide(state, seat, command) -> events: validates a command against the rules and returns
the events it causes, or raises ``RuleViolation`` (and then nothing happened). Pure: the
clock comes in as ``now``.

Refusal precedence (3.8.15): ``game_over``, then ``not_your_turn`` (the seat is not
awaited), then ``not_allowed_now`` (a command of another step), then the specific reason.
"""

from __future__ import annotations

from .cards import (
    BOARD,
    FACTIONS,
    FIXER,
    INFORMANT,
    JOBS,
    LIAISON,
    PEDDLER,
    RESOURCES,
    SABOTEUR,
    SCHEMES,
    SECTOR_CHIEF,
    SMUGGLER,
    THUG,
    WATCHDOGS,
)
from .commands import (
    Bid,
    ChooseSector,
    Command,
    Discard,
    Forgo,
    MoveWatchdog,
    Pass,
    Place,
    PlayScheme,
    RemoveWatchdog,
    Resign,
    Reward,
    ThugResponse,
    Timeout,
    UseFavor,
)
from .content import content_of
from .errors import RuleViolation
from .events import (
    BidPassed,
    BidPlaced,
    BribesSpent,
    Event,
    FavorUsed,
    FigurePlaced,
    JobCompleted,
    Lost,
    PlacementForgone,
    PlayerResigned,
    SchemeDiscarded,
    SchemePlayed,
    SchemeStepEnded,
    SectorChosen,
    ThugAsked,
    ThugResolved,
    WatchdogPlaced,
    WatchdogRemoved,
)
from .flow import (
    Builder,
    ask,
    auction_next,
    check_rival,
    draw,
    figure_sector,
    finish_round,
    free_draw,
    gain,
    gain_any_resource,
    gain_rep,
    informant_next,
    may_forgo,
    move_watchdog,
    open_auction,
    payable,
    pending_figures,
    phase,
    place_hazard,
    placement_next,
    recover,
    remove_hazard,
    resigned,
    reveal,
    reward_done,
    sabotage,
    scheme_next,
    sector_awaiting,
    settle,
    steal_resource,
)
from .schemes import INFORMER_NETWORK, scheme_rule
from .state import GameState
from .versions import rules_of

SYSTEM = None  # the seat of commands issued by the service itself (timers)

# By ``flow.phase``: the step, with its discards told apart (3.3 names them ``reward`` and
# ``scheme`` from rules 2; a command of the other half of the step is ``not_allowed_now``).
STEP_COMMANDS: dict[str, tuple[type, ...]] = {
    "watchdog": (MoveWatchdog,),
    "auction": (Bid, UseFavor, Pass),
    "reward": (Reward,),
    "discard": (Discard,),
    "thug_response": (ThugResponse,),
    "sector": (ChooseSector,),
    "place": (Place, Forgo),
    "scheme": (PlayScheme, Pass),
    "scheme_discard": (Discard,),
    "chief_remove": (RemoveWatchdog,),
}


def awaiting(state: GameState) -> tuple[int, ...]:
    """The seats whose decision the game waits for (several in the sealed sector step)."""
    if state.over or not state.started:
        return ()
    if state.step == "sector":
        return sector_awaiting(state)
    return (state.actor,) if state.actor is not None else ()


def decide(
    state: GameState, seat: int | None, command: Command, *, now: int = 0
) -> tuple[Event, ...]:
    """The events ``command`` by ``seat`` causes in ``state`` at time ``now`` (ms)."""
    if not state.started:
        raise RuleViolation("bad_command", "The game has not started.")
    if state.over:
        raise RuleViolation("game_over", "The game is over.", winners=list(state.winners))
    b = Builder(state, now)
    if isinstance(command, Timeout):
        if seat is not SYSTEM:
            raise RuleViolation("system_only", "Only the system plays a step's timeout.")
        _timeout(b, command)
        return tuple(b.events)
    if seat is None or not 0 <= seat < len(state.players):
        raise RuleViolation("not_a_player", "That seat is not part of this game.", seat=seat)
    if state.players[seat].out:
        raise RuleViolation("not_in_game", "This seat has resigned.", seat=seat)
    if isinstance(command, Resign):
        b.emit(PlayerResigned(seat))
        resigned(b, seat)
        return tuple(b.events)
    if seat not in awaiting(state):
        if state.step == "sector" and isinstance(command, ChooseSector):
            raise RuleViolation("already_chosen", "Your sector card is already committed.")
        raise RuleViolation("not_your_turn", "The game is not waiting for this seat.",
                            awaiting=list(awaiting(state)))  # fmt: skip
    if not isinstance(command, STEP_COMMANDS.get(phase(state), ())):
        raise RuleViolation("not_allowed_now", f"The {state.step} step does not take this.",
                            step=state.step)  # fmt: skip
    apply(b, seat, command)
    return tuple(b.events)


def apply(b: Builder, seat: int, command: Command) -> None:
    """Validate and resolve an awaited seat's command of the current step."""
    if isinstance(command, MoveWatchdog):
        move_watchdog(b, command.source, command.target, "I-4.4")
        open_auction(b, 0)
    elif isinstance(command, Bid):
        _bid(b, seat, command)
    elif isinstance(command, UseFavor):
        _favor(b, seat)
    elif isinstance(command, Pass):
        _pass(b, seat)
    elif isinstance(command, Reward):
        _reward(b, seat, command)
    elif isinstance(command, Discard):
        _discard(b, seat, command)
    elif isinstance(command, ThugResponse):
        _thug_response(b, seat, command)
    elif isinstance(command, ChooseSector):
        _choose_sector(b, seat, command)
    elif isinstance(command, Place):
        _place(b, seat, command)
    elif isinstance(command, Forgo):
        _forgo(b, seat, command)
    elif isinstance(command, PlayScheme):
        _play_scheme(b, seat, command)
    elif isinstance(command, RemoveWatchdog):
        if command.sector not in b.state.watchdogs:
            raise RuleViolation("illegal_target", "Name a sector with a Watchdog.",
                                choices=sorted(set(b.state.watchdogs)))  # fmt: skip
        b.emit(WatchdogRemoved(command.sector, "c11"))
        finish_round(b)
    else:  # pragma: no cover - STEP_COMMANDS admits nothing else
        raise RuleViolation("bad_command", f"Unknown command {type(command).__name__}.")


def _timeout(b: Builder, command: Timeout) -> None:
    from .defaults import minimal_command

    s = b.state
    if s.deadline is None:
        raise RuleViolation("not_allowed_now", "This step has no deadline.")
    if b.now < s.deadline:
        raise RuleViolation("step_not_expired", "The step's deadline has not passed.",
                            deadline=s.deadline)  # fmt: skip
    targets = awaiting(s) if command.seat is None else (command.seat,)
    if command.seat is not None and command.seat not in awaiting(s):
        raise RuleViolation("not_your_turn", "That seat is not awaited.")
    key = s.steps
    for seat in targets:
        if b.state.steps != key or seat not in awaiting(b.state):
            continue
        apply(b, seat, minimal_command(b.state, seat))


# --- contact phase ------------------------------------------------------------------------


def _bid(b: Builder, seat: int, cmd: Bid) -> None:
    a = b.state.auction
    assert a is not None
    own = a.bids[seat]
    high = a.bids[a.high] if a.high is not None else 0
    lowest = max(1, high + 1, own + 1)
    if isinstance(cmd.total, bool) or not isinstance(cmd.total, int) or cmd.total < lowest:
        raise RuleViolation("bid_too_low", f"Bid a total of at least {lowest}.", minimum=lowest)
    available = b.state.players[seat].available
    if available < 1 + cmd.total - own:
        raise RuleViolation(
            "not_enough_bribes", "The expense and the bid need more available bribes.",
            maximum=own + available - 1,
        )  # fmt: skip
    b.emit(BidPlaced(seat, a.contact, cmd.total))
    auction_next(b, b.state.next_seat(seat))


def _favor(b: Builder, seat: int) -> None:
    a = b.state.auction
    assert a is not None
    p = b.state.players[seat]
    if not p.favor:
        raise RuleViolation("no_favor", "This seat holds no favor.")
    if a.contact == FIXER or seat in a.bidders:
        raise RuleViolation("favor_not_allowed", "A favor only as the first bid, never on "
                            "the Fixer.")  # fmt: skip
    if not p.available:
        raise RuleViolation("cannot_pay", "A favor still needs an available bribe for the "
                            "expense.")  # fmt: skip
    b.emit(FavorUsed(seat, a.contact))
    settle(b)


def _pass(b: Builder, seat: int) -> None:
    s = b.state
    if s.step == "auction":
        assert s.auction is not None
        b.emit(BidPassed(seat, s.auction.contact, False))
        auction_next(b, s.next_seat(seat))
    else:
        b.emit(SchemeStepEnded(seat, True))
        scheme_next(b)


def _reward(b: Builder, seat: int, cmd: Reward) -> None:
    s = b.state
    contact = s.track[len(s.results) - 1]
    if contact == LIAISON:
        if cmd.choice == "infamy":
            gain(b, seat, "infamy", 2, contact)
        elif cmd.choice == "rep" and s.accomplice != seat:
            if cmd.faction not in FACTIONS:
                raise RuleViolation("illegal_target", "Name a faction.", choices=list(FACTIONS))
            gain_rep(b, seat, cmd.faction, 1, contact)
        else:
            allowed = ["infamy"] if s.accomplice == seat else ["infamy", "rep"]
            raise RuleViolation("illegal_target", "Choose 2 Infamy or 1 Reputation (IR-17: "
                                "only Infamy after the Accomplice).", choices=allowed)  # fmt: skip
    elif contact == PEDDLER:
        gain_any_resource(b, seat, cmd.resource, contact)
    elif contact == INFORMANT:
        free_draw(b, seat, cmd.deck, contact)
        informant_next(b, seat)
        return
    elif contact == SABOTEUR:  # both parts optional (IR-36)
        sabotage(b, () if cmd.job is None else (cmd.job,), contact, 1)
        place_hazard(b, cmd.hazard, contact, non_faction=True, optional=True)
    elif contact == SECTOR_CHIEF:
        if cmd.sector not in BOARD or len(s.watchdogs) >= WATCHDOGS:
            raise RuleViolation("illegal_target", "Name a sector (1-6).", choices=list(BOARD))
        b.emit(WatchdogPlaced(cmd.sector, contact))
    elif contact == THUG and cmd.rival is not None:
        rival = check_rival(s, seat, cmd.rival)
        if cmd.resource not in RESOURCES:
            raise RuleViolation("missing_choice", "Name a resource.", choices=list(RESOURCES))
        if s.players[rival].count(cmd.resource):
            b.emit(ThugAsked(seat, rival, cmd.resource))
            ask(b, "thug_response", rival)
            return
        b.emit(ThugResolved(seat, rival, False, ""))  # it has none: not asked (IR-22)
    reward_done(b)


def _discard(b: Builder, seat: int, cmd: Discard) -> None:
    s = b.state
    if cmd.card not in s.players[seat].hand:
        raise RuleViolation("card_not_in_hand", "That scheme is not in your hand.")
    informant = phase(s) == "discard"
    b.emit(SchemeDiscarded(seat, cmd.card, INFORMANT if informant else "scheme"))
    if informant:
        reward_done(b)
    else:
        _after_scheme(b, seat)


def _thug_response(b: Builder, seat: int, cmd: ThugResponse) -> None:
    s = b.state
    winner = s.results[-1]
    assert winner is not None and s.thug is not None
    _, resource = s.thug
    if cmd.cancel:
        if s.players[seat].available < 3:  # IR-22
            raise RuleViolation("cannot_cancel", "Cancelling needs 3 available bribes.")
        b.emit(BribesSpent(seat, 3, THUG), ThugResolved(winner, seat, True, resource))
    else:
        steal_resource(b, winner, seat, resource, THUG)
        b.emit(ThugResolved(winner, seat, False, resource))
    reward_done(b)


# --- sector phase -------------------------------------------------------------------------


def _sector_ok(b: Builder, seat: int, sector: object, code: str) -> int:
    s = b.state
    if isinstance(sector, bool) or sector not in BOARD:
        raise RuleViolation(code, "Name a sector from 1 to 6.")
    assert isinstance(sector, int)
    if sector in s.watchdogs and s.chief != seat:  # IR-13, 3.3: illegal_target
        raise RuleViolation("illegal_target", "A Watchdog guards that sector.",
                            reason="watchdog_sector", watchdogs=sorted(set(s.watchdogs)))  # fmt: skip
    return sector


def _choose_sector(b: Builder, seat: int, cmd: ChooseSector) -> None:
    s = b.state
    sector = _sector_ok(b, seat, cmd.sector, "illegal_target")
    accomplice = 0
    if s.accomplice == seat:
        if cmd.accomplice is None:
            raise RuleViolation("bad_accomplice", "Commit the accomplice's sector too.")
        accomplice = _sector_ok(b, seat, cmd.accomplice, "bad_accomplice")
    elif cmd.accomplice is not None:
        raise RuleViolation("bad_accomplice", "Only the Accomplice's winner commits a second "
                            "card.")  # fmt: skip
    b.emit(SectorChosen(seat, sector, accomplice))
    if not sector_awaiting(b.state):
        reveal(b)


def _place(b: Builder, seat: int, cmd: Place) -> None:
    s = b.state
    if cmd.figure not in s.figures_of(seat):
        raise RuleViolation("illegal_target", "Name your figure: own (or accomplice).")
    if cmd.figure not in pending_figures(s, seat):
        raise RuleViolation("figure_done", "That figure is done this round.")
    if cmd.space not in ("job", "hq", "supply"):
        raise RuleViolation("illegal_target", "The space is job, hq or supply.")
    sector = figure_sector(s, seat, cmd.figure)
    space = f"{sector}/{cmd.space}"
    if sector in s.watchdogs and s.chief != seat:
        raise RuleViolation("illegal_target", "A Watchdog arrived in that sector (IR-39).",
                            reason="watchdog_sector")  # fmt: skip
    if s.figure_on(space) is not None:
        raise RuleViolation("space_taken", "Another figure is on that space.", space=space)
    if space in s.hazards:
        raise RuleViolation("hazard_on_space", "A hazard lies on that space.", space=space)
    if cmd.space == "job":
        _check_job(s, seat, sector, cmd)
    b.emit(FigurePlaced(seat, cmd.figure, space))
    times = 2 if s.smuggler == seat and not s.day else 1  # Smuggler, Night (IR-15)
    if cmd.space == "supply":
        for _ in range(times):
            _supply_effect(b, seat, sector)
    elif cmd.space == "hq":
        for _ in range(times):
            faction = BOARD[sector].hq
            if b.state.players[seat].rep_of(faction) == 0:
                gain_rep(b, seat, faction, 1, "hq")
            else:
                draw(b, seat, faction, 1, "hq")  # a named draw: nothing if empty (I-9.4)
    else:
        _complete_job(b, seat, cmd)
    placement_next(b)


def _supply_effect(b: Builder, seat: int, sector: int) -> None:
    kind = content_of(b.state).board[sector].supply
    if kind == "special":  # sector 2 (I-5.4)
        if b.state.day:
            recover(b, seat, 3, "sector2")
        else:
            gain(b, seat, "infamy", 1, "sector2")
    else:
        gain(b, seat, kind, 1, "supply")


def _check_job(s: GameState, seat: int, sector: int, cmd: Place) -> None:
    here = [j for j in s.jobs if JOBS[j].sector == sector]
    if cmd.job not in here:
        raise RuleViolation("illegal_target", "Name an available job of this sector.",
                            choices=here)  # fmt: skip
    if not payable(s, seat, cmd.job):
        raise RuleViolation("cannot_pay", "You cannot pay this job's requirements.")
    job = JOBS[cmd.job]
    if cmd.faction not in job.factions and not (job.rep == 0 and cmd.faction is None):
        raise RuleViolation("wrong_faction", "Name a faction on the job.",
                            choices=list(job.factions))  # fmt: skip


def _complete_job(b: Builder, seat: int, cmd: Place) -> None:
    assert cmd.job is not None
    job = content_of(b.state).jobs[cmd.job]
    faction = cmd.faction or job.factions[0]
    b.emit(JobCompleted(seat, job.id, job.requires, faction))
    c = cmd.choices
    reward = job.reward
    if reward in ("henchman", "compound"):
        gain(b, seat, reward, 1, job.id)
    elif reward == "draw":
        free_draw(b, seat, c.get("deck"), job.id)
    elif reward == "remove_hazard":
        remove_hazard(b, c.get("hazard"), job.id)
    elif reward == "sabotage":
        sabotage(b, () if c.get("sabotage") is None else (c["sabotage"],), job.id, 1)
    elif reward in ("recover1", "recover2"):
        recover(b, seat, int(reward[-1]), job.id)
    elif reward == "hazard":
        place_hazard(b, c.get("hazard"), job.id)
    elif reward == "move_watchdog":
        move_watchdog(b, c.get("from"), c.get("to"), job.id)
    gain(b, seat, "infamy", job.infamy, job.id)
    gain_rep(b, seat, faction, job.rep, job.id)


def _forgo(b: Builder, seat: int, cmd: Forgo) -> None:
    s = b.state
    if not may_forgo(s, seat):
        raise RuleViolation("no_smuggler", "Only the Smuggler's winner, once, by Day.")
    if cmd.figure not in pending_figures(s, seat):
        raise RuleViolation("figure_done", "That figure is done this round.")
    b.emit(PlacementForgone(seat, cmd.figure))
    gain_any_resource(b, seat, cmd.resource, SMUGGLER)
    free_draw(b, seat, cmd.deck, SMUGGLER)
    placement_next(b)


# --- scheme phase -------------------------------------------------------------------------


def _play_scheme(b: Builder, seat: int, cmd: PlayScheme) -> None:
    s = b.state
    if cmd.card not in s.players[seat].hand:
        raise RuleViolation("card_not_in_hand", "That scheme is not in your hand.")
    design = SCHEMES[cmd.card]
    if design.round != "any" and (design.round == "day") != s.day:  # IR-29, 3.3
        raise RuleViolation("not_allowed_now", f"{design.name} is played only by {design.round}.",
                            reason="wrong_round", round=design.round)  # fmt: skip
    rule = scheme_rule(s, cmd.card)
    p = s.players[seat]
    if any(p.count(what) < n for what, n in rule.pay):  # IR-27
        raise RuleViolation("cannot_pay", f"{design.name} needs a payment you cannot make.")
    if not isinstance(cmd.choices, dict):
        raise RuleViolation("bad_command", "'choices' is an object.")
    b.emit(SchemePlayed(seat, cmd.card, dict(cmd.choices)))
    for what, n in rule.pay:
        b.emit(Lost(seat, what, n, cmd.card))
    rule.resolve(b, seat, cmd.choices)
    if (design.faction, design.number) == INFORMER_NETWORK and b.state.players[seat].hand:
        ask(b, rules_of(b.state).scheme_discard_step, seat)
        return
    _after_scheme(b, seat)


def _after_scheme(b: Builder, seat: int) -> None:
    if b.state.in_play:  # rules 2: resolved, then discarded (I-8.1)
        b.emit(SchemeDiscarded(seat, b.state.in_play, "resolved"))
    s = b.state
    if s.informant == seat and s.played == 1 and s.players[seat].hand:  # IR-26
        ask(b, "scheme", seat)
        return
    b.emit(SchemeStepEnded(seat, False))
    scheme_next(b)
