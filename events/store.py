"""Appending to and reading from event streams. Game-agnostic.

The UNIQUE (stream_id, seq) constraint is the lock: two writers racing for the same
version both try to insert ``expected_version + 1``; the database lets exactly one in and
the other gets ``ConcurrencyConflict``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from .chain import GENESIS, chain_hash, event_body
from .models import CommandRecord, Snapshot, StoredEvent

UNDONE = "stream.Undone"  # marks a range of a stream's events that replay skips


class ConcurrencyConflict(Exception):  # noqa: N818 - the established name
    def __init__(self, stream_id: uuid.UUID, expected_version: int) -> None:
        super().__init__(f"stream {stream_id} is no longer at version {expected_version}")
        self.stream_id = stream_id
        self.expected_version = expected_version


@dataclass(frozen=True)
class NewEvent:
    type: str
    payload: dict[str, Any]
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def stream_version(stream_id: uuid.UUID) -> int:
    result = StoredEvent.objects.filter(stream_id=stream_id).aggregate(v=Max("seq"))["v"]
    return int(result or 0)


def stream_head(stream_id: uuid.UUID) -> tuple[int, str]:
    """The stream's version and its latest event's hash, read together (``GENESIS`` for
    an empty stream): what a record beside the stream anchors itself to."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT seq, hash FROM events_storedevent WHERE stream_id = %s "
            "ORDER BY seq DESC LIMIT 1",
            [stream_id],
        )
        row = cursor.fetchone()
    return (int(row[0]), str(row[1])) if row else (0, GENESIS)


def chained(
    *,
    stream_id: uuid.UUID,
    after: int,
    prev_hash: str,
    events: Sequence[NewEvent],
    actor: str,
    command_id: uuid.UUID | None,
    metadata: dict[str, Any] | None,
) -> list[StoredEvent]:
    """``events`` as the rows that follow event ``after`` (whose hash is ``prev_hash``):
    numbered, stamped with one time, and chained. Not saved."""
    now = timezone.now()
    rows = []
    prev = prev_hash
    for offset, event in enumerate(events, start=1):
        seq = after + offset
        body = event_body(
            stream_id=str(stream_id),
            seq=seq,
            type=event.type,
            schema_version=event.schema_version,
            payload=event.payload,
            actor=actor,
            command_id=str(command_id) if command_id else None,
            recorded_at=iso(now),
        )
        digest = chain_hash(prev, body)
        rows.append(
            StoredEvent(
                stream_id=stream_id,
                seq=seq,
                type=event.type,
                schema_version=event.schema_version,
                payload=event.payload,
                actor=actor,
                command_id=command_id,
                metadata={**(metadata or {}), **event.metadata},
                recorded_at=now,
                prev_hash=prev,
                hash=digest,
            )
        )
        prev = digest
    return rows


def append(
    *,
    stream_id: uuid.UUID,
    expected_version: int,
    events: Sequence[NewEvent],
    actor: str,
    command_id: uuid.UUID | None = None,
    metadata: dict[str, Any] | None = None,
    prev_hash: str | None = None,
) -> list[StoredEvent]:
    """Append ``events`` after ``expected_version``, chaining their hashes.

    Raises ``ConcurrencyConflict`` if the stream is not at that version any more. Runs in
    its own savepoint, so a conflict leaves the caller's transaction usable.

    ``prev_hash``: the hash of event ``expected_version`` if the caller has just read it
    (in its transaction), which saves reading it again. A wrong one cannot slip through
    unseen: if the stream moved on, the insert conflicts as ever.

    A game command's events go through ``append_command`` instead (one statement with
    the command's record); this is for the lobby's deal and the undo marker."""
    if expected_version == 0:
        prev = GENESIS
    elif prev_hash is not None:
        prev = prev_hash
    else:
        found = (
            StoredEvent.objects.filter(stream_id=stream_id, seq=expected_version)
            .values_list("hash", flat=True)
            .first()
        )
        if found is None:
            raise ConcurrencyConflict(stream_id, expected_version)
        prev = found
    rows = chained(
        stream_id=stream_id,
        after=expected_version,
        prev_hash=prev,
        events=events,
        actor=actor,
        command_id=command_id,
        metadata=metadata,
    )
    try:
        with transaction.atomic():
            StoredEvent.objects.bulk_create(rows)
    except IntegrityError as exc:
        raise ConcurrencyConflict(stream_id, expected_version) from exc
    return rows


def read(stream_id: uuid.UUID, *, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
    rows = StoredEvent.objects.filter(stream_id=stream_id, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return list(rows.order_by("seq"))


def body_of(row: StoredEvent) -> dict[str, Any]:
    return event_body(
        stream_id=str(row.stream_id),
        seq=row.seq,
        type=row.type,
        schema_version=row.schema_version,
        payload=row.payload,
        actor=row.actor,
        command_id=str(row.command_id) if row.command_id else None,
        recorded_at=iso(row.recorded_at),
    )


def undone_seqs(rows: Sequence[StoredEvent] | Sequence[TailRow]) -> set[int]:
    """The sequence numbers that replay skips: undone ranges and the undo markers."""
    skipped: set[int] = set()
    for row in rows:
        if row.type == UNDONE:
            skipped.add(row.seq)
            skipped.update(range(row.payload["from_seq"], row.payload["to_seq"] + 1))
    return skipped


# --- the command path: one statement to append, one to read what is new ---------------

_EVENT_COLUMNS = (
    "stream_id, seq, type, schema_version, payload, actor, command_id, metadata, "
    "recorded_at, prev_hash, hash"
)
_EVENT_VALUES = "(%s, %s, %s, %s, %s::jsonb, %s, %s, %s::jsonb, %s, %s, %s)"
_RECORD_COLUMNS = (
    "stream_id, command_id, actor, seat, command, expected_version, now_ms, outcome, "
    "error_code, error_message, error_data, first_seq, last_seq, metadata, recorded_at"
)
_RECORD_VALUES = (
    "(%s, %s, %s, %s, %s::jsonb, %s, %s, %s, '', '', '{}'::jsonb, %s, %s, %s::jsonb, %s)"
)


class CommandSeenBefore(Exception):  # noqa: N818 - names a fact, like ConcurrencyConflict
    """The stream already has a record of this command id (a retry, or a racing twin)."""


class Projection(Protocol):
    """A read model an append keeps current: one data-modifying statement (``INSERT`` /
    ``UPDATE`` ... ``RETURNING``) the append runs in its own statement, so it commits with
    the events or not at all. Each projection owns its SQL beside its model (e.g.
    ``games.projections.ClockUpsert``); the store knows none of them."""

    @property
    def sql(self) -> str: ...

    @property
    def params(self) -> Sequence[Any]: ...


@dataclass(frozen=True)
class Also:
    """A projection given as a statement and its parameters (tests, scripts)."""

    sql: str
    params: Sequence[Any]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def append_command(
    *,
    stream_id: uuid.UUID,
    expected_version: int,
    prev_hash: str,
    events: Sequence[NewEvent],
    actor: str,
    command_id: uuid.UUID,
    seat: int | None,
    command: dict[str, Any],
    expected_by_client: int | None,
    now_ms: int,
    metadata: dict[str, Any] | None = None,
    also: Sequence[Projection] = (),
) -> tuple[list[StoredEvent], list[dict[str, Any] | None]]:
    """Append an accepted command's ``events`` after ``expected_version`` together with its
    ``CommandRecord`` and the ``also`` statements, in one SQL statement (data-modifying
    CTEs): one round trip, atomic on its own, no transaction to open or commit.

    Returns the rows and, for each ``also``, its first ``RETURNING`` row (or None). Raises
    ``ConcurrencyConflict`` when the stream is past ``expected_version`` (the unique
    ``(stream_id, seq)`` is still the lock) and ``CommandSeenBefore`` when the command id
    is recorded already; either way nothing was written. Inside a caller's transaction it
    runs in a savepoint, so a conflict leaves that transaction usable."""
    rows = chained(
        stream_id=stream_id,
        after=expected_version,
        prev_hash=prev_hash,
        events=events,
        actor=actor,
        command_id=command_id,
        metadata={**(metadata or {}), "seat": seat},  # the seat acted for, whatever else
    )
    params: list[Any] = []
    for row in rows:
        params += [
            row.stream_id,
            row.seq,
            row.type,
            row.schema_version,
            _json(row.payload),
            row.actor,
            row.command_id,
            _json(row.metadata),
            row.recorded_at,
            row.prev_hash,
            row.hash,
        ]
    params += [
        stream_id,
        command_id,
        actor,
        seat,
        _json(command),
        expected_by_client,
        now_ms,
        "accepted",
        rows[0].seq,
        rows[-1].seq,
        _json(metadata or {}),
        rows[0].recorded_at,
    ]
    parts = [
        f"ev AS (INSERT INTO events_storedevent ({_EVENT_COLUMNS}) VALUES "  # noqa: S608
        + ", ".join([_EVENT_VALUES] * len(rows))
        + " RETURNING seq)",
        f"cmd AS (INSERT INTO events_commandrecord ({_RECORD_COLUMNS}) "  # noqa: S608
        f"VALUES {_RECORD_VALUES} RETURNING id)",
    ]
    selected = ["(SELECT count(*) FROM ev)", "(SELECT count(*) FROM cmd)"]
    for number, extra in enumerate(also):
        parts.append(f"x{number} AS ({extra.sql})")
        selected.append(f"(SELECT to_jsonb(x{number}) FROM x{number} LIMIT 1)")  # noqa: S608
        params += list(extra.params)
    sql = "WITH " + ", ".join(parts) + " SELECT " + ", ".join(selected)
    try:
        with connection.cursor() as cursor:
            if connection.in_atomic_block:
                with transaction.atomic():
                    cursor.execute(sql, params)
            else:
                cursor.execute(sql, params)
            result = cursor.fetchone()
    except IntegrityError as exc:
        constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
        if constraint == "uniq_stream_command":
            raise CommandSeenBefore(command_id) from exc
        raise ConcurrencyConflict(stream_id, expected_version) from exc
    returned = [json.loads(value) if value is not None else None for value in result[2:]]
    return rows, returned


@dataclass(frozen=True)
class TailRow:
    """What folding and the undo check need of a stored event (no model instance)."""

    seq: int
    type: str
    payload: dict[str, Any]
    hash: str
    actor: str
    command_id: uuid.UUID | None
    seat: int | None  # the seat the command was made for (its metadata)
    schema_version: int = 1  # the payload's shape (a reader upcasts it: games.loading)


_TAIL = (
    "SELECT seq, type, payload, hash, actor, command_id, (metadata->>'seat')::int, "
    "schema_version FROM events_storedevent WHERE stream_id = %s AND seq >= %s"
)


def read_tail(stream_id: uuid.UUID, *, since: int, upto: int | None = None) -> list[TailRow]:
    """Events with ``since <= seq`` (``<= upto``), in order: event ``since`` itself too,
    whose hash tells a reader that the stream is still the one it folded so far."""
    sql, params = _TAIL, [stream_id, since]
    if upto is not None:
        sql, params = sql + " AND seq <= %s", [*params, upto]
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY seq", params)  # type: ignore[arg-type]  # a UUID param
        return [
            TailRow(seq, kind, json.loads(payload), digest, actor, command, seat, schema)
            for seq, kind, payload, digest, actor, command, seat, schema in cursor.fetchall()
        ]


_SNAPSHOT_AND_TAIL = """
WITH s AS (
    SELECT version, state FROM events_snapshot
    WHERE stream_id = %s AND rules_version = %s{snapshot_upto}
    ORDER BY version DESC LIMIT 1
)
SELECT 0, version, NULL, state, NULL, NULL, NULL, NULL, NULL FROM s
UNION ALL
SELECT 1, seq, type, payload, hash, actor, command_id, (metadata->>'seat')::int,
       schema_version
FROM events_storedevent
WHERE stream_id = %s AND seq >= COALESCE((SELECT version FROM s), 0){event_upto}
ORDER BY 1, 2
"""


def read_snapshot_and_tail(
    stream_id: uuid.UUID, *, rules_version: int, upto: int | None = None
) -> tuple[tuple[int, dict[str, Any]] | None, list[TailRow]]:
    """The latest snapshot under ``rules_version`` (at or before ``upto``) as (version,
    state), and ``read_tail`` from its version (from the start without one): one query."""
    limit = " AND version <= %s" if upto is not None else ""
    sql = _SNAPSHOT_AND_TAIL.format(
        snapshot_upto=limit, event_upto=" AND seq <= %s" if upto is not None else ""
    )
    params: list[Any] = [stream_id, rules_version]
    if upto is not None:
        params.append(upto)
    params.append(stream_id)
    if upto is not None:
        params.append(upto)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    snapshot = None
    rows = []
    for kind, seq, type_, payload, digest, actor, command, seat, schema in fetched:
        if kind == 0:
            snapshot = (int(seq), json.loads(payload))
        else:
            rows.append(
                TailRow(seq, type_, json.loads(payload), digest, actor, command, seat, schema)
            )
    return snapshot, rows


# --- snapshots ---------------------------------------------------------------------------


def snapshot_save(
    stream_id: uuid.UUID, *, version: int, rules_version: int, state: dict[str, Any]
) -> None:
    """Keep ``state`` (the fold up to ``version``) as a snapshot; one per version."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO events_snapshot (stream_id, version, rules_version, state, "
            "created_at) VALUES (%s, %s, %s, %s::jsonb, now()) ON CONFLICT DO NOTHING",
            [stream_id, version, rules_version, _json(state)],
        )


def snapshots_drop_from(stream_id: uuid.UUID, version: int) -> None:
    """Forget the snapshots at or after ``version`` (an undo took those events back)."""
    Snapshot.objects.filter(stream_id=stream_id, version__gte=version).delete()


# --- the command log: refusals, and what a retried command was answered -----------------


def command_logged(stream_id: uuid.UUID, command_id: uuid.UUID) -> CommandRecord | None:
    """The log's record of ``command_id`` in the stream (accepted or refused), if any."""
    return CommandRecord.objects.filter(stream_id=stream_id, command_id=command_id).first()


def record_refusal(
    *,
    stream_id: uuid.UUID,
    command_id: uuid.UUID,
    actor: str,
    seat: int | None,
    command: dict[str, Any],
    expected_version: int | None,
    now_ms: int,
    code: str,
    message: str,
    data: dict[str, Any],
    metadata: dict[str, Any] | None,
) -> None:
    """Log a refused command (nothing appended). A concurrent retry that logged the same
    command first wins; this one is dropped."""
    try:
        with transaction.atomic():
            CommandRecord.objects.create(
                stream_id=stream_id,
                command_id=command_id,
                actor=actor,
                seat=seat,
                command=command,
                expected_version=expected_version,
                now_ms=now_ms,
                outcome=CommandRecord.REFUSED,
                error_code=code,
                error_message=message,
                error_data=data,
                metadata=dict(metadata or {}),
            )
    except IntegrityError:
        pass
