"""Reviewing finished games: annotations on positions, and tournament directors' rulings.

Both are records of their own, appended beside a game and never an edit of its events (the
database refuses UPDATE and DELETE on them, ``games/migrations/0005_reviews.py``):

- an **annotation** is a comment on a position (the game after event ``seq``), by staff on
  any started game, or by one of the game's players once it is over; staff read them at any
  time, everyone else once the game is over (an annotation made during play may discuss
  hidden cards);
- a **ruling** is a tournament director's (staff's) note, or a result the director decides:
  a win awarded to some seats, or the game voided. A deciding ruling is for a game that is
  over (a running game is ended by play, resignation or its timers first); the latest
  deciding ruling is the game's result, which the API's ``winners`` and ``result`` show.
  Rulings are public to everyone who may see the game.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from events.store import iso, stream_version
from games.errors import ServiceError
from games.models import Annotation, Ruling, Table

MAX_TEXT = 2000  # characters of an annotation's text or a ruling's reason


def _is_staff(user: User | AnonymousUser) -> bool:
    return bool(getattr(user, "is_staff", False))


def _started(table: Table) -> None:
    if table.status == Table.Status.OPEN:
        raise ServiceError("not_started", "The table has not started yet.")


def may_read_annotations(table: Table, user: User | AnonymousUser) -> bool:
    return _is_staff(user) or table.status == Table.Status.FINISHED


def annotation_document(a: Annotation) -> dict[str, Any]:
    return {
        "id": a.id,
        "seq": a.seq,
        "text": a.text,
        "author": {"id": a.author_id, "name": a.author.get_username()},
        "role": a.role,
        "created_at": iso(a.created_at),
    }


def annotations_of(table: Table, user: User | AnonymousUser) -> list[dict[str, Any]]:
    """Every annotation of the game in position order (then as written), for a reader who
    may see them; ``annotation_not_allowed`` otherwise."""
    _started(table)
    if not may_read_annotations(table, user):
        raise ServiceError(
            "annotation_not_allowed",
            "A game's annotations are shown once it is over (to staff at any time).",
        )
    rows = Annotation.objects.filter(table=table).select_related("author").order_by("seq", "id")
    return [annotation_document(a) for a in rows]


def annotation_add(
    *, table: Table, user: User, seat: int | None, seq: int, text: str
) -> dict[str, Any]:
    """Append a comment on the position after event ``seq``. Staff who do not play in this
    game may annotate it at any time; its players once it is over; nobody else."""
    _started(table)
    finished = table.status == Table.Status.FINISHED
    if seat is None and _is_staff(user):
        role = "staff"
    elif seat is not None and finished:
        role = "player"
    else:
        raise ServiceError(
            "annotation_not_allowed",
            "Only staff, and the game's players once it is over, may annotate a game.",
        )
    _position(table, seq)
    annotation = Annotation.objects.create(
        table=table, seq=seq, text=_text(text, "text"), author=user, role=role
    )
    return annotation_document(annotation)


def _position(table: Table, seq: int | None) -> int:
    """The game's version; ``seq`` (if given) must name one of its events."""
    version = stream_version(table.id)
    if seq is not None and not 1 <= seq <= version:
        raise ServiceError(
            "position_out_of_range",
            f"The game has events 1 to {version}; a position is one of them.",
            seq=seq,
            version=version,
        )
    return version


def _text(text: str, field: str) -> str:
    cleaned = text.strip()
    if not cleaned or len(cleaned) > MAX_TEXT:
        raise ServiceError(
            "bad_review", f"`{field}` must be 1 to {MAX_TEXT} characters.", field=field
        )
    return cleaned


# --- rulings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decided:
    """A result decided by a ruling: the winning seats (none for a voided game)."""

    ruling: int
    kind: str  # "award" or "void"
    winners: list[int]

    def document(self) -> dict[str, Any]:
        return {"decided_by": "ruling", "ruling": self.ruling, "kind": self.kind}


def ruling_document(r: Ruling) -> dict[str, Any]:
    return {
        "id": r.id,
        "kind": r.kind,
        "winners": list(r.winners),
        "reason": r.reason,
        "seq": r.seq,
        "version": r.version,
        "author": {"id": r.author_id, "name": r.author.get_username()},
        "created_at": iso(r.created_at),
    }


def rulings_of(table: Table) -> list[dict[str, Any]]:
    _started(table)
    rows = Ruling.objects.filter(table=table).select_related("author").order_by("id")
    return [ruling_document(r) for r in rows]


def ruling_record(
    *,
    table: Table,
    user: User,
    kind: str,
    reason: str,
    winners: Sequence[int] = (),
    seq: int | None = None,
) -> dict[str, Any]:
    """Append a tournament director's ruling (staff only). An award names the seats that
    win; a note or a void names none. Deciding a result needs the game to be over."""
    _started(table)
    if not _is_staff(user):
        raise ServiceError("ruling_not_allowed", "Only tournament directors (staff) rule.")
    seats = list(winners)
    if kind == Ruling.Kind.AWARD:
        if (
            not seats
            or len(set(seats)) != len(seats)
            or any(not 0 <= s < table.seats for s in seats)
        ):
            raise ServiceError(
                "bad_winners",
                f"An award names one or more different seats, 0 to {table.seats - 1}.",
                winners=seats,
            )
    elif seats:
        raise ServiceError("bad_winners", "Only an award names winners.", winners=seats)
    if kind != Ruling.Kind.NOTE and table.status != Table.Status.FINISHED:
        raise ServiceError(
            "game_not_over",
            "A result is decided for a game that is over; end it first (resignation, "
            "timers) or record a note.",
        )
    with transaction.atomic():
        version = _position(table, seq)
        ruling = Ruling.objects.create(
            table=table,
            kind=kind,
            winners=seats,
            reason=_text(reason, "reason"),
            seq=seq,
            version=version,
            author=user,
        )
    return ruling_document(ruling)


def decided_results(table_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Decided]:
    """The result each of these games' latest deciding ruling gives (one query)."""
    if not table_ids:
        return {}
    rows = (
        Ruling.objects.filter(table_id__in=list(table_ids), kind__in=["award", "void"])
        .order_by("table_id", "-id")
        .distinct("table_id")
        .values_list("table_id", "id", "kind", "winners")
    )
    return {t: Decided(ruling=i, kind=k, winners=list(w)) for t, i, k, w in rows}


def decided_result(table: Table) -> Decided | None:
    """A finished game's decided result, if a ruling decided one (deciding rulings exist
    only for finished games: nothing is read for the others)."""
    if table.status != Table.Status.FINISHED:
        return None
    return decided_results([table.id]).get(table.id)
