"""Restore an exported game record into the store (``manage.py import_game record.json``).

Moving a finished game between servers, or a director reviewing a record brought from
elsewhere: the table, its seats, the stream's events and command log (``events.restore``:
same ``stream_id``, ``seq``, payloads, ``recorded_at`` and hashes, so the chain recomputes
identically) and the reviews (rulings with their chain, annotations), in one transaction.

Refused, with nothing written (``RestoreRefused``: a stable code and a message):
``bad_record`` (not a record of a known format and game), ``record_does_not_verify``
(``games.verify`` finds a problem: the first is named), ``record_unfinished`` (a game in
play is not moved: its clock and bots would not run here), ``stream_exists`` (the game or
its stream is already here), ``unknown_user`` (a seat's user, or a ruling's or
annotation's author, is not a user here: users are matched by id, and an author by id and
username, because a ruling's hash covers its author's id), ``ruling_id_taken`` (a
ruling's id, which its hash covers, is another ruling's here).

What the record does not hold is not invented: the table's secret options (a stacked
deck: its first event has it), its clock settings and creator, the refusals' messages and
data, the request metadata a non-staff export leaves out. A format-1 record's rulings
(outside its proof) are chained as migration 0009 chained the rulings of its time, so the
game exports as format 2.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from events.restore import RestoreRefused, moment, restore_stream, stream_exists
from games.models import Annotation, Ruling, RulingLink, Seat, Table
from games.registry import GAMES
from games.ruling_chain import GENESIS, ruling_hash
from games.verify import FORMATS, record_ruling_body, verify_record

__all__ = ["RestoreRefused", "recorded_options", "restore_record"]


def restore_record(record: Mapping[str, Any]) -> Table:
    """Restore ``record`` (an export, ``games.record.game_export``) and return its table."""
    if (
        not isinstance(record, Mapping)
        or record.get("format") not in FORMATS
        or record.get("game") not in GAMES
    ):
        raise RestoreRefused("bad_record", "not a game record of a known format and game")
    try:
        report = verify_record(dict(record))
        stream_id = uuid.UUID(record["stream_id"])
        table_part, seats = record["table"], record["seats"]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RestoreRefused("bad_record", f"the record is malformed ({exc!r})") from None
    if not report.ok:
        raise RestoreRefused("record_does_not_verify", report.problems[0])
    if table_part.get("status") != Table.Status.FINISHED:
        raise RestoreRefused(
            "record_unfinished", "only a finished game is imported (its clock would not run)"
        )
    try:
        with transaction.atomic():
            if Table.objects.filter(id=stream_id).exists() or stream_exists(stream_id):
                raise RestoreRefused("stream_exists", f"the game {stream_id} is already here")
            _check_users(record)
            table = Table.objects.create(
                id=stream_id,
                game=record["game"],
                mode=table_part["mode"],
                seats=table_part["seats"],
                options=recorded_options(table_part),
                undo=table_part["undo"],
                status=table_part["status"],
                seed=record["seed"],
                reseeds=list(record.get("reseeds") or []),
                created_at=moment(table_part["created_at"]),
                started_at=moment(table_part["started_at"]) if table_part["started_at"] else None,
            )
            Seat.objects.bulk_create(
                Seat(
                    table=table,
                    position=s["position"],
                    user_id=s["user"],
                    bot=s["bot"] or "",
                    name=s["name"],
                )
                for s in seats
            )
            restore_stream(stream_id, record["events"], record["commands"])
            _restore_rulings(table, record)
            Annotation.objects.bulk_create(
                Annotation(
                    table=table,
                    seq=a["seq"],
                    text=a["text"],
                    author_id=a["author"]["id"],
                    role=a["role"],
                    created_at=moment(a["created_at"]),
                )
                for a in record.get("annotations") or ()
            )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        # (nothing was written: the transaction is rolled back)
        raise RestoreRefused("bad_record", f"the record is malformed ({exc!r})") from None
    return table


# A record's table section: these fields are the table's own; in the first records the
# game's options sat among them (since then, under ``options``).
TABLE_FIELDS = frozenset(
    {"mode", "seats", "options", "undo", "status", "created_at", "started_at", "played_under"}
)


def recorded_options(table_part: Mapping[str, Any]) -> dict[str, Any]:
    """The table's options as the record has them (``options``, or in an older record the
    fields of its table section that are not the table's own)."""
    if "options" in table_part:
        return dict(table_part["options"])
    return {k: v for k, v in table_part.items() if k not in TABLE_FIELDS}


def _check_users(record: Mapping[str, Any]) -> None:
    users = get_user_model()
    for seat in record["seats"]:
        if seat["user"] is not None and not users.objects.filter(pk=seat["user"]).exists():
            raise RestoreRefused(
                "unknown_user",
                f"seat {seat['position']}'s user (id {seat['user']}, {seat['name']!r}) is "
                "not a user here",
            )
    for what, rows in (
        ("ruling", record.get("rulings")),
        ("annotation", record.get("annotations")),
    ):
        for row in rows or ():
            author = row["author"]
            found = users.objects.filter(pk=author["id"]).first()
            if found is None or found.get_username() != author["name"]:
                raise RestoreRefused(
                    "unknown_user",
                    f"{what} {row['id']}'s author (id {author['id']}, {author['name']!r}) is "
                    "not a user here",
                )


def _restore_rulings(table: Table, record: Mapping[str, Any]) -> None:
    """The rulings with their own ids (their hashes cover them) and their chain links: as
    recorded (format 2), or chained now in id order (format 1, like migration 0009)."""
    rulings = sorted(record.get("rulings") or (), key=lambda r: r["id"])
    if not rulings:
        return
    ids = [r["id"] for r in rulings]
    if Ruling.objects.filter(id__in=ids).exists():
        raise RestoreRefused("ruling_id_taken", "a ruling of the record has the id of one here")
    hashes = {e["seq"]: e["hash"] for e in record["events"]}
    prev = GENESIS
    for n, r in enumerate(rulings, start=1):
        ruling = Ruling.objects.create(
            id=r["id"],
            table=table,
            kind=r["kind"],
            winners=r["winners"],
            reason=r["reason"],
            seq=r["seq"],
            version=r["version"],
            author_id=r["author"]["id"],
            created_at=moment(r["created_at"]),
        )
        if r.get("hash") is not None:  # format 2: the link as recorded (verified)
            link = (r["n"], r["prev_hash"], r["hash"])
        else:
            at_hash = hashes.get(r["version"], GENESIS)
            body = record_ruling_body(str(table.id), {**r, "n": n}, at_hash)
            link = (n, prev, ruling_hash(prev, body))
        RulingLink.objects.create(
            ruling=ruling, table=table, n=link[0], prev_hash=link[1], hash=link[2]
        )
        prev = link[2]
    # ids were given: the sequence must not hand them out again
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('games_ruling', 'id'), "
            "GREATEST((SELECT MAX(id) FROM games_ruling), 1))"
        )
