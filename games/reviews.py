"""Reviewing finished games: annotations on positions, and tournament directors' rulings.

Both are records of their own, appended beside a game and never an edit of its events (the
database refuses UPDATE and DELETE on them, ``games/migrations/0005_reviews.py``):

- an **annotation** is a comment on a position (the game after event ``seq``), by staff on
  any started game, or by one of the game's players once it is over; staff read them at any
  time, everyone else once the game is over (an annotation made during play may discuss
  hidden cards);
- a **ruling** is a tournament director's (staff's) note, or a result the director decides:
  a win awarded to some seats, or the game voided. The latest deciding ruling is the game's
  result, which the API's ``winners`` and ``result`` show. Staff read rulings at any time,
  everyone else once the game is over (a note made during play may discuss hidden cards).

"Staff" here means staff who hold no seat at the game (``directs``): a staff user seated at
a table is one of its players there. They read its reviews as players do (once it is over),
never rule on it (not even after the end: its result is theirs) and do not annotate it
while it runs; those refusals are ``seated_at_table``.

A deciding ruling on a running game (a player vanished, a dispute) ends play at once: one
transaction appends the ruling and what follows from it, never an event. It takes the
game's clock row first and clears it (so it waits for an append in flight, and no timer,
sweeper, clock loop or bot finds anything due), reads the game's version, finishes the
table (``games.projections``) and announces itself on the appends' channel
(``fb_events``, '<game>:<version>', as an append would): the feed's waiters read again
and see the game over. The database refuses any later append to the game
(``games/migrations/0008_ruled_games_take_no_appends.py``); the service refuses every
command, undo and standing-reaction change first, with ``game_over`` naming the ruling
(``refusal``). The game's own events still end where play stopped: readers treat the
finished table as the game's end (hands revealed, nothing offered).

Rulings are inside the record's proof: each is chained to the game's previous ruling and to
its latest event when it is recorded (``games.ruling_chain``; the link is a row of its own,
``RulingLink``, written in the ruling's transaction), so an exported record with a ruling
added, removed, altered or moved fails ``games.verify``.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from events.notify import announce
from events.store import iso, stream_head, stream_version
from games import cache, selectors
from games.errors import ServiceError
from games.models import Annotation, Ruling, RulingLink, Table
from games.projections import ClockCleared, TableFinished
from games.ruling_chain import GENESIS, ruling_hash
from games.verify import record_ruling_body

MAX_TEXT = 2000  # characters of an annotation's text or a ruling's reason
CHAIN_TRIES = 8  # places at the head of a rulings chain tried, as the service's appends


def _is_staff(user: AbstractBaseUser | AnonymousUser) -> bool:
    return bool(getattr(user, "is_staff", False))


def _started(table: Table) -> None:
    if table.status == Table.Status.OPEN:
        raise ServiceError("not_started", "The table has not started yet.")


def directs(table: Table, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Staff who hold no seat at this game (the seats are prefetched by the API's reads)."""
    return _is_staff(user) and selectors.seat_of(table, user) is None


def _seated(what: str) -> ServiceError:
    return ServiceError(
        "seated_at_table",
        f"You play in this game: staff seated at a table are players there, so {what}.",
    )


def may_read_annotations(table: Table, user: AbstractBaseUser | AnonymousUser) -> bool:
    return table.status == Table.Status.FINISHED or directs(table, user)


# Rulings as annotations: a director's note during play may discuss hidden cards.
may_read_rulings = may_read_annotations


def annotation_document(a: Annotation) -> dict[str, Any]:
    return {
        "id": a.id,
        "seq": a.seq,
        "text": a.text,
        "author": {"id": a.author_id, "name": a.author.get_username()},
        "role": a.role,
        "created_at": iso(a.created_at),
    }


def annotations_of(table: Table, user: AbstractBaseUser | AnonymousUser) -> list[dict[str, Any]]:
    """Every annotation of the game in position order (then as written), for a reader who
    may see them; ``annotation_not_allowed`` otherwise."""
    _started(table)
    if not may_read_annotations(table, user):
        raise ServiceError(
            "annotation_not_allowed",
            "A game's annotations are shown once it is over (at any time to staff who do "
            "not play in it).",
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
    elif seat is not None and _is_staff(user):
        # a note only staff could read until the end: nothing a player may leave
        raise _seated("you annotate it as a player, once it is over")
    else:
        raise ServiceError(
            "annotation_not_allowed",
            "Only staff, and the game's players once it is over, may annotate a game.",
        )
    _within(seq, stream_version(table.id))
    annotation = Annotation.objects.create(
        table=table, seq=seq, text=_text(text, "text"), author=user, role=role
    )
    return annotation_document(annotation)


def _within(seq: int | None, version: int) -> None:
    """``seq`` (if given) must name one of the game's events."""
    if seq is not None and not 1 <= seq <= version:
        raise ServiceError(
            "position_out_of_range",
            f"The game has events 1 to {version}; a position is one of them.",
            seq=seq,
            version=version,
        )


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

    def refusal(self) -> ServiceError:
        """What a command, an undo or a standing-reaction change on the game answers."""
        what = "voided the game" if self.kind == Ruling.Kind.VOID else "awarded the win"
        return ServiceError(
            "game_over",
            f"The game is over: a tournament director decided it by a ruling ({what}); "
            "nothing more can be played.",
            decided_by="ruling",
            ruling=self.ruling,
            kind=self.kind,
            winners=self.winners,
        )


def ruling_document(r: Ruling) -> dict[str, Any]:
    """A ruling with its place in the game's rulings chain (``n``, ``prev_hash``, ``hash``:
    ``games.ruling_chain``)."""
    link: RulingLink | None = getattr(r, "link", None)  # (every ruling has one)
    return {
        "id": r.id,
        "kind": r.kind,
        "winners": list(r.winners),
        "reason": r.reason,
        "seq": r.seq,
        "version": r.version,
        "author": {"id": r.author_id, "name": r.author.get_username()},
        "created_at": iso(r.created_at),
        "n": link.n if link else None,
        "prev_hash": link.prev_hash if link else None,
        "hash": link.hash if link else None,
    }


def rulings_of(table: Table, user: AbstractBaseUser | AnonymousUser) -> list[dict[str, Any]]:
    """Every ruling on the game, oldest first, for a reader who may see them (staff who do
    not play in it at any time, everyone else once the game is over);
    ``ruling_not_allowed`` otherwise."""
    _started(table)
    if not may_read_rulings(table, user):
        raise ServiceError(
            "ruling_not_allowed",
            "A game's rulings are shown once it is over (at any time to staff who do not "
            "play in it).",
        )
    return ruling_documents(table)


def ruling_documents(table: Table) -> list[dict[str, Any]]:
    """Every ruling on the game, oldest first, unchecked: for the export, whose readers
    (staff, and the players once the game is over) may read them."""
    rows = Ruling.objects.filter(table=table).select_related("author", "link").order_by("id")
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
    """Append a tournament director's ruling (staff who do not play in the game: a seated
    one is refused ``seated_at_table``). An award names the seats that
    win; a note or a void names none. A deciding ruling on a running game ends it: the
    table finishes and the game's clock row is cleared in the same transaction (see the
    module's docstring)."""
    _started(table)
    if not _is_staff(user):
        raise ServiceError("ruling_not_allowed", "Only tournament directors (staff) rule.")
    if not directs(table, user):
        raise _seated("another tournament director rules on it")
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
    text = _text(reason, "reason")
    deciding = kind != Ruling.Kind.NOTE
    with transaction.atomic():
        if deciding:
            # First the clock row: an append in flight holds it until it commits, so the
            # version read next includes it, and every later append meets the trigger.
            _run(ClockCleared(table.id))
        ruling = _chained(table=table, user=user, kind=kind, winners=seats, reason=text, seq=seq)
        if deciding:
            _run(TableFinished(table.id))
            announce(table.id, ruling.version)  # on commit, like an append's announcement
    if deciding:
        cache.tables.discard(table.id)  # this process's; others re-read a started table
    return ruling_document(ruling)


def _chained(
    *, table: Table, user: User, kind: str, winners: list[int], reason: str, seq: int | None
) -> Ruling:
    """Record the ruling at the head of the game's rulings chain, with its link: its hash
    covers the previous ruling's and the game's latest event's (``games.ruling_chain``).
    ``UNIQUE (table, n)`` is the lock, as for the events: a ruling that lost the race for
    its place (another committed there first) is taken back to its savepoint and recorded
    again after the winner, so the chain never forks; its id is then drawn after the
    winner's, so id order stays chain order."""
    for _ in range(CHAIN_TRIES):
        n, prev = _chain_head(table)
        version, at_hash = stream_head(table.id)
        _within(seq, version)
        ruling = Ruling(
            table=table,
            kind=kind,
            winners=winners,
            reason=reason,
            seq=seq,
            version=version,
            author=user,
            created_at=timezone.now(),
        )
        try:
            with transaction.atomic():
                ruling.save()
                # hashed from its document as the export shows it, by the verifier's own
                # reading: what is recorded is what verifies
                document = {**ruling_document(ruling), "n": n + 1}
                body = record_ruling_body(str(table.id), document, at_hash)
                ruling.link = RulingLink.objects.create(
                    ruling=ruling,
                    table=table,
                    n=n + 1,
                    prev_hash=prev,
                    hash=ruling_hash(prev, body),
                )
            return ruling
        except IntegrityError as exc:
            constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
            if constraint != "uniq_ruling_link":
                raise
    raise ServiceError("busy")


def _chain_head(table: Table) -> tuple[int, str]:
    """The number and hash of the game's latest ruling (0 and ``GENESIS`` for none)."""
    head = RulingLink.objects.filter(table=table).order_by("-n").values_list("n", "hash").first()
    return head if head is not None else (0, GENESIS)


def _run(projection: ClockCleared | TableFinished) -> None:
    with connection.cursor() as cursor:
        cursor.execute(projection.sql, list(projection.params))


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
    """A finished game's decided result, if a ruling decided one (a deciding ruling
    finishes its game: nothing is read for the others)."""
    if table.status != Table.Status.FINISHED:
        return None
    return decided_results([table.id]).get(table.id)


def refuse_if_decided(table: Table) -> None:
    """Raise ``game_over`` naming the ruling if one decided this (finished) game."""
    decided = decided_result(table)
    if decided is not None:
        raise decided.refusal()
