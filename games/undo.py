"""Undo: a seat takes back its latest command on a casual table, if nobody has acted
since and its events revealed nothing (the game says what reveals: ``Game.revealed_to``).

Appends a marker naming the undone range; replay skips it; nothing is deleted. The
shuffles are fixed by the seed, so the same cards come again: no re-rolling the deck.

Except after an undo across a reveal (a game with ``Game.undo_across_reveals``: the undone
command made another seat draw): then the cards shown go back and the game puts the hidden
cards in a new order (``Game.undo_reshuffle``) from a fresh seed. The marker carries the
fresh seed's hash (``reshuffle_seed_hash``), its reshuffle events follow it in the same
command, and the seed is kept secret on the table (``Table.reseeds``) until the game ends,
then exported for ``games.verify`` to check and replay (docs/event-store.md)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from django.db import connection, transaction

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
from games.core import ALL, Game, RuleViolation, Status
from games.errors import ServiceError
from games.idempotency import CommandOutcome, log_refusal, prior_outcome
from games.loading import game_load, table_get, to_new_event
from games.models import Table, new_seed
from games.projections import ClockUpsert
from games.registry import get_game
from games.rng import seed_hash

UNDO = {"type": "undo"}


def game_undo(
    *,
    game_id: uuid.UUID,
    seat: int,
    actor: str,
    command_id: uuid.UUID,
    metadata: Mapping[str, Any] | None = None,
    consented: bool = False,
) -> CommandOutcome:
    """Take back ``seat``'s latest command if no other seat has acted since (casual
    tables); its stored answer if ``command_id`` was seen before. An undo that concerns
    other people (``concerned``) needs their consent first (``games.takeback``): without
    ``consented`` it is refused with ``takeback_needed``."""
    table = table_get(game_id)
    prior = prior_outcome(table.id, command_id, actor, UNDO, on_user_retry=resend_timers)
    if prior is not None:
        return prior
    definition = get_game(table.game)
    try:
        return _undo(table, definition, seat, actor, command_id, metadata, consented)
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
    consented: bool,
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
        asked = concerned(table, before, definition.status(after), last, seat)
        if asked and not consented:
            raise ServiceError("takeback_needed", seats=asked)
        now = clock_ms()
        clock = clock_row(table, definition.status(after), now)
        marker_payload: dict[str, Any] = {
            "from_seq": last.first_seq,
            "to_seq": last.last_seq,
            "seat": seat,
            "command_id": str(last.command_id),
        }
        reshuffle: list[NewEvent] = []
        if last.revealed_to:  # undo_check allowed it: the game reshuffles what was shown
            reseed = new_seed()
            marker_payload["reshuffle_seed_hash"] = seed_hash(reseed)
            events = definition.undo_reshuffle(after, reseed)
            for event in events:
                after = definition.evolve(after, event)
            reshuffle = [to_new_event(definition, event) for event in events]
            _keep_reseed(table, reseed)
            clock = clock_row(table, definition.status(after), now)
        version = loaded.version + 1 + len(reshuffle)
        marker = NewEvent(UNDONE, marker_payload)
        try:
            rows, returned = append_command(
                stream_id=table.id,
                expected_version=loaded.version,
                prev_hash=loaded.last_hash or GENESIS,
                events=[marker, *reshuffle],
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
    return CommandOutcome(table.id, command_id, rows[0].seq, rows[-1].seq, replayed=False)


def _keep_reseed(table: Table, reseed: str) -> None:
    """Add ``reseed`` to the table's secret seeds, in this transaction (rolled back with
    the undo if its append fails): appended in SQL, never from a stale read."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_table SET reseeds = reseeds || %s::jsonb WHERE id = %s",
            [json.dumps([reseed]), table.id],
        )
    table.reseeds = [*table.reseeds, reseed]


def concerned(
    table: Table, now: Status, prior: Status, last: selectors.LastCommand, seat: int
) -> list[int]:
    """The people (human seats, not ``seat``) an undo of ``last`` concerns, who must agree
    to it (``games.takeback``): those its events showed cards to (the next seat's draw)
    and those the table's turn clock waits on now (``now``) but did not before it
    (``prior``): the move passed the turn to them. Bots are never asked; a move that only
    opened a window (timed by the game), or one seat's part of a simultaneous step, asks
    nobody."""
    seats = set(now.table_timed()) - set(prior.awaiting)
    if last.revealed_to != ALL:
        seats |= set(last.revealed_to)
    humans = {s.position for s in table.seat_set.all() if not s.bot}
    return sorted((seats & humans) - {seat})
