"""The per-stream hash chain: hash = sha256(prev_hash || canonical JSON of the event).

Pure (standard library only), so an exported record can be checked anywhere.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

GENESIS = "0" * 64


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_body(
    *,
    stream_id: str,
    seq: int,
    type: str,
    schema_version: int,
    payload: dict[str, Any],
    actor: str,
    command_id: str | None,
    recorded_at: str,
) -> dict[str, Any]:
    """The fields the hash covers: everything that says what happened, who did it, when."""
    return {
        "stream_id": stream_id,
        "seq": seq,
        "type": type,
        "schema_version": schema_version,
        "payload": payload,
        "actor": actor,
        "command_id": command_id,
        "recorded_at": recorded_at,
    }


def chain_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(body)).encode()).hexdigest()


def exported_event_body(stream_id: str, e: Mapping[str, Any]) -> dict[str, Any]:
    """What the hash of an event covers, read from its exported form (a game record's
    ``events`` entry): ``event_body`` of its fields."""
    return event_body(
        stream_id=stream_id,
        seq=e["seq"],
        type=e["type"],
        schema_version=e["schema_version"],
        payload=e["payload"],
        actor=e["actor"],
        command_id=e["command_id"],
        recorded_at=e["recorded_at"],
    )
