"""The event store on real PostgreSQL: append-only, chained, and safe under races."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import DatabaseError, connection, transaction

from events.chain import GENESIS, chain_hash
from events.models import CommandRecord, StoredEvent
from events.store import ConcurrencyConflict, NewEvent, append, body_of, read, stream_version


def _events(n: int, tag: str = "x") -> list[NewEvent]:
    return [NewEvent("test.Happened", {"n": i, "tag": tag}) for i in range(n)]


@pytest.mark.django_db
def test_appended_events_are_numbered_without_gaps_and_hash_chained() -> None:
    stream = uuid.uuid4()
    append(stream_id=stream, expected_version=0, events=_events(3), actor="system")
    append(stream_id=stream, expected_version=3, events=_events(2), actor="user:1")
    rows = read(stream)
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5]
    prev = GENESIS
    for row in rows:
        assert row.prev_hash == prev
        assert row.hash == chain_hash(prev, body_of(row))
        prev = row.hash
    assert stream_version(stream) == 5


@pytest.mark.django_db
def test_appending_at_a_stale_or_future_version_is_a_conflict() -> None:
    stream = uuid.uuid4()
    append(stream_id=stream, expected_version=0, events=_events(2), actor="system")
    with pytest.raises(ConcurrencyConflict):
        append(stream_id=stream, expected_version=1, events=_events(1), actor="system")
    with pytest.raises(ConcurrencyConflict):
        append(stream_id=stream, expected_version=7, events=_events(1), actor="system")
    assert stream_version(stream) == 2  # and the transaction is still usable


@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events_storedevent SET payload = '{}'",
        "DELETE FROM events_storedevent",
        "UPDATE events_commandrecord SET outcome = 'refused'",
        "DELETE FROM events_commandrecord",
    ],
)
def test_the_database_refuses_to_change_or_delete_history(statement: str) -> None:
    stream = uuid.uuid4()
    append(stream_id=stream, expected_version=0, events=_events(1), actor="system")
    CommandRecord.objects.create(
        stream_id=stream,
        command_id=uuid.uuid4(),
        actor="system",
        command={},
        now_ms=0,
        outcome="accepted",
    )
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert StoredEvent.objects.filter(stream_id=stream).get().payload == {"n": 0, "tag": "x"}


@pytest.mark.django_db
@pytest.mark.parametrize("table", ["events_storedevent", "events_commandrecord"])
def test_the_database_refuses_to_truncate_history(table: str) -> None:
    append(stream_id=uuid.uuid4(), expected_version=0, events=_events(1), actor="system")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL fbservice.allow_truncate = 'off'")
        cursor.execute(f"TRUNCATE {table}")
    assert StoredEvent.objects.exists()


@pytest.mark.django_db
def test_the_orm_cannot_update_an_event_either() -> None:
    stream = uuid.uuid4()
    [row] = append(stream_id=stream, expected_version=0, events=_events(1), actor="system")
    row = StoredEvent.objects.get(pk=row.pk)
    row.payload = {"forged": True}
    with pytest.raises(DatabaseError), transaction.atomic():
        row.save()


@pytest.mark.django_db(transaction=True)
def test_two_writers_racing_for_one_version_exactly_one_wins() -> None:
    stream = uuid.uuid4()
    append(stream_id=stream, expected_version=0, events=_events(1), actor="system")
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def writer(i: int) -> None:
        try:
            barrier.wait()
            with transaction.atomic():
                append(
                    stream_id=stream,
                    expected_version=1,
                    events=_events(2, f"w{i}"),
                    actor=f"user:{i}",
                )
            outcomes.append("won")
        except ConcurrencyConflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 7 + ["won"]
    rows = read(stream)
    assert [r.seq for r in rows] == [1, 2, 3]
    assert len({r.payload["tag"] for r in rows[1:]}) == 1  # both events of one writer
