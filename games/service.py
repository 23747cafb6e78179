"""The game service, for any game in ``games.registry``: one facade over the modules that
each hold one concern (docs/architecture.md):

- ``games.loading``: the table, and the game folded from its stream (cache, snapshots);
- ``games.commands``: decide and append a command, idempotently; close an overdue window;
- ``games.idempotency``: a retried command's stored answer, the refusal log;
- ``games.clock``: the game clock projection and the timers it asks for (``Scheduler``);
- ``games.bots``: bot seats' moves; ``games.timeouts``: turn timeouts, reads;
- ``games.undo``: taking a command back; ``games.takeback``: asking the people it
  concerns first.

Callers (the API, the lobby, the tasks) use this module; it imports no Celery task.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from games import commands
from games.absence import claim as game_claim
from games.bots import BOT_STEP_LIMIT, bot_move, bots_play
from games.clock import (
    ClockRow,
    after_append,
    bot_seats,
    bots_inline,
    clock_ms,
    clock_row,
    clock_upsert,
    resend_timers,
    schedule_after,
    set_scheduler,
    turn_deadline,
)
from games.commands import MAX_ATTEMPTS, SYSTEM, derived_command_id
from games.idempotency import CommandOutcome, Refusal
from games.loading import LoadedGame, from_row, game_load, table_get, to_new_event
from games.models import Table
from games.takeback import takeback_answer, takeback_json, undo_or_request
from games.timeouts import close_window, game_read, turn_timeout, with_bots
from games.undo import game_undo

__all__ = [
    "takeback_answer",
    "takeback_json",
    "undo_or_request",
    "BOT_STEP_LIMIT",
    "MAX_ATTEMPTS",
    "SYSTEM",
    "ClockRow",
    "CommandOutcome",
    "LoadedGame",
    "Refusal",
    "after_append",
    "bot_move",
    "bot_seats",
    "bots_inline",
    "bots_play",
    "clock_ms",
    "clock_row",
    "clock_upsert",
    "close_window",
    "derived_command_id",
    "from_row",
    "game_claim",
    "game_command_execute",
    "game_load",
    "game_read",
    "game_undo",
    "resend_timers",
    "running_turn_deadline",
    "schedule_after",
    "set_scheduler",
    "step_key",
    "table_get",
    "to_new_event",
    "turn_timeout",
]


def game_command_execute(
    *,
    game_id: uuid.UUID,
    seat: int | None,
    actor: str,
    command: Mapping[str, Any],
    command_id: uuid.UUID,
    expected_version: int | None = None,
    metadata: Mapping[str, Any] | None = None,
    now: int | None = None,
    run_bots: bool = True,
    table: Table | None = None,
) -> CommandOutcome:
    """``games.commands.execute``, then (``run_bots``, in the inline mode) the bots'
    answers. Raises ``RuleViolation`` or ``ServiceError``."""
    outcome = commands.execute(
        game_id=game_id,
        seat=seat,
        actor=actor,
        command=command,
        command_id=command_id,
        expected_version=expected_version,
        metadata=metadata,
        now=now,
        table=table,
    )
    return with_bots(outcome, table) if run_bots else outcome


def step_key(loaded: LoadedGame) -> str:
    """The decision point the game waits on (what its turn clock runs for)."""
    return loaded.definition.status(loaded.state).step_key


def running_turn_deadline(table: Table, loaded: LoadedGame) -> int | None:
    """The deadline of the step's turn clock, on tables with a turn limit, while the game
    awaits seats it does not time itself (from the game's clock row), else None."""
    status = loaded.definition.status(loaded.state)
    if not table.turn_seconds or status.over or not status.table_timed():
        return None
    return turn_deadline(table, key=status.step_key)
