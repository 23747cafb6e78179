"""decide(state, seat, command) -> events: validates a command against the rules and returns
the events it causes, or raises ``RuleViolation``. Pure: the clock comes in as ``now``."""

from __future__ import annotations

from dataclasses import replace

from .abilities import butcher_ready, carries, cleaner_draws, unforgiving_choices
from .cards import ABILITIES, ABILITY, CARD_KIND, KIND_INFO, Category, Kind
from .commands import (
    CloseWindow,
    Command,
    Counter,
    Draw,
    EndTurn,
    Pass,
    PlayCard,
    Resign,
    Unforgiving,
    UseButcher,
)
from .errors import RuleViolation
from .events import (
    AbilityAssigned,
    AbilityUsed,
    ButcherUsed,
    CardPlayed,
    CounterPlayed,
    DiscardTaken,
    Event,
    MobsterEliminated,
    MobsterListed,
    MobsterSubstituted,
    PlayerResigned,
    WindowClosed,
    WindowOpened,
    WindowPassed,
)
from .flow import (
    Builder,
    check_players,
    check_war,
    draw_cards,
    draw_step,
    end_card,
    mid_card,
    proceed,
    resume,
    start_turn,
)
from .plays import PLAYS, PlayRule, mob_power_choices
from .revisions import revision
from .state import GameState, Window

SYSTEM = None  # the seat of commands issued by the service itself (timers)


def decide(
    state: GameState, seat: int | None, command: Command, *, now: int = 0
) -> tuple[Event, ...]:
    """The events ``command`` by ``seat`` causes in ``state`` at time ``now`` (ms)."""
    if not state.started:
        raise RuleViolation("bad_command", "The game has not started.")
    if state.over:
        raise RuleViolation("game_over", "The game is over.", winners=list(state.winners))
    b = Builder(state, now)
    if isinstance(command, CloseWindow):
        if seat is not SYSTEM:
            raise RuleViolation("system_only", "Only the system closes a window at its deadline.")
        _close_window(b, command, now)
        return tuple(b.events)
    if seat is None or not 0 <= seat < len(state.players):
        raise RuleViolation("not_a_player", "That seat is not part of this game.", seat=seat)
    if state.players[seat].out:
        raise RuleViolation("not_in_game", "This seat is out of the game.", seat=seat)
    if isinstance(command, PlayCard):
        _play_card(b, seat, command, now)
    elif isinstance(command, Counter):
        _counter(b, seat, command, now)
    elif isinstance(command, Pass):
        _pass(b, seat, command, now)
    elif isinstance(command, Resign):
        _resign(b, seat)
    elif isinstance(command, Draw | UseButcher | Unforgiving | EndTurn):
        if not state.advanced:
            raise RuleViolation("bad_command", "Only the advanced rules have this command.")
        if isinstance(command, Draw):
            _draw(b, seat, command, now)
        elif isinstance(command, UseButcher):
            _use_butcher(b, seat, command, now)
        elif isinstance(command, Unforgiving):
            _unforgiving(b, seat, command, now)
        else:
            _end_turn(b, seat, now)
    else:
        raise RuleViolation("bad_command", f"Unknown command {type(command).__name__}.")
    return tuple(b.events)


# --- playing a card --------------------------------------------------------------------


def _check_turn(state: GameState, seat: int) -> None:
    if seat != state.turn_seat:
        raise RuleViolation("not_your_turn", "It is not your turn.", turn=state.turn_seat)


def _play_card(b: Builder, seat: int, cmd: PlayCard, now: int) -> None:
    state = b.state
    rules = revision(state)
    # Whose turn first: waiting for an open window would not help another seat (version 2;
    # version 1 named the open window first).
    if rules.turn_checked_before_window:
        _check_turn(state, seat)
    extra = state.window  # SHORT-TEMPERED's decision allows one more ATTACK card
    if extra is not None and not (extra.decision == "short_tempered" and extra.seat == seat):
        raise RuleViolation(
            "window_open", "Wait for the reaction window to close.", window=extra.id
        )
    if not rules.turn_checked_before_window:
        _check_turn(state, seat)
    if cmd.card not in state.players[seat].hand:
        raise RuleViolation("card_not_in_hand", "That card is not in your hand.", card=cmd.card)
    kind = CARD_KIND[cmd.card]
    info = KIND_INFO[kind]
    discard = cmd.discard or info.category is Category.COUNTER
    rule = PLAYS[kind]
    _check_fields(cmd, frozenset() if discard else rule.uses, info.name)
    if extra is not None:
        if now >= extra.deadline:
            raise RuleViolation(
                "window_closed", "The decision's deadline has passed.", window=extra.id
            )
        if discard or info.category is not ABILITY.short_tempered_category:
            raise RuleViolation(
                "not_allowed_now",
                "SHORT-TEMPERED allows one more ATTACK card for effect, or ending the turn.",
            )
    if discard:
        b.emit(CardPlayed(seat, cmd.card, kind, discard=True))
        end_card(b, seat)
        return
    rule.validate(state, seat, cmd)
    if extra is not None:
        b.emit(WindowClosed(extra.id, "decided"))
        b.emit(AbilityUsed(seat, extra.targets[0], Kind.SHORT_TEMPERED, kind.value))
    if kind in ABILITIES:
        b.emit(AbilityAssigned(seat, cmd.card, kind, cmd.targets[0]))
        end_card(b, seat)
        return
    play = CardPlayed(seat, cmd.card, kind, False, cmd.targets, cmd.player, cmd.own)
    b.emit(play)
    eligible = _eligible(b.state, seat) if info.countered_by else ()
    if eligible:
        counters = tuple(sorted(info.countered_by))
        window_id = f"w{b.state.windows_opened + 1}"
        deadline = now + state.reaction_seconds * 1000
        b.emit(
            WindowOpened(window_id, seat, cmd.card, kind, cmd.targets, eligible, counters, deadline)
        )
        return
    celebrity = _resolve(b, rule, play, None)
    if rules.unforgiving_at_once and b.state.window is not None:
        return  # UNFORGIVING interrupted the card; its decision ends it
    end_card(b, seat, celebrity=celebrity, attack=_attack(kind))


def _attack(kind: Kind) -> bool:
    return KIND_INFO[kind].category is ABILITY.short_tempered_category


def _resolve(
    b: Builder, rule: PlayRule, play: CardPlayed, counter: CounterPlayed | None
) -> int | None:
    """Resolve a card; with the advanced rules, return the owner of a CELEBRITY that an
    opponent's card or counter has just put on the Hit List (they take the next turn)."""
    before = b.state
    start = len(b.events)
    rule.resolve(b, play, counter)
    if not before.advanced or not before.abilities:
        return None
    for event in b.events[start:]:
        if isinstance(event, MobsterListed):
            mobster = event.mobster
            by_counter = counter is not None and counter.kind == Kind.MOB_POWER
            lister = (
                counter.seat if by_counter and counter and counter.mobster == mobster else play.seat
            )
        elif isinstance(event, MobsterSubstituted) and event.replacement not in before.hit_list:
            mobster, lister = event.replacement, play.seat
        else:
            continue
        owner = b.state.owner(mobster)
        if owner != lister and carries(b.state, mobster, Kind.CELEBRITY):
            b.emit(AbilityUsed(owner, mobster, Kind.CELEBRITY, "next turn"))
            return owner
    return None


def _check_fields(cmd: PlayCard, uses: frozenset[str], name: str) -> None:
    """Refuse choices the play does not read, so nothing unchecked enters the record."""
    given = {
        "targets": bool(cmd.targets),
        "player": cmd.player is not None,
        "own": cmd.own is not None,
    }
    extra = sorted(f for f, present in given.items() if present and f not in uses)
    if extra:
        what = "a discard" if not uses else name
        raise RuleViolation("bad_command", f"{what} takes no {', '.join(extra)}.", fields=extra)


def _eligible(state: GameState, seat: int) -> tuple[int, ...]:
    """Every opponent still in the game holding at least one card may counter. Hand sizes
    are public, so this reveals nothing about what anyone holds."""
    return tuple(p.seat for p in state.players if p.seat != seat and not p.out and p.hand)


# --- the reaction window ---------------------------------------------------------------


def _open_window(state: GameState, window_id: str) -> Window:
    window = state.window
    if window is not None and window.id == window_id:
        return window
    last = state.last_window
    if _is_past_window(state, window_id):
        data: dict[str, object] = {"window": window_id}
        if last is not None and last.id == window_id:
            data.update(reason=last.reason, countered_by=last.countered_by)
        raise RuleViolation("window_closed", "That reaction window is already closed.", **data)
    raise RuleViolation("no_window", "There is no such open reaction window.", window=window_id)


def _is_past_window(state: GameState, window_id: str) -> bool:
    if not window_id.startswith("w") or not window_id[1:].isdigit():
        return False
    return 1 <= int(window_id[1:]) <= state.windows_opened


def _reacting(b: Builder, seat: int, window_id: str, now: int) -> Window:
    window = _open_window(b.state, window_id)
    if now >= window.deadline:
        raise RuleViolation(
            "window_closed",
            "The reaction window's deadline has passed.",
            window=window.id,
            reason="deadline",
        )
    if window.decision:
        raise RuleViolation("no_window", "There is no such open reaction window.", window=window.id)
    if seat in window.passed:
        raise RuleViolation("already_passed", "You passed on this window; a pass is final.")
    if seat not in window.eligible:
        raise RuleViolation("not_eligible", "You may not react in this window.", seat=seat)
    return window


def _pending_play(window: Window) -> CardPlayed:
    return CardPlayed(window.seat, window.card, window.kind, False, window.targets)


def _counter(b: Builder, seat: int, cmd: Counter, now: int) -> None:
    window = _reacting(b, seat, cmd.window, now)
    if cmd.card not in b.state.players[seat].hand:
        raise RuleViolation("card_not_in_hand", "That card is not in your hand.", card=cmd.card)
    kind = CARD_KIND[cmd.card]
    if kind not in window.counters:
        raise RuleViolation(
            "not_counterable",
            f"{KIND_INFO[kind].name} does not answer {KIND_INFO[Kind(window.kind)].name}.",
            card=cmd.card,
            counters=list(window.counters),
        )
    mobster = None
    if kind is not Kind.MOB_POWER and cmd.mobster is not None:
        raise RuleViolation("bad_command", "Only MOB POWER names a mobster.", fields=["mobster"])
    if kind is Kind.MOB_POWER:
        choices = mob_power_choices(b.state, window.seat)
        if choices and cmd.mobster not in choices:
            code = "missing_target" if cmd.mobster is None else "illegal_target"
            raise RuleViolation(
                code,
                "Name one of the attacking player's mobsters in front of them.",
                mobster=cmd.mobster,
                choices=list(choices),
            )
        if not choices and not revision(b.state).mob_power_names_only_choices:
            cmd = replace(cmd, mobster=None)  # version 1: a name was ignored
        if not choices and cmd.mobster is not None:
            raise RuleViolation(
                "illegal_target",
                "The attacking player has no mobster in front of them: MOB POWER names nobody.",
                mobster=cmd.mobster,
                choices=[],
            )
        mobster = cmd.mobster
    counter = CounterPlayed(window.id, seat, cmd.card, kind, mobster)
    b.emit(counter, WindowClosed(window.id, "countered"))
    celebrity = _resolve(b, PLAYS[Kind(window.kind)], _pending_play(window), counter)
    end_card(b, window.seat, counter_seat=seat, celebrity=celebrity)


def _pass(b: Builder, seat: int, cmd: Pass, now: int) -> None:
    window = _reacting(b, seat, cmd.window, now)
    b.emit(WindowPassed(window.id, seat))
    if not b.state.window or b.state.window.waiting_on:
        return
    _resolve_uncountered(b, window, "all_passed")


def _close_window(b: Builder, cmd: CloseWindow, now: int) -> None:
    window = _open_window(b.state, cmd.window)
    if now < window.deadline:
        raise RuleViolation(
            "window_not_expired",
            "The window's deadline has not passed.",
            deadline=window.deadline,
            now=now,
        )
    if window.decision:
        _decision_default(b, window, "deadline")
        return
    _resolve_uncountered(b, window, "deadline")


def _resolve_uncountered(b: Builder, window: Window, reason: str) -> None:
    b.emit(WindowClosed(window.id, reason))
    kind = Kind(window.kind)
    celebrity = _resolve(b, PLAYS[kind], _pending_play(window), None)
    end_card(b, window.seat, celebrity=celebrity, attack=_attack(kind))


# --- advanced rules: pending decisions ---------------------------------------------------


def _decision_default(b: Builder, window: Window, reason: str) -> None:
    """What a decision comes to when nobody takes it: the draw is from the deck, UNFORGIVING
    has no effect, SHORT-TEMPERED's turn ends."""
    b.emit(WindowClosed(window.id, reason))
    if window.decision == "draw":
        draw_cards(b, window.seat, window.count)
        resume(b, window.then)
    elif window.decision == "unforgiving":
        proceed(b, window.then)
    else:
        start_turn(b, b.state.next_seat(window.seat))


def _deciding(
    b: Builder, seat: int, decision: str, now: int, window_id: str | None = None
) -> Window:
    window = b.state.window
    if window_id is not None:
        window = _open_window(b.state, window_id)
    if window is None or window.decision != decision or window.seat != seat:
        raise RuleViolation("no_decision", "You have no such pending decision.", decision=decision)
    if now >= window.deadline:
        raise RuleViolation(
            "window_closed",
            "The decision's deadline has passed.",
            window=window.id,
            reason="deadline",
        )
    return window


def _draw(b: Builder, seat: int, cmd: Draw, now: int) -> None:
    window = _deciding(b, seat, "draw", now)
    if cmd.source not in ("deck", "discard"):
        raise RuleViolation("bad_command", "Draw from 'deck' or 'discard'.", source=cmd.source)
    per_card = window.count > 0 and cleaner_draws(b.state, seat) is not None
    if cmd.source == "discard" and not per_card:
        raise RuleViolation(
            "not_allowed_now",
            "Only CRIME SCENE CLEANER draws from the discard pile, while it holds cards.",
        )
    b.emit(WindowClosed(window.id, "decided"))
    if not per_card:
        draw_cards(b, seat, window.count)
    else:
        if cmd.source == "discard":
            b.emit(DiscardTaken(seat, b.state.discard[-1]))
        else:
            draw_cards(b, seat, 1)
        if window.count > 1:
            draw_step(b, seat, window.count - 1, offer_butcher=True)
            return
    resume(b, window.then)


def _use_butcher(b: Builder, seat: int, cmd: UseButcher, now: int) -> None:
    state = b.state
    window = state.window
    if window is not None:
        window = _deciding(b, seat, "draw", now)
    elif seat != state.turn_seat:
        raise RuleViolation("not_your_turn", "It is not your turn.", turn=state.turn_seat)
    mobster = butcher_ready(state, seat)
    if mobster is None:
        raise RuleViolation("no_ability", "You have no BUTCHER to use this turn.")
    hand = state.players[seat].hand
    if not cmd.cards or len(set(cmd.cards)) != len(cmd.cards):
        raise RuleViolation("bad_command", "Name one or more different cards to discard.")
    missing = [c for c in cmd.cards if c not in hand]
    if missing:
        raise RuleViolation("card_not_in_hand", "That card is not in your hand.", card=missing[0])
    count = 0
    if window is not None:
        b.emit(WindowClosed(window.id, "decided"))
        count = window.count
    b.emit(ButcherUsed(seat, mobster, cmd.cards))
    draw_step(b, seat, count + len(cmd.cards), offer_butcher=False)


def _unforgiving(b: Builder, seat: int, cmd: Unforgiving, now: int) -> None:
    window = _deciding(b, seat, "unforgiving", now, cmd.window)
    if cmd.mobster is not None and cmd.mobster not in unforgiving_choices(b.state):
        raise RuleViolation(
            "illegal_target",
            "UNFORGIVING names a mobster in play that is not on the Hit List.",
            mobster=cmd.mobster,
        )
    b.emit(WindowClosed(window.id, "decided"))
    if cmd.mobster is not None:
        b.emit(MobsterListed(cmd.mobster, len(b.state.hit_list)))
        b.emit(AbilityUsed(seat, window.targets[0], Kind.UNFORGIVING, cmd.mobster))
        if not mid_card(window.then):  # in a card, the checks wait for its end
            check_war(b)
    proceed(b, window.then)


def _end_turn(b: Builder, seat: int, now: int) -> None:
    window = _deciding(b, seat, "short_tempered", now)
    b.emit(WindowClosed(window.id, "decided"))
    start_turn(b, b.state.next_seat(seat))


# --- resigning -------------------------------------------------------------------------


def _resign(b: Builder, seat: int) -> None:
    b.emit(PlayerResigned(seat))
    player = b.state.players[seat]
    for mobster in (*player.crew, *b.state.listed_of(seat)):
        b.emit(MobsterEliminated(mobster, "resign"))
    window = b.state.window
    withdrawn = None
    if window is not None and window.seat == seat:
        b.emit(WindowClosed(window.id, "withdrawn"))  # the card has no effect
        withdrawn = window
    if check_players(b):
        return
    # The resigner's listed mobsters may have emptied the Hit List: the war ends at once,
    # even while another player's card waits in its window.
    check_war(b)
    window = b.state.window
    if window is not None:
        if not window.waiting_on:  # the resigner was the last seat it waited for
            _resolve_uncountered(b, window, "all_passed")
        return
    if withdrawn is not None and withdrawn.decision == "unforgiving":
        proceed(b, withdrawn.then)  # play resumes where the decision interrupted it
    elif seat == b.state.turn_seat:
        start_turn(b, b.state.next_seat(seat))
