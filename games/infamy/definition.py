"""The pure functions the service needs from a game (spec section 2, G-1 to G-16), in one
place for the platform step that registers Infamy in ``games/core.py``.

Nothing here reads a clock or does I/O: deadlines come from ``now`` passed to ``decide``.
"""

from __future__ import annotations

from typing import Any

from .bots import BOTS, HeuristicBot, RandomBot, decision_rng
from .codec import encode_command
from .defaults import minimal_command
from .errors import CODES, HTTP_STATUS, http_status
from .events import Event
from .rules import awaiting
from .setup import MAX_PLAYERS, MIN_PLAYERS, Options, setup_events, validate_options
from .state import GameState
from .view import catalogue, reveals, step_key

__all__ = [
    "CODES",
    "HTTP_STATUS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TIMEOUT_POLICIES",
    "bot_command",
    "catalogue",
    "http_status",
    "open_window",
    "reveals",
    "service_bots",
    "setup_from_started",
    "start",
    "status",
    "step_key",
    "timeout_command",
    "undo_blocked",
    "validate_options",
]

TIMEOUT_POLICIES = ("minimal", "bot")


def status(state: GameState) -> dict[str, Any]:
    """Over or not, the winners, who is awaited and each awaited seat's deadline (ms since
    the epoch, or None when the engine sets none for this step)."""
    waiting = awaiting(state)
    return {
        "over": state.over,
        "winners": list(state.winners),
        "awaiting": list(waiting),
        "deadlines": {seat: state.deadline for seat in waiting},
        "step": state.step,
        "step_key": step_key(state),
    }


def timeout_command(state: GameState, seat: int, policy: str = "minimal") -> dict[str, Any] | None:
    """The command the system plays for ``seat`` when its time runs out (G-6), as JSON:
    ``minimal`` is I-11.4's documented default, ``bot`` the heuristic bot's choice (from
    the seat's observation). None when the seat is not awaited."""
    if seat not in awaiting(state):
        return None
    if policy == "minimal":
        return encode_command(minimal_command(state, seat))
    if policy == "bot":
        return bot_command(state, seat, "heuristic", f"timeout:{step_key(state)}")
    raise ValueError(f"unknown timeout policy {policy!r}; known: {', '.join(TIMEOUT_POLICIES)}")


def bot_command(state: GameState, seat: int, kind: str, bot_seed: str) -> dict[str, Any]:
    """A service bot's command for an awaited seat, deterministic per decision point."""
    bot = RandomBot() if kind == "random" else HeuristicBot()
    return encode_command(bot.choose(state, seat, decision_rng(bot_seed, state, seat)))


def service_bots() -> dict[str, Any]:
    """The bots the service may seat, by name (G-11: bot kinds come from the definition)."""
    return dict(BOTS)


def open_window(state: GameState) -> None:
    """Infamy opens no reaction windows (IR-21, G-7)."""
    return None


def start(names: list[str], options: dict[str, Any] | None, seed: str) -> tuple[Event, ...]:
    """G-2: the events that start a table with ``options`` (validated, ``bad_options``)."""
    return setup_events(names, validate_options(options, len(names)), seed)


def setup_from_started(started: dict[str, Any], seed: str) -> tuple[Event, ...]:
    """G-2: re-derive the setup from a recorded ``GameStarted`` payload (offline verify)."""
    options = Options(
        colours=tuple(started["colours"]),
        sector_seconds=started["sector_seconds"],
        turn_seconds=started["turn_seconds"],
        stacked=started.get("stacked") or {},
    )
    return setup_events(
        list(started["names"]), options, seed, rules_version=started["rules_version"],
        content_version=started["content_version"],
    )  # fmt: skip


def undo_blocked(events: list[Event], seat: int) -> bool:
    """G-5: whether ``seat`` may not undo a command whose events are ``events`` (any reveal
    to all, or to the undoing seat)."""
    for event in events:
        shown = reveals(event)
        if shown == "all" or seat in shown:
            return True
    return False
