"""The relay: committed events -> deliveries. The event log is the outbox.

For each game the relay keeps the last seq it relayed (``RelayCursor``). Relaying a game
locks its cursor row, reads the events after it, writes one ``Delivery`` per matching
subscription and event, and moves the cursor, all in one transaction: a crash before the
commit relays the same events again later (deliveries are unique per subscription and
event, and their ``webhook-id`` is derived from both), a crash after it has nothing left to
do. Only committed events are ever read, so an append that rolled back sends nothing.

Within a game, seq order is commit order (an append chains to the committed event before
it), so a per-game cursor never skips an event that commits late, as a global position
could. The relay hears of appends through the store's ``NOTIFY`` and also scans for games
whose events run ahead of their cursor (``behind``), so a lost notification only delays.

Payloads go through the same viewer projection as every read (``api.viewers``): a
subscriber's own games as its seat sees them, a staff service-wide subscription as a
spectator does. Which events are turns, windows, a filled table or a finished game the
service derives for every game from its status before and after each command
(``games.notices``), folded on from the cursor (``webhooks.folds``), plus the kinds a game
adds of its own (``Game.own_notices``).

A tournament director's deciding ruling (an award or a void, ``games.reviews``) finishes
its game without an event, so the relay reads the game's rulings beside its events: the
ruling table is the outbox for those. Each deciding ruling after the cursor's ``ruling``
becomes a ``game.finished`` delivery (``build_rulings``) for every subscription that gets
the game's notices, written with the cursor's move in the same transaction. Its lane
position is the game's version when the ruling was recorded (``Delivery.seq``), so it goes
after the game's earlier deliveries; the database refuses appends to a decided game, so
none comes after it. A ruling that rolled back was never committed, so it sends nothing; a
note sends nothing. The ruling's transaction announces the game on the store's channel,
so the relay hears of it like an append, and ``behind`` finds a ruling it missed.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.db.models import Q

from events.models import StoredEvent
from events.store import iso
from games import selectors
from games.errors import ServiceError
from games.models import Ruling, Table
from games.notices import KINDS, Notices
from games.reads import Access, event_document
from games.registry import get_game
from games.reviews import Decided, may_read_rulings, ruling_document
from webhooks import folds, tasks
from webhooks.models import Delivery, RelayCursor, Subscription

_IDS = uuid.UUID("0b7d3f3e-2c55-4a8e-9a43-4f3c0a1d2e77")  # namespace of message ids
ALL = "all"
EVENT = "game.event"  # the type of a delivery made only because a subscription wants all
FINISHED = "game.finished"  # also the type of a deciding ruling's delivery
DECIDING = (Ruling.Kind.AWARD, Ruling.Kind.VOID)

Lane = tuple[uuid.UUID, uuid.UUID | None]  # (subscription, game): delivered in order


def message_id(subscription_id: uuid.UUID, stream_id: uuid.UUID, seq: int) -> str:
    """The ``webhook-id`` of an event's delivery: fixed by what it is, so a relay that runs
    twice names it the same."""
    return "msg_" + uuid.uuid5(_IDS, f"{subscription_id}:{stream_id}:{seq}").hex


def ruling_message_id(subscription_id: uuid.UUID, stream_id: uuid.UUID, ruling_id: int) -> str:
    """The ``webhook-id`` of a deciding ruling's delivery (fixed, as an event's)."""
    return "msg_" + uuid.uuid5(_IDS, f"{subscription_id}:{stream_id}:ruling:{ruling_id}").hex


@dataclass(frozen=True)
class Viewer:
    access: Access
    seat: int | None


def relay_stream(stream_id: uuid.UUID) -> int:
    """Relay the committed events and deciding rulings of one game after its cursor;
    returns the deliveries made. Their delivery tasks are sent once the transaction
    commits."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO webhooks_relaycursor (stream_id, seq, ruling, finished, updated_at) "
                "VALUES (%s, 0, 0, false, now()) ON CONFLICT DO NOTHING",
                [stream_id],
            )
            cursor.execute(
                "SELECT seq, ruling FROM webhooks_relaycursor WHERE stream_id = %s FOR UPDATE",
                [stream_id],
            )
            after, ruled = cursor.fetchone()
        # The rulings before the table, the table before the events: a deciding ruling
        # commits after every event up to its version and finishes the table with it, and
        # a game finishes in the statement that appends its last event, so a table read as
        # finished here has every event in the read below, and so has a ruling read here.
        rulings = list(
            Ruling.objects.filter(table_id=stream_id, kind__in=DECIDING, id__gt=ruled)
            .select_related("author", "link")
            .order_by("id")
        )
        try:
            table = selectors.table_detail(stream_id)
        except ServiceError:
            table = None
        rows = list(StoredEvent.objects.filter(stream_id=stream_id, seq__gt=after).order_by("seq"))
        last = rows[-1].seq if rows else after
        rulings = _in_order(rulings, last)
        if table is None or not (rows or rulings):  # a game gone; or nothing new
            over = table is None or table.status == Table.Status.FINISHED
            RelayCursor.objects.filter(stream_id=stream_id).update(finished=over)
            return 0
        deliveries = build(table, rows, after)
        ruled_deliveries = build_rulings(table, rulings)
        # Two statements, events first: a ruling's delivery shares its lane position with
        # the game's last event and is sent after it (lanes go by seq, then id).
        Delivery.objects.bulk_create(deliveries, ignore_conflicts=True)
        Delivery.objects.bulk_create(ruled_deliveries, ignore_conflicts=True)
        finished = table.status == Table.Status.FINISHED
        RelayCursor.objects.filter(stream_id=stream_id).update(
            seq=last, ruling=rulings[-1].id if rulings else ruled, finished=finished
        )
        deliveries += ruled_deliveries
        lanes = {(d.subscription_id, stream_id) for d in deliveries}
        if lanes:
            transaction.on_commit(lambda: tasks.send_lanes(lanes))
    return len(deliveries)


def _in_order(rulings: list[Ruling], last: int) -> list[Ruling]:
    """The rulings that may go now: up to the first recorded after an event this pass has
    not read (none is, as rulings are read first; that one and later ones wait)."""
    out: list[Ruling] = []
    for ruling in rulings:
        if ruling.version > last:
            break
        out.append(ruling)
    return out


def _subscriptions(table: Table) -> list[Subscription]:
    users = [s.user_id for s in table.seat_set.all() if s.user_id is not None]
    return list(
        Subscription.objects.filter(active=True).filter(
            Q(scope=Subscription.Scope.SERVICE)
            | Q(scope=Subscription.Scope.OWN, owner_id__in=users)
        )
    )


def _viewer(table: Table, subscription: Subscription) -> Viewer | None:
    if subscription.scope == Subscription.Scope.SERVICE:
        return Viewer(Access(table=table, user=AnonymousUser(), seat=None), None)
    seat = next(
        (s.position for s in table.seat_set.all() if s.user_id == subscription.owner_id), None
    )
    if seat is None:
        return None
    return Viewer(Access(table=table, user=AnonymousUser(), seat=seat), seat)


def _versions(rows: list[StoredEvent]) -> dict[int, int]:
    """Each event's game version: the last seq its command appended (what a client sends
    as ``expected_version`` to act on it)."""
    version: dict[int, int] = {}
    group: list[StoredEvent] = []
    for row in rows:
        if group and row.command_id != group[-1].command_id:
            version.update({g.seq: group[-1].seq for g in group})
            group = []
        group.append(row)
    version.update({g.seq: group[-1].seq for g in group})
    return version


def _seats(order: tuple[str, ...], raised: Notices, every: list[int]) -> dict[str, list[int]]:
    """Notice kind -> the seats it concerns (in ``order``), for one stored event."""
    return {
        kind: every if raised[kind] is None else sorted(raised[kind] or ())
        for kind in order
        if kind in raised
    }


def build(table: Table, rows: list[StoredEvent], after: int) -> list[Delivery]:
    """The deliveries ``rows`` (a game's events after seq ``after``) make for its
    subscriptions."""
    subscriptions = _subscriptions(table)
    if not subscriptions:
        return []
    definition = get_game(table.game)
    order = KINDS + definition.notice_kinds  # a delivery's type: the first of its kinds
    raised = folds.notices(table, definition, rows, after)
    users = {s.position: s.user_id for s in table.seat_set.all()}
    every = sorted(users)
    versions = _versions(rows)
    viewers = {sub.id: _viewer(table, sub) for sub in subscriptions}
    documents: dict[tuple[int, Any], dict[str, Any]] = {}  # (seq, viewer) -> event document
    out: list[Delivery] = []
    for row, told in zip(rows, raised, strict=True):
        notices = _seats(order, told, every)
        for sub in subscriptions:
            viewer = viewers[sub.id]
            everything = ALL in sub.kinds
            if viewer is None or sub.created_at > row.recorded_at:
                continue
            mine = {
                kind: seats
                for kind, seats in notices.items()
                if viewer.seat is None or viewer.seat in seats
            }
            wanted = [k for k in order if k in mine and (k in sub.kinds or everything)]
            if wanted:
                kind = wanted[0]
            elif everything:
                kind = EVENT
            else:
                continue
            key = (row.seq, viewer.access.viewer)
            if key not in documents:
                documents[key] = event_document(viewer.access, definition, row, revealed=False)
            out.append(
                _delivery(sub, table, row, kind, mine, users, versions, viewer, documents[key])
            )
    return out


def _delivery(
    sub: Subscription,
    table: Table,
    row: StoredEvent,
    kind: str,
    notices: dict[str, list[int]],
    users: dict[int, int | None],
    versions: dict[int, int],
    viewer: Viewer,
    document: dict[str, Any],
) -> Delivery:
    msg = message_id(sub.id, table.id, row.seq)
    body = {
        "id": msg,
        "type": kind,
        "timestamp": iso(row.recorded_at),
        "data": {
            "game_id": str(table.id),
            "game": table.game,
            "seq": row.seq,
            "version": versions[row.seq],
            "viewer": viewer.access.viewer,
            "seat": viewer.seat,
            "notices": [
                {"kind": k, "seats": seats, "users": [users.get(s) for s in seats]}
                for k, seats in notices.items()
            ],
            "event": document,
        },
    }
    return Delivery(
        message_id=msg,
        subscription_id=sub.id,
        stream_id=table.id,
        seq=row.seq,
        kind=kind,
        body=json.dumps(body, separators=(",", ":")),
        next_attempt_at=row.recorded_at,
    )


def build_rulings(table: Table, rulings: list[Ruling]) -> list[Delivery]:
    """The deliveries ``rulings`` (a game's next deciding rulings, in order) make: a
    ``game.finished`` for every subscription that gets the game's notices (``all`` too)
    and was made before the ruling, concerning every seat."""
    if not rulings:
        return []
    subscriptions = [s for s in _subscriptions(table) if FINISHED in s.kinds or ALL in s.kinds]
    if not subscriptions:
        return []
    users = {s.position: s.user_id for s in table.seat_set.all()}
    seats = sorted(users)
    notices = [{"kind": FINISHED, "seats": seats, "users": [users[s] for s in seats]}]
    viewers = {sub.id: _viewer(table, sub) for sub in subscriptions}
    out: list[Delivery] = []
    for ruling in rulings:
        for sub in subscriptions:
            viewer = viewers[sub.id]
            if viewer is None or sub.created_at > ruling.created_at:
                continue
            out.append(_ruling_delivery(sub, table, ruling, notices, viewer))
    return out


def _ruling_delivery(
    sub: Subscription,
    table: Table,
    ruling: Ruling,
    notices: list[dict[str, Any]],
    viewer: Viewer,
) -> Delivery:
    msg = ruling_message_id(sub.id, table.id, ruling.id)
    decided = Decided(ruling=ruling.id, kind=ruling.kind, winners=list(ruling.winners))
    body = {
        "id": msg,
        "type": FINISHED,
        "timestamp": iso(ruling.created_at),
        "data": {
            "game_id": str(table.id),
            "game": table.game,
            "seq": None,  # no event: the game ended where its events stop
            "version": ruling.version,
            "viewer": viewer.access.viewer,
            "seat": viewer.seat,
            "notices": notices,
            "event": None,
            "winners": decided.winners,
            "result": decided.document(),
            "ruling": _ruling_seen(viewer, ruling),
        },
    }
    return Delivery(
        message_id=msg,
        subscription_id=sub.id,
        stream_id=table.id,
        seq=ruling.version,
        ruling=ruling.id,
        kind=FINISHED,
        body=json.dumps(body, separators=(",", ":")),
        next_attempt_at=ruling.created_at,
    )


def _ruling_seen(viewer: Viewer, ruling: Ruling) -> dict[str, Any]:
    """The ruling as ``GET /games/{id}/rulings`` shows it to this viewer (a seat or a
    spectator, never staff: the relay reads as one). Rulings are shown to them once the
    game is over, which a deciding ruling makes it; before that, only what it decided."""
    if may_read_rulings(viewer.access.table, viewer.access.user):
        return ruling_document(ruling)
    return {"id": ruling.id, "kind": ruling.kind, "winners": list(ruling.winners)}


# --- finding games to relay --------------------------------------------------------------

_BEHIND = """
SELECT id FROM (
    SELECT t.id FROM games_table t
    LEFT JOIN webhooks_relaycursor c ON c.stream_id = t.id
    WHERE t.status <> 'open' AND NOT COALESCE(c.finished, false)
      AND COALESCE(c.seq, 0) < (
          SELECT coalesce(max(e.seq), 0) FROM events_storedevent e WHERE e.stream_id = t.id)
    UNION
    SELECT r.table_id FROM games_ruling r
    LEFT JOIN webhooks_relaycursor c ON c.stream_id = r.table_id
    WHERE r.kind IN ('award', 'void') AND r.id > COALESCE(c.ruling, 0)
) AS behind
LIMIT %s
"""


def mark_relayed(stream_id: uuid.UUID) -> None:
    """A game restored from a record (``manage.py import_game``) is history, not news:
    its cursor starts at its last event and its latest deciding ruling, finished, so the
    relay sends none of its notices (in the caller's transaction, with the restore)."""
    last = StoredEvent.objects.filter(stream_id=stream_id).order_by("-seq").first()
    deciding = (
        Ruling.objects.filter(table_id=stream_id, kind__in=["award", "void"])
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    RelayCursor.objects.update_or_create(
        stream_id=stream_id,
        defaults={"seq": last.seq if last else 0, "ruling": deciding or 0, "finished": True},
    )


def behind(limit: int = 1000) -> list[uuid.UUID]:
    """Games with committed events or deciding rulings the relay has not relayed yet (a
    missed notification, a relay that was down); a finished game only for a ruling."""
    with connection.cursor() as cursor:
        cursor.execute(_BEHIND, [limit])
        return [row[0] for row in cursor.fetchall()]


# A game is behind when the event after its cursor exists (seqs have no gaps): one index
# probe per game, and that event's time is how long the game has waited.
_LAG = """
SELECT count(DISTINCT game), min(since) FROM (
    SELECT t.id AS game, e.recorded_at AS since FROM games_table t
    LEFT JOIN webhooks_relaycursor c ON c.stream_id = t.id
    JOIN events_storedevent e ON e.stream_id = t.id AND e.seq = COALESCE(c.seq, 0) + 1
    WHERE t.status <> 'open' AND NOT COALESCE(c.finished, false)
    UNION ALL
    SELECT r.table_id, r.created_at FROM games_ruling r
    LEFT JOIN webhooks_relaycursor c ON c.stream_id = r.table_id
    WHERE r.kind IN ('award', 'void') AND r.id > COALESCE(c.ruling, 0)
) AS behind
"""


def lag() -> tuple[int, datetime | None]:
    """How far behind the relay is: the games ``behind`` would find, and when the oldest
    event or deciding ruling not relayed yet was recorded (None: nothing waits)."""
    with connection.cursor() as cursor:
        cursor.execute(_LAG)
        games, oldest = cursor.fetchone()
    return int(games), oldest


def relay_all(streams: Iterable[uuid.UUID] | None = None) -> int:
    """Relay ``streams`` (default: every game that is behind); returns deliveries made."""
    made = 0
    for stream_id in behind() if streams is None else streams:
        made += relay_stream(stream_id)
    return made
