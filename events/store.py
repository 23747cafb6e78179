"""Appending to and reading from event streams. Game-agnostic.

The UNIQUE (stream_id, seq) constraint is the lock: two writers racing for the same
version both try to insert ``expected_version + 1``; the database lets exactly one in and
the other gets ``ConcurrencyConflict``.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from .chain import GENESIS, chain_hash, event_body
from .models import StoredEvent

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


def append(
    *,
    stream_id: uuid.UUID,
    expected_version: int,
    events: Sequence[NewEvent],
    actor: str,
    command_id: uuid.UUID | None = None,
    metadata: dict[str, Any] | None = None,
    prev_hash: str | None = None,
    savepoint: bool = True,
) -> list[StoredEvent]:
    """Append ``events`` after ``expected_version``, chaining their hashes.

    Raises ``ConcurrencyConflict`` if the stream is not at that version any more. Runs in
    its own savepoint, so a conflict leaves the caller's transaction usable.

    ``prev_hash``: the hash of event ``expected_version`` if the caller has just read it
    (in its transaction), which saves reading it again. A wrong one cannot slip through
    unseen: if the stream moved on, the insert conflicts as ever. ``savepoint=False``
    when the caller abandons its whole transaction on a conflict (one round trip each
    for SAVEPOINT and RELEASE less); the transaction is then unusable after a conflict."""
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
    now = timezone.now()
    rows = []
    for offset, event in enumerate(events, start=1):
        seq = expected_version + offset
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
    try:
        if savepoint:
            with transaction.atomic():
                StoredEvent.objects.bulk_create(rows)
        else:
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


def undone_seqs(rows: Sequence[StoredEvent]) -> set[int]:
    """The sequence numbers that replay skips: undone ranges and the undo markers."""
    skipped: set[int] = set()
    for row in rows:
        if row.type == UNDONE:
            skipped.add(row.seq)
            skipped.update(range(row.payload["from_seq"], row.payload["to_seq"] + 1))
    return skipped
