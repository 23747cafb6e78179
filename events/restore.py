"""Restore a stream from an exported record: its events and its command log, as recorded.

The events go back with the same ``stream_id``, ``seq``, type, payload, actor, command id,
metadata, ``recorded_at`` and hashes, so the chain recomputes identically; the command log
as far as the record holds it (the record has no refusal messages or data: the code is
kept, the message and data are left empty). Refused: a chain that does not recompute, a
stream that already has events or commands. Knows no game: ``games.restore`` checks the
whole record (``games.verify``), then calls this and restores the table, seats and reviews
in the same transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from .chain import GENESIS, chain_hash, exported_event_body
from .models import CommandRecord, StoredEvent


class RestoreRefused(Exception):  # noqa: N818 - a refusal, with a stable code
    """A record that cannot be restored: ``code`` is stable, the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def moment(text: str) -> datetime:
    """An exported time (``events.store.iso``) as the datetime it was stored as."""
    return datetime.fromisoformat(text)


def stream_exists(stream_id: uuid.UUID) -> bool:
    return (
        StoredEvent.objects.filter(stream_id=stream_id).exists()
        or CommandRecord.objects.filter(stream_id=stream_id).exists()
    )


def check_chain(stream_id: uuid.UUID, events: Sequence[Mapping[str, Any]]) -> None:
    """The record's events number 1, 2, ... and their hashes recompute, each from the one
    before (``events.chain``); ``RestoreRefused`` ``chain_broken`` otherwise."""
    prev = GENESIS
    for index, e in enumerate(events, start=1):
        body = exported_event_body(str(stream_id), e)
        if e["seq"] != index or e["prev_hash"] != prev or chain_hash(prev, body) != e["hash"]:
            raise RestoreRefused("chain_broken", f"event {index}: the hash chain breaks here")
        prev = e["hash"]


def restore_stream(
    stream_id: uuid.UUID,
    events: Sequence[Mapping[str, Any]],
    commands: Sequence[Mapping[str, Any]],
) -> None:
    """Write the record's events and commands as they were recorded. The caller holds the
    transaction (nothing is written if anything after this fails)."""
    if stream_exists(stream_id):
        raise RestoreRefused("stream_exists", f"the stream {stream_id} is already stored here")
    check_chain(stream_id, events)
    StoredEvent.objects.bulk_create(
        StoredEvent(
            stream_id=stream_id,
            seq=e["seq"],
            type=e["type"],
            schema_version=e["schema_version"],
            payload=e["payload"],
            actor=e["actor"],
            command_id=uuid.UUID(e["command_id"]) if e["command_id"] else None,
            metadata=e.get("metadata") or {},
            recorded_at=moment(e["recorded_at"]),
            prev_hash=e["prev_hash"],
            hash=e["hash"],
        )
        for e in events
    )
    # in the record's order, which is the log's (its ids are drawn again here, in order)
    CommandRecord.objects.bulk_create(
        CommandRecord(
            stream_id=stream_id,
            command_id=uuid.UUID(c["command_id"]),
            actor=c["actor"],
            seat=c["seat"],
            command=c["command"],
            expected_version=c["expected_version"],
            now_ms=c["now_ms"],
            outcome=c["outcome"],
            error_code=c.get("error_code") or "",
            first_seq=c["first_seq"],
            last_seq=c["last_seq"],
            recorded_at=moment(c["recorded_at"]),
        )
        for c in commands
    )
