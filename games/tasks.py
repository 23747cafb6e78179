"""Celery tasks that keep the games' time: close reaction windows at their deadlines, make
bot moves, play for a human seat whose turn ran out, and sweep for whatever a lost task
left undone. See docs/timers.md.

Every task is idempotent: it carries what it is about (game, window and deadline; game and
version; game, turn and deadline), re-checks it against the game, and issues its command
under an id derived from it, so a duplicate or re-delivered task appends nothing. A task
that runs before its deadline (a countdown split at FB_MAX_COUNTDOWN_SECONDS, or a clock a
little ahead) re-schedules itself for the rest.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from celery import shared_task
from django.conf import settings

from games import send_guard, service, standing, takeback
from games.core import RuleViolation
from games.errors import ServiceError
from games.models import GameClock

log = logging.getLogger(__name__)

# Tasks whose last argument is a deadline (ms since the epoch): they wait until then.
_DEADLINE_TASKS = {"close_window", "turn_timeout", "takeback_expire"}


def schedule(name: str, args: list[Any], delay: float = 0.0) -> bool:
    """Send task ``name`` with ``args``: after ``delay`` seconds, or for a deadline task at
    its deadline. No countdown is longer than FB_MAX_COUNTDOWN_SECONDS (see the Redis
    visibility timeout in settings); a longer wait is finished by the task re-scheduling
    itself. False when it was not sent: the broker is away (games.send_guard; the clock
    loop acts on the deadline instead)."""
    if name in _DEADLINE_TASKS:
        delay = (int(args[-1]) - service.clock_ms()) / 1000
    delay = min(max(delay, 0.0), float(settings.FB_MAX_COUNTDOWN_SECONDS))
    return send_guard.send(_TASKS[name], args, countdown=delay if delay > 0 else None)


@shared_task(name="games.tasks.close_window")
def close_window(game_id: str, window_id: str, deadline: int) -> str:
    """Close the window at its deadline (nothing if someone closed it already)."""
    if service.clock_ms() < deadline:
        schedule("close_window", [game_id, window_id, deadline])
        return "early: re-scheduled"
    try:
        outcome = service.close_window(
            game_id=uuid.UUID(game_id), window_id=window_id, deadline=deadline, by="task"
        )
    except ServiceError as exc:  # the game is gone (a test flushed it), or busy
        log.warning("close of window %s in %s failed: %s", window_id, game_id, exc)
        return f"failed: {exc.code}"
    if outcome is None:
        return "already closed"
    return "replayed" if outcome.replayed else "closed"


@shared_task(name="games.tasks.bot_move")
def bot_move(game_id: str, version: int) -> str:
    """One bot move, if the game is still at ``version`` and waits on a bot."""
    try:
        outcome = service.bot_move(game_id=uuid.UUID(game_id), version=version)
    except (RuleViolation, ServiceError) as exc:
        log.info("bot move in %s at version %s refused: %s", game_id, version, exc)
        return f"refused: {exc.code}"
    return "no move" if outcome is None else "moved"


@shared_task(name="games.tasks.turn_timeout")
def turn_timeout(game_id: str, key: str, deadline: int) -> str:
    """Play for the human seat whose turn ``key`` is still running at ``deadline``."""
    if service.clock_ms() < deadline:
        schedule("turn_timeout", [game_id, key, deadline])
        return "early: re-scheduled"
    try:
        outcome = service.turn_timeout(
            game_id=uuid.UUID(game_id), key=key, deadline=deadline, by="task"
        )
    except ServiceError as exc:
        log.warning("turn timeout %s in %s failed: %s", key, game_id, exc)
        return f"failed: {exc.code}"
    return "no move" if outcome is None else "played"


@shared_task(name="games.tasks.standing_react")
def standing_react(game_id: str, window_id: str) -> str:
    """Apply the seats' standing reactions to a window that has just opened (sent for
    every window, whatever the hands: its cost and timing say nothing about them)."""
    try:
        done = standing.standing_react(game_id=uuid.UUID(game_id), window_id=window_id)
    except ServiceError as exc:
        log.warning("standing reactions to %s in %s failed: %s", window_id, game_id, exc)
        return f"failed: {exc.code}"
    return f"{len(done)} answered"


@shared_task(name="games.tasks.takeback_expire")
def takeback_expire(request_id: str, deadline: int) -> str:
    """Expire a takeback request still open at its deadline (``games.takeback``)."""
    if service.clock_ms() < deadline:
        schedule("takeback_expire", [request_id, deadline])
        return "early: re-scheduled"
    return takeback.expire(uuid.UUID(request_id))


@shared_task(name="games.tasks.sweep")
def sweep() -> dict[str, int] | str:
    """Celery beat sends this every FB_SWEEP_SECONDS: one sweep, unless a worker's
    sweeper holds the lock (games.sweeper), as it does while any worker runs one."""
    from games.sweeper import sweep_unless_held  # here: games.sweeper imports this module

    done = sweep_unless_held()
    return "skipped: another sweeper holds the lock" if done is None else done


def sweep_once(now: int | None = None, limit: int = 500) -> dict[str, int]:
    """Do what lost tasks left undone: every window, human turn and bot move overdue by
    more than FB_SWEEP_GRACE_SECONDS, found in the clock table (oldest first, at most
    ``limit`` of each), and the standing reactions of open windows it has not seen yet.
    Returns how many of each it acted on (``standing``: seats answered; ``takebacks``:
    takeback requests expired)."""
    now = service.clock_ms() if now is None else now
    cutoff = now - int(settings.FB_SWEEP_GRACE_SECONDS * 1000)
    done = {"windows": 0, "turns": 0, "standing": 0, "bots": 0}
    clocks = GameClock.objects.all()

    windows = clocks.filter(window_deadline_ms__lte=cutoff).order_by("window_deadline_ms")
    for row in windows.values("game_id", "version", "window_id", "window_deadline_ms")[:limit]:
        done["windows"] += _sweep_one(
            dict(row),
            "window_deadline_ms",
            lambda r: service.close_window(
                game_id=r["game_id"],
                window_id=r["window_id"],
                deadline=r["window_deadline_ms"],
                now=now,
                by="sweeper",
            ),
        )

    turns = clocks.filter(turn_deadline_ms__lte=cutoff).order_by("turn_deadline_ms")
    for turn in turns.values("game_id", "version", "turn_key", "turn_deadline_ms")[:limit]:
        done["turns"] += _sweep_one(
            dict(turn),
            "turn_deadline_ms",
            lambda r: service.turn_timeout(
                game_id=r["game_id"],
                key=r["turn_key"],
                deadline=r["turn_deadline_ms"],
                now=now,
                by="sweeper",
            ),
        )

    done["standing"] = _sweep_standing(clocks, now, limit)

    bots = clocks.filter(bot_due_ms__lte=cutoff).order_by("bot_due_ms")
    for bot in bots.values("game_id", "version", "bot_due_ms")[:limit]:
        done["bots"] += _sweep_one(
            dict(bot),
            "bot_due_ms",
            lambda r: service.bot_move(game_id=r["game_id"], version=r["version"]),
        )
    done["takebacks"] = takeback.expire_overdue(now=cutoff)
    if any(done.values()):
        log.info("sweeper: %s", done)
    return done


# The open windows whose standing reactions this process's sweeper has applied: each once
# (a lost standing_react task is redone; a sweeper taking over redoes them all, harmlessly:
# each seat answers a window once under a derived command id).
_standing_swept: set[tuple[uuid.UUID, str]] = set()


def _sweep_standing(clocks: Any, now: int, limit: int) -> int:
    """Apply the standing reactions of every open window not seen yet (what a lost
    ``standing_react`` task would have done): a declared counter late, but not lost."""
    rows = clocks.filter(window_deadline_ms__gt=now).order_by("window_deadline_ms")
    open_now = {(r["game_id"], r["window_id"]) for r in rows.values("game_id", "window_id")[:limit]}
    _standing_swept.intersection_update(open_now)
    answered = 0
    for game_id, window_id in sorted(open_now - _standing_swept):
        try:
            answered += len(standing.standing_react(game_id=game_id, window_id=window_id, now=now))
        except ServiceError as exc:
            log.info("sweeper: standing reactions of %s refused: %s", game_id, exc)
        except Exception:
            log.exception("sweeper: standing reactions of %s failed", game_id)
            continue
        _standing_swept.add((game_id, window_id))
    return answered


def _sweep_one(row: dict[str, Any], field: str, act: Any) -> int:
    try:
        outcome = act(row)
    except (RuleViolation, ServiceError) as exc:
        log.info("sweeper: %s of %s refused: %s", field, row["game_id"], exc)
        outcome = None
    except Exception:
        log.exception("sweeper: %s of %s failed", field, row["game_id"])
        return 0
    if outcome is None:
        # Nothing to do (a stale row, a bot that lets a window run out): forget this
        # timer unless the game has moved on meanwhile, so it is not retried every sweep.
        GameClock.objects.filter(game_id=row["game_id"], version=row["version"]).update(
            **{field: None}
        )
        return 0
    return 1


_TASKS = {
    "close_window": close_window,
    "bot_move": bot_move,
    "turn_timeout": turn_timeout,
    "standing_react": standing_react,
    "takeback_expire": takeback_expire,
}
