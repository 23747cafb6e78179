"""Undo: a seat takes back its latest command on a casual table, if nobody has acted
since and its events revealed nothing (the game says what reveals: ``Game.revealed_to``).

Appends a marker naming the undone range; replay skips it; nothing is deleted. The
shuffles are fixed by the seed, so the same cards come again: no re-rolling the deck."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from events.chain import GENESIS
from events.store import (
    UNDONE,
    ConcurrencyConflict,
    NewEvent,
    append_command,
    snapshots_drop_from,
)
from games import reviews, selectors
from games.clock import clock_ms, clock_row, clock_upsert, resend_timers, schedule_after
from games.core import Game, RuleViolation
from games.errors import ServiceError
from games.idempotency import CommandOutcome, log_refusal, prior_outcome
from games.loading import game_load, table_get
from games.models import Table
from games.projections import ClockUpsert
from games.registry import get_game

UNDO = {"type": "undo"}


def game_undo(
    *,
    game_id: uuid.UUID,
    seat: int,
    actor: str,
    command_id: uuid.UUID,
    metadata: Mapping[str, Any] | None = None,
) -> CommandOutcome:
    """Take back ``seat``'s latest command if no other seat has acted since (casual
    tables); its stored answer if ``command_id`` was seen before."""
    table = table_get(game_id)
    prior = prior_outcome(table.id, command_id, actor, UNDO, on_user_retry=resend_timers)
    if prior is not None:
        return prior
    definition = get_game(table.game)
    try:
        return _undo(table, definition, seat, actor, command_id, metadata)
    except (RuleViolation, ServiceError) as error:
        log_refusal(
            game_id=table.id,
            command_id=command_id,
            actor=actor,
            seat=seat,
            payload=UNDO,
            expected_version=None,
            now=clock_ms(),
            error=error,
            metadata=metadata,
        )
        raise


def _undo(
    table: Table,
    definition: Game,
    seat: int,
    actor: str,
    command_id: uuid.UUID,
    metadata: Mapping[str, Any] | None,
) -> CommandOutcome:
    if not table.undo_allowed:
        raise ServiceError("undo_not_allowed", mode=table.mode)
    if table.status == Table.Status.FINISHED:
        reviews.refuse_if_decided(table)  # a ruling ended it (the engine may not know)
    with transaction.atomic():
        loaded = game_load(game_id=table.id, table=table)
        before = definition.status(loaded.state)
        last, refusal = selectors.undo_check(
            table, seat=seat, version=loaded.version, over=before.over, last=loaded.last_command
        )
        if refusal is not None:
            raise refusal
        assert last is not None  # noqa: S101 - undo_check returns one or the other
        # the game as it was before the undone command: what the clock waits for next
        after = game_load(game_id=table.id, upto=last.first_seq - 1, table=table).state
        now = clock_ms()
        version = loaded.version + 1
        clock = clock_row(table, definition.status(after), now)
        marker = NewEvent(
            UNDONE,
            {
                "from_seq": last.first_seq,
                "to_seq": last.last_seq,
                "seat": seat,
                "command_id": str(last.command_id),
            },
        )
        try:
            rows, returned = append_command(
                stream_id=table.id,
                expected_version=loaded.version,
                prev_hash=loaded.last_hash or GENESIS,
                events=[marker],
                actor=actor,
                command_id=command_id,
                seat=seat,
                command=dict(UNDO),
                expected_by_client=None,
                now_ms=now,
                metadata=dict(metadata or {}),
                also=[clock_upsert(table.id, version, clock)],
            )
        except ConcurrencyConflict:
            # Something was appended since, or a ruling ended the game meanwhile (the
            # database refuses appends to a decided game).
            reviews.refuse_if_decided(table_get(table.id))
            raise ServiceError("other_seat_acted", "Something has happened since.") from None
        # Snapshots inside the undone range no longer describe the game: drop them.
        snapshots_drop_from(table.id, last.first_seq)
        schedule_after(table, before, clock, version, ClockUpsert.kept_deadline(returned[0]))
    seq = rows[0].seq
    return CommandOutcome(table.id, command_id, seq, seq, replayed=False)
