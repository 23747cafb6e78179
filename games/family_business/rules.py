"""decide(state, seat, command) -> events: validates a command against the rules and returns
the events it causes, or raises ``RuleViolation``. Pure: the clock comes in as ``now``."""

from __future__ import annotations

from .cards import CARD_KIND, KIND_INFO, Category, Kind
from .commands import CloseWindow, Command, Counter, Pass, PlayCard, Resign
from .errors import RuleViolation
from .events import (
    CardPlayed,
    CounterPlayed,
    Event,
    MobsterEliminated,
    PlayerResigned,
    WindowClosed,
    WindowOpened,
    WindowPassed,
)
from .flow import Builder, check_players, check_war, end_card, start_turn
from .plays import PLAYS, mob_power_choices
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
    b = Builder(state)
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
    else:
        raise RuleViolation("bad_command", f"Unknown command {type(command).__name__}.")
    return tuple(b.events)


# --- playing a card --------------------------------------------------------------------


def _play_card(b: Builder, seat: int, cmd: PlayCard, now: int) -> None:
    state = b.state
    if state.window is not None:
        raise RuleViolation(
            "window_open", "Wait for the reaction window to close.", window=state.window.id
        )
    if seat != state.turn_seat:
        raise RuleViolation("not_your_turn", "It is not your turn.", turn=state.turn_seat)
    if cmd.card not in state.players[seat].hand:
        raise RuleViolation("card_not_in_hand", "That card is not in your hand.", card=cmd.card)
    kind = CARD_KIND[cmd.card]
    info = KIND_INFO[kind]
    discard = cmd.discard or info.category is Category.COUNTER
    rule = PLAYS[kind]
    _check_fields(cmd, frozenset() if discard else rule.uses, info.name)
    if discard:
        b.emit(CardPlayed(seat, cmd.card, kind, discard=True))
        end_card(b, seat)
        return
    rule.validate(state, seat, cmd)
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
    rule.resolve(b, play, None)
    end_card(b, seat)


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
        mobster = cmd.mobster if choices else None
    counter = CounterPlayed(window.id, seat, cmd.card, kind, mobster)
    b.emit(counter, WindowClosed(window.id, "countered"))
    PLAYS[Kind(window.kind)].resolve(b, _pending_play(window), counter)
    end_card(b, window.seat, counter_seat=seat)


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
    _resolve_uncountered(b, window, "deadline")


def _resolve_uncountered(b: Builder, window: Window, reason: str) -> None:
    b.emit(WindowClosed(window.id, reason))
    PLAYS[Kind(window.kind)].resolve(b, _pending_play(window), None)
    end_card(b, window.seat)


# --- resigning -------------------------------------------------------------------------


def _resign(b: Builder, seat: int) -> None:
    b.emit(PlayerResigned(seat))
    player = b.state.players[seat]
    for mobster in (*player.crew, *b.state.listed_of(seat)):
        b.emit(MobsterEliminated(mobster, "resign"))
    window = b.state.window
    if window is not None and window.seat == seat:
        b.emit(WindowClosed(window.id, "withdrawn"))  # the card has no effect
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
    if seat == b.state.turn_seat:
        start_turn(b, b.state.next_seat(seat))
