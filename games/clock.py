"""Keeping time: the game clock projection (what each game waits for, and until when)
and the timers it asks for after each append, sent through a ``Scheduler``.

The service never imports the Celery tasks: ``games.apps`` hands the tasks' ``schedule``
to ``set_scheduler`` when Django starts, and the service calls it after commit.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction

from games.core import Game, Status
from games.models import GameClock, Table
from games.projections import ClockUpsert, clock_row_of, clock_upsert_now

log = logging.getLogger(__name__)

Job = tuple[str, list[Any], float]  # task name, its arguments, a delay in seconds


class Scheduler(Protocol):
    def __call__(self, name: str, args: list[Any], delay: float) -> object:
        """Send timer ``name`` with ``args`` (after ``delay`` seconds, or at its deadline);
        what it answers (whether it was sent) is the scheduler's own business."""
        ...


_scheduler: Scheduler | None = None


def set_scheduler(scheduler: Scheduler | None) -> None:
    """Who sends the timers (``games.tasks.schedule`` in every Django process)."""
    global _scheduler
    _scheduler = scheduler


def clock_ms() -> int:
    return int(time.time() * 1000)


# True while bots are driven in this thread (``bots_play``): no bot_move task is scheduled.
_BOTS_INLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("bots_inline", default=False)


@contextlib.contextmanager
def bots_inline() -> Iterator[None]:
    token = _BOTS_INLINE.set(True)
    try:
        yield
    finally:
        _BOTS_INLINE.reset(token)


def bots_scheduled() -> bool:
    return not settings.FB_BOTS_INLINE and not _BOTS_INLINE.get()


def bot_seats(table: Table) -> dict[int, str]:
    return {s.position: s.bot for s in table.seat_set.all() if s.bot}


@dataclass(frozen=True)
class ClockRow:
    """What a game waits for after an append, and until when (``games.models.GameClock``)."""

    status: Status
    turn_key: str  # the step its human seats' turn clock runs for ('' for none)
    turn_deadline: int | None  # on tables with a turn limit
    bot_due: int | None  # a bot seat should act by then


def clock_row(
    table: Table, status: Status, now: int, bots: Mapping[int, str] | None = None
) -> ClockRow:
    """The turn clock runs while the game waits on a human seat it does not time itself
    (several at once in a simultaneous step: one deadline for the step)."""
    bots = bot_seats(table) if bots is None else bots
    awaiting = () if status.over else status.awaiting
    think_ms = int(settings.FB_BOT_THINK_SECONDS * 1000)
    bot_due = now + think_ms if any(s in bots for s in awaiting) else None
    key, turn_deadline = "", None
    humans = [s for s in status.table_timed() if s not in bots] if not status.over else []
    if humans:
        key = status.step_key
        if table.turn_seconds:
            turn_deadline = now + table.turn_seconds * 1000
    return ClockRow(status, key, turn_deadline, bot_due)


def clock_upsert(game_id: uuid.UUID, version: int, row: ClockRow) -> ClockUpsert:
    """The game's clock row at ``version``, for the append's statement."""
    window = None if row.status.over else row.status.window
    return clock_row_of(game_id, version, window, row.turn_key, row.turn_deadline, row.bot_due)


def after_append(
    table: Table,
    definition: Game,
    before: Any,
    state: Any,
    version: int,
    now: int,
    bots: Mapping[int, str] | None = None,
) -> None:
    """For an append made in the caller's transaction (up to ``version``, leaving
    ``state``): upsert the game's clock row there, then ``schedule_after``."""
    row = clock_row(table, definition.status(state), now, bots)
    stored_turn_deadline = clock_upsert_now(clock_upsert(table.id, version, row))
    schedule_after(table, definition.status(before), row, version, stored_turn_deadline)


def schedule_after(
    table: Table, before: Status, row: ClockRow, version: int, stored_turn_deadline: int | None
) -> None:
    """On commit (at once outside a transaction), schedule what the new state waits for:
    the close of a window it opened, a bot's move, a human turn's deadline (when the clock
    row kept the new one: a new turn)."""
    if not settings.FB_SCHEDULE_TASKS:
        return
    window = None if row.status.over else row.status.window
    old = before.window
    opened = window is not None and (old is None or old.id != window.id)
    jobs: list[Job] = []
    if window is not None and opened:
        jobs.append(("close_window", [str(table.id), window.id, window.deadline], 0.0))
        jobs.append(("standing_react", [str(table.id), window.id], 0.0))  # games.standing
    if row.bot_due is not None and bots_scheduled():
        jobs.append(("bot_move", [str(table.id), version], settings.FB_BOT_THINK_SECONDS))
    if row.turn_deadline is not None and stored_turn_deadline == row.turn_deadline:
        jobs.append(("turn_timeout", [str(table.id), row.turn_key, row.turn_deadline], 0.0))
    if jobs:
        transaction.on_commit(lambda: send(jobs))


def resend_timers(game_id: uuid.UUID) -> None:
    """Send again the tasks for what the game waits for now (its clock row): the close of
    its open window, a bot's move, a human turn's deadline. Each is idempotent (the close
    names window and deadline, the move its version, the timeout its turn; their command
    ids are derived), so a task sent twice appends once. Bots' and timers' own replays do
    not come here: a duplicate task re-sending tasks would keep a duplicate alive."""
    if not settings.FB_SCHEDULE_TASKS:
        return
    row = GameClock.objects.filter(game_id=game_id).first()
    if row is None:
        return
    jobs: list[Job] = []
    if row.window_id and row.window_deadline_ms is not None:
        jobs.append(("close_window", [str(game_id), row.window_id, row.window_deadline_ms], 0.0))
    if row.bot_due_ms is not None and bots_scheduled():
        delay = max(row.bot_due_ms - clock_ms(), 0) / 1000
        jobs.append(("bot_move", [str(game_id), row.version], delay))
    if row.turn_key and row.turn_deadline_ms is not None:
        jobs.append(("turn_timeout", [str(game_id), row.turn_key, row.turn_deadline_ms], 0.0))
    if jobs:
        transaction.on_commit(lambda: send(jobs))


def send(jobs: list[Job]) -> None:
    """After commit: send the timers. A broker that is down costs a delay, not the
    command: the sweeper (and any read) catches up from the clock table."""
    if _scheduler is None:
        log.warning("no scheduler set; %d timers left to the sweeper", len(jobs))
        return
    for name, args, delay in jobs:
        try:
            _scheduler(name, args, delay)
        except Exception:
            log.exception("could not schedule %s%s; the sweeper will catch up", name, args)


def turn_deadline(table: Table, *, key: str | None) -> int | None:
    """The running turn's deadline (ms since the epoch) from the game's clock row, when
    the table has a turn limit and the row is for the step named ``key``."""
    if not table.turn_seconds or not key:
        return None
    found = (
        GameClock.objects.filter(game_id=table.id)
        .values_list("turn_key", "turn_deadline_ms")
        .first()
    )
    if found is None or found[0] != key:
        return None
    return found[1]
