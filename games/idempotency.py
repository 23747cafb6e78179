"""Idempotency and the refusal log: a command id seen before gets its first answer (the
same events, or the same refusal), and every refusal is logged, bounded in size."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from events.models import CommandRecord, StoredEvent
from events.store import command_logged, read, record_refusal
from games.core import RuleViolation
from games.errors import ServiceError

Refusal = RuleViolation | ServiceError

# A refused command is logged, but anyone can send junk: what is stored of it is bounded.
# Up to these sizes (bytes of JSON) a refused command and its refusal's data are kept
# whole; above, a summary (type, size, field names, digest) and a mark that data was cut.
STORED_COMMAND_BYTES = 2048
STORED_ERROR_BYTES = 2048
STORED_MESSAGE_CHARS = 500


@dataclass(frozen=True)
class CommandOutcome:
    game_id: uuid.UUID
    command_id: uuid.UUID
    first_seq: int  # the events the command appended (0 when it appended none)
    last_seq: int
    replayed: bool  # True when this is the stored answer to a retried command
    # What the command appended, and the game right after it (when nothing, a bot say,
    # has moved it since in this call): the API answers from them without re-reading.
    rows: tuple[StoredEvent, ...] | None = field(default=None, compare=False, repr=False)
    loaded: Any = field(default=None, compare=False, repr=False)  # loading.LoadedGame

    def events(self) -> list[StoredEvent]:
        if not self.first_seq:
            return []
        if self.rows is not None:
            return list(self.rows)
        return read(self.game_id, after=self.first_seq - 1, upto=self.last_seq)


def prior_outcome(
    game_id: uuid.UUID,
    command_id: uuid.UUID,
    actor: str,
    payload: Mapping[str, Any],
    on_user_retry: Callable[[uuid.UUID], None] | None = None,
) -> CommandOutcome | None:
    """The stored answer to ``command_id``, or None if it is new. ``on_user_retry``: what
    to do for a client's retry (re-send the game's timers: its first answer may have been
    lost with the web process that committed the command before sending them)."""
    record = command_logged(game_id, command_id)
    if record is None:
        return None
    if record.actor != actor or not _same_command(record.command, payload):
        raise ServiceError("idempotency_key_reused", command_id=str(command_id))
    if record.outcome == CommandRecord.REFUSED:
        raise _stored_refusal(record)
    if on_user_retry is not None and actor.startswith("user:"):
        on_user_retry(game_id)
    return CommandOutcome(
        game_id, command_id, record.first_seq or 0, record.last_seq or 0, replayed=True
    )


def _stored_refusal(record: CommandRecord) -> Refusal:
    data = dict(record.error_data)
    service = data.pop("_service", False)
    data = {k: v for k, v in data.items() if not k.startswith("_")}
    refusal: Refusal
    if service:
        refusal = ServiceError(record.error_code, record.error_message, **data)
    else:
        refusal = RuleViolation(record.error_code, record.error_message, **data)
    refusal.replayed = True  # type: ignore[union-attr]  # the API says Idempotent-Replayed
    return refusal


def _digest(payload: Mapping[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def storable(value: Any) -> bool:
    """Whether PostgreSQL can keep ``value`` as JSON: its jsonb and text hold no NUL
    character (which ``json.dumps`` writes as an escape)."""
    return "\\u0000" not in json.dumps(value, default=str)


def stored_command(payload: Mapping[str, Any]) -> dict[str, Any]:
    """What the log keeps of a refused command: itself, or a bounded summary whose digest
    still recognises a retry of the same command (``_same_command``): for a large one, and
    for one PostgreSQL cannot store (a NUL character)."""
    size = len(json.dumps(payload, default=str).encode())
    if size <= STORED_COMMAND_BYTES and storable(payload):
        return dict(payload)
    kind = payload.get("type")
    return {
        "type": kind if isinstance(kind, str) and len(kind) <= 40 and storable(kind) else None,
        "_summary": {
            "bytes": size,
            "fields": [str(k)[:40].replace("\x00", "") for k in list(payload)[:20]],
            "sha256": _digest(payload),
        },
    }


def _same_command(stored: Any, payload: Mapping[str, Any]) -> bool:
    if stored == dict(payload):
        return True
    summary = stored.get("_summary") if isinstance(stored, dict) else None
    return isinstance(summary, dict) and summary.get("sha256") == _digest(payload)


def _stored_error_data(data: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(data, default=str).encode()) <= STORED_ERROR_BYTES:
        return data
    return {"_truncated": True, **({"_service": True} if data.get("_service") else {})}


def log_refusal(
    *,
    game_id: uuid.UUID,
    command_id: uuid.UUID,
    actor: str,
    seat: int | None,
    payload: Mapping[str, Any],
    expected_version: int | None,
    now: int,
    error: Refusal,
    metadata: Mapping[str, Any] | None,
) -> None:
    data = dict(error.data)
    if isinstance(error, ServiceError):
        data["_service"] = True
    record_refusal(
        stream_id=game_id,
        command_id=command_id,
        actor=actor,
        seat=seat,
        command=stored_command(payload),
        expected_version=expected_version,
        now_ms=now,
        code=error.code,
        message=error.message[:STORED_MESSAGE_CHARS],
        data=_stored_error_data(_jsonable(data)),
        metadata=dict(metadata or {}),
    )


def _jsonable(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}
