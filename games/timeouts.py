"""Time running out: a turn clock's timeout plays for every human seat of the step it
times (the game names the move, ``Game.timeout_command``), and a reader closes an
overdue window before it answers."""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace

from django.conf import settings

from games import absence, commands
from games.bots import bots_play
from games.clock import bot_seats, clock_ms
from games.commands import SYSTEM, derived_command_id, execute
from games.core import RuleViolation
from games.errors import ServiceError
from games.idempotency import CommandOutcome
from games.loading import LoadedGame, game_load, table_get
from games.models import Table

log = logging.getLogger(__name__)


def turn_timeout(
    *, game_id: uuid.UUID, key: str, deadline: int, now: int | None = None, by: str = "task"
) -> CommandOutcome | None:
    """Play for each human seat the step ``key`` still awaits past ``deadline`` (the
    table's ``turn_action``: the game's minimal move, or the heuristic bot's choice), as
    the system, with metadata ``timeout: true``. Idempotent: each command id is derived
    from the step (and the seat, when several are awaited); nothing happens if the step
    is over or the deadline is not yet reached. Returns the last command played."""
    now = clock_ms() if now is None else now
    if now < deadline:
        return None
    table = table_get(game_id, seats=True)
    if not table.turn_seconds or table.status != Table.Status.STARTED:
        return None
    loaded = game_load(game_id=game_id, table=table)
    definition = loaded.definition
    status = definition.status(loaded.state)
    if status.over or status.step_key != key:
        return None
    bots = bot_seats(table)
    humans = [s for s in status.table_timed() if s not in bots]
    single = len(status.awaiting) == 1
    outcome = None
    for seat in humans:
        state = game_load(game_id=game_id, table=table).state if outcome else loaded.state
        if outcome is not None:
            now_status = definition.status(state)
            if now_status.step_key != key or seat not in now_status.awaiting:
                continue
        command = definition.timeout_command(
            state, seat, table.turn_action, f"{table.id}:{seat}:timeout"
        )
        if command is None:
            continue
        purpose = f"timeout:{key}" if single else f"timeout:{key}:{seat}"
        try:
            outcome = execute(
                game_id=game_id,
                seat=seat,
                actor=SYSTEM,
                command=command,
                command_id=derived_command_id(game_id, purpose),
                now=now,
                metadata={"timeout": True, "origin": "timeout", "by": by, "deadline": deadline},
                table=table,
            )
        except (RuleViolation, ServiceError) as exc:
            log.info("turn timeout %s of %s (seat %s) not played: %s", key, game_id, seat, exc)
            continue
        # the abandonment rule (games.absence): K consecutive timeouts put the seat out
        abandoned = absence.after_timeout(table, seat, now=now)
        if abandoned is not None:
            outcome = abandoned
    return with_bots(outcome, table) if outcome is not None else None


def with_bots(outcome: CommandOutcome, table: Table | None = None) -> CommandOutcome:
    """In the inline mode (``FB_BOTS_INLINE``), let the bots answer what ``outcome`` left
    them; its game is then not the latest any more."""
    if settings.FB_BOTS_INLINE and bots_play(game_id=outcome.game_id, table=table):
        return replace(outcome, loaded=None)
    return outcome


def close_window(
    *,
    game_id: uuid.UUID,
    window_id: str,
    deadline: int,
    now: int | None = None,
    run_bots: bool = True,
    by: str = "read",
) -> CommandOutcome | None:
    """``games.commands.close_window``, then (``run_bots``) the bots it lets move."""
    outcome = commands.close_window(
        game_id=game_id, window_id=window_id, deadline=deadline, now=now, by=by
    )
    if outcome is not None and run_bots:
        outcome = with_bots(outcome)
    return outcome


def game_read(
    *, game_id: uuid.UUID, now: int | None = None, table: Table | None = None
) -> LoadedGame:
    """The current game for a reader, with any overdue window closed first. ``table``: the game's table if the caller has just
    read it (saves reading it again)."""
    loaded = game_load(game_id=game_id, table=table)
    window = loaded.definition.status(loaded.state).window
    now = clock_ms() if now is None else now
    finished = loaded.table.status == Table.Status.FINISHED  # a ruling may have ended it
    if window is not None and now >= window.deadline and not finished:
        close_window(game_id=game_id, window_id=window.id, deadline=window.deadline, now=now)
        loaded = game_load(game_id=game_id, table=table)
    return loaded
