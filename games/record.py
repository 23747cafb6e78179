"""Export a game as one self-contained JSON record (``games.verify`` checks it offline)."""

from __future__ import annotations

import uuid
from typing import Any

from events.models import CommandRecord, StoredEvent
from events.store import UNDONE, iso, read
from games import reviews
from games.core import Versions
from games.models import Annotation, Table
from games.registry import get_game
from games.verify import FORMATS, RECORD_FORMAT

# Request metadata that is personal data: only staff exports carry it. It is not part of
# what the hash chain covers, so a verifier never needs it.
PRIVATE_METADATA = frozenset({"ip"})


def played_under(game_id: uuid.UUID, game: str) -> Versions | None:
    """The rules and content version a game is played under, as its first event recorded
    them (None before it starts): what its pages name things by, never the newest."""
    first = read(game_id, upto=1)
    return first_played_under(game, first[0]) if first else None


def first_played_under(game: str, first: StoredEvent) -> Versions:
    definition = get_game(game)
    started = definition.decode_event(event_data(first.type, first.payload, first.schema_version))
    return definition.played_under(definition.evolve(definition.empty_state(), started))


def event_data(event_type: str, payload: dict[str, Any], schema_version: int = 1) -> dict[str, Any]:
    """An event's ``data`` as the API shows it: the stored payload, upcast from the shape
    it was written in to today's (docs/event-store.md), with the short type (``CardPlayed``;
    ``Undone`` for an undo marker) first. The export's ``payload`` stays as stored."""
    prefix, _, kind = event_type.partition(".")
    if event_type != UNDONE:
        payload = get_game(prefix).upcast_event(kind, payload, schema_version)
    return {"type": kind, **payload}


def game_export(table: Table, *, reveal_seed: bool = True, private: bool = False) -> dict[str, Any]:
    """The full record: table, seats, every event with its hash, every command (accepted and
    refused), the seed, which lets anyone re-run every shuffle, and the reviews: the rulings
    with their chain (inside the proof: ``covers``), the annotations (outside it).
    ``private`` keeps client addresses in the request metadata (staff only)."""

    def metadata(data: dict[str, Any]) -> dict[str, Any]:
        return data if private else {k: v for k, v in data.items() if k not in PRIVATE_METADATA}

    rows = read(table.id)
    played = first_played_under(table.game, rows[0]) if rows else None
    return {
        "format": RECORD_FORMAT,
        "covers": list(FORMATS[RECORD_FORMAT]),  # what games.verify proves of this record
        "game": table.game,
        "stream_id": str(table.id),
        "table": {
            "mode": table.mode,
            "seats": table.seats,
            "options": get_game(table.game).public_options(table.options),
            "undo": table.undo,
            "status": table.status,
            "created_at": iso(table.created_at),
            "started_at": iso(table.started_at) if table.started_at else None,
            # for people; the proof is the first event, which records them
            "played_under": played.as_json() if played else None,
        },
        "seats": [
            {
                "position": s.position,
                "name": s.display_name,
                "user": s.user_id,
                "bot": s.bot or None,
            }
            for s in table.seat_set.select_related("user").order_by("position")
        ],
        "seed": table.seed if reveal_seed else None,
        # the fresh seeds of the undos that reshuffled, in order (games.undo), each
        # committed by its marker's reshuffle_seed_hash; secret with the seed
        "reseeds": list(table.reseeds) if reveal_seed else None,
        "events": [
            {
                "seq": row.seq,
                "type": row.type,
                "schema_version": row.schema_version,
                "data": event_data(row.type, row.payload, row.schema_version),
                "payload": row.payload,
                "actor": row.actor,
                "command_id": str(row.command_id) if row.command_id else None,
                "metadata": metadata(row.metadata),
                "recorded_at": iso(row.recorded_at),
                "prev_hash": row.prev_hash,
                "hash": row.hash,
            }
            for row in rows
        ],
        "commands": [
            {
                "command_id": str(c.command_id),
                "actor": c.actor,
                "seat": c.seat,
                "command": c.command,
                "expected_version": c.expected_version,
                "now_ms": c.now_ms,
                "outcome": c.outcome,
                "error_code": c.error_code or None,
                "first_seq": c.first_seq,
                "last_seq": c.last_seq,
                "recorded_at": iso(c.recorded_at),
            }
            for c in CommandRecord.objects.filter(stream_id=table.id).order_by("id")
        ],
        # Reviews, records of their own beside the game (games.reviews). Comments are not
        # proven; rulings, on which results rest, are (their own chain, anchored to the
        # events': games.ruling_chain), in chain order, which is their order of ids.
        "annotations": [
            reviews.annotation_document(a)
            for a in Annotation.objects.filter(table=table)
            .select_related("author")
            .order_by("seq", "id")
        ],
        "rulings": reviews.ruling_documents(table) if table.status != Table.Status.OPEN else [],
    }
