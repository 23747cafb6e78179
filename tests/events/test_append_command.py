"""``append_command`` on real PostgreSQL: an accepted command's events, its record and the
``Also`` statements land in one statement, all or nothing; the unique constraints tell a
lost race (``ConcurrencyConflict``) from a command seen before (``CommandSeenBefore``).
``read_tail`` reads from event ``since`` itself."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from events.chain import GENESIS, chain_hash
from events.models import CommandRecord, Snapshot, StoredEvent
from events.store import (
    Also,
    CommandSeenBefore,
    ConcurrencyConflict,
    NewEvent,
    append,
    append_command,
    body_of,
    read,
    read_tail,
    stream_version,
)


def _events(n: int, tag: str = "x") -> list[NewEvent]:
    return [NewEvent("test.Happened", {"n": i, "tag": tag, "seat": i % 2}) for i in range(n)]


def _last_hash(stream: uuid.UUID) -> str:
    version = stream_version(stream)
    if not version:
        return GENESIS
    return StoredEvent.objects.get(stream_id=stream, seq=version).hash


def _snapshot_insert(stream: uuid.UUID, version: int) -> Also:
    """A visible side effect to ride along: a snapshot row (events_snapshot has no FK)."""
    return Also(
        "INSERT INTO events_snapshot (stream_id, version, rules_version, state, created_at) "
        "VALUES (%s, %s, 1, '{\"k\": 1}'::jsonb, now()) RETURNING stream_id, version, state",
        [stream, version],
    )


def _command(
    stream: uuid.UUID,
    expected: int,
    n: int = 2,
    *,
    command_id: uuid.UUID | None = None,
    tag: str = "x",
    also: list[Also] | None = None,
    prev_hash: str | None = None,
    seat: int | None = 1,
    metadata: dict[str, Any] | None = None,
):
    return append_command(
        stream_id=stream,
        expected_version=expected,
        prev_hash=prev_hash if prev_hash is not None else _last_hash(stream),
        events=_events(n, tag),
        actor=f"user:{tag}",
        command_id=command_id or uuid.uuid4(),
        seat=seat,
        command={"type": "test", "tag": tag},
        expected_by_client=expected,
        now_ms=123,
        metadata=metadata,
        also=also or [],
    )


def _assert_chained(stream: uuid.UUID) -> None:
    prev = GENESIS
    rows = read(stream)
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert row.prev_hash == prev
        assert row.hash == chain_hash(prev, body_of(row))  # as stored, not as sent
        prev = row.hash


@pytest.mark.django_db
def test_events_record_and_also_rows_are_written_together() -> None:
    stream = uuid.uuid4()
    command_id = uuid.uuid4()
    rows, returned = _command(
        stream,
        0,
        3,
        command_id=command_id,
        also=[
            _snapshot_insert(stream, 3),
            Also("UPDATE events_snapshot SET version = 9 WHERE false RETURNING id", []),
        ],
        metadata={"request_id": "r-1"},
    )
    assert [r.seq for r in rows] == [1, 2, 3]
    assert returned == [{"stream_id": str(stream), "version": 3, "state": {"k": 1}}, None]
    stored = read(stream)
    assert [(r.seq, r.hash, r.payload) for r in stored] == [
        (r.seq, r.hash, r.payload) for r in rows
    ]
    assert {r.actor for r in stored} == {"user:x"}
    assert {r.command_id for r in stored} == {command_id}
    assert all(r.metadata == {"seat": 1, "request_id": "r-1"} for r in stored)
    record = CommandRecord.objects.get(stream_id=stream, command_id=command_id)
    assert (
        record.outcome,
        record.actor,
        record.seat,
        record.command,
        record.expected_version,
        record.now_ms,
        record.first_seq,
        record.last_seq,
        record.metadata,
        record.error_code,
    ) == (
        "accepted",
        "user:x",
        1,
        {"type": "test", "tag": "x"},
        0,
        123,
        1,
        3,
        {"request_id": "r-1"},
        "",
    )
    assert record.recorded_at == stored[0].recorded_at
    assert Snapshot.objects.filter(stream_id=stream, version=3).exists()
    _assert_chained(stream)


@pytest.mark.django_db
def test_a_second_append_at_the_same_version_is_a_conflict_and_writes_nothing() -> None:
    stream = uuid.uuid4()
    _command(stream, 0, 2, tag="first")
    stale = _last_hash(stream)  # what a second writer that loaded version 2 chains to
    _command(stream, 2, 1, tag="winner")
    loser = uuid.uuid4()
    with pytest.raises(ConcurrencyConflict) as conflict:
        _command(
            stream,
            2,
            3,
            command_id=loser,
            tag="loser",
            prev_hash=stale,
            also=[_snapshot_insert(stream, 5)],
        )
    assert (conflict.value.stream_id, conflict.value.expected_version) == (stream, 2)
    assert stream_version(stream) == 3
    assert not StoredEvent.objects.filter(stream_id=stream, payload__tag="loser").exists()
    assert not CommandRecord.objects.filter(command_id=loser).exists()
    assert not Snapshot.objects.filter(stream_id=stream).exists()  # the Also rolled back too
    assert CommandRecord.objects.filter(stream_id=stream).count() == 2
    _assert_chained(stream)


@pytest.mark.django_db
def test_a_command_id_seen_before_is_reported_as_such_and_writes_no_events() -> None:
    stream = uuid.uuid4()
    command_id = uuid.uuid4()
    _command(stream, 0, 2, command_id=command_id)
    with pytest.raises(CommandSeenBefore):  # at the current version: only the record trips
        _command(
            stream, 2, 2, command_id=command_id, tag="again", also=[_snapshot_insert(stream, 4)]
        )
    assert stream_version(stream) == 2
    assert not StoredEvent.objects.filter(stream_id=stream, payload__tag="again").exists()
    assert CommandRecord.objects.filter(stream_id=stream).count() == 1
    assert not Snapshot.objects.filter(stream_id=stream).exists()
    # the same id on another stream is another command
    other = uuid.uuid4()
    _command(other, 0, 1, command_id=command_id)
    assert stream_version(other) == 1


@pytest.mark.django_db
def test_a_failing_also_statement_takes_the_events_and_record_with_it() -> None:
    stream = uuid.uuid4()
    command_id = uuid.uuid4()
    with pytest.raises(DatabaseError):
        _command(stream, 0, 2, command_id=command_id, also=[Also("SELECT 1 / 0 AS boom", [])])
    # the caller's (the test's) transaction is still usable, and nothing was written
    assert stream_version(stream) == 0
    assert not CommandRecord.objects.filter(command_id=command_id).exists()
    _command(stream, 0, 2, command_id=command_id)
    assert stream_version(stream) == 2


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_a_conflict_leaves_it_usable() -> None:
    stream = uuid.uuid4()
    _command(stream, 0, 1, tag="before")  # autocommit: no transaction around it
    assert not connection.in_atomic_block
    with transaction.atomic():
        _command(stream, 1, 2, tag="inside")
        with pytest.raises(ConcurrencyConflict):
            _command(stream, 1, 1, tag="lost")
        command_id = CommandRecord.objects.get(stream_id=stream, command__tag="inside").command_id
        with pytest.raises(CommandSeenBefore):
            _command(stream, 3, 1, command_id=command_id, tag="twin")
        assert stream_version(stream) == 3  # still usable: this query runs
        _command(stream, 3, 1, tag="after")
    assert [r.payload["tag"] for r in read(stream)] == ["before", "inside", "inside", "after"]
    assert CommandRecord.objects.filter(stream_id=stream).count() == 3
    _assert_chained(stream)


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_caller_takes_the_append_with_it() -> None:
    stream = uuid.uuid4()
    _command(stream, 0, 1)
    with pytest.raises(RuntimeError), transaction.atomic():
        _command(stream, 1, 2, also=[_snapshot_insert(stream, 3)])
        raise RuntimeError("the caller gives up")
    assert stream_version(stream) == 1
    assert CommandRecord.objects.filter(stream_id=stream).count() == 1
    assert not Snapshot.objects.filter(stream_id=stream).exists()


@pytest.mark.django_db(transaction=True)
def test_a_conflict_outside_any_transaction_writes_nothing_and_the_connection_goes_on() -> None:
    stream = uuid.uuid4()
    _command(stream, 0, 2)
    loser = uuid.uuid4()
    with pytest.raises(ConcurrencyConflict):
        _command(stream, 1, 2, command_id=loser, prev_hash=read(stream)[0].hash)
    assert not connection.in_atomic_block
    assert not CommandRecord.objects.filter(command_id=loser).exists()
    _command(stream, 2, 1)
    assert stream_version(stream) == 3
    _assert_chained(stream)


@pytest.mark.django_db
def test_append_and_append_command_chain_into_one_verifiable_stream() -> None:
    stream = uuid.uuid4()
    append(stream_id=stream, expected_version=0, events=_events(2, "setup"), actor="system")
    _command(stream, 2, 3, tag="cmd")
    append(stream_id=stream, expected_version=5, events=_events(1, "marker"), actor="system")
    _command(stream, 6, 1, tag="cmd2")
    _assert_chained(stream)
    assert stream_version(stream) == 7


@pytest.mark.django_db
def test_read_tail_starts_at_event_since_itself() -> None:
    stream = uuid.uuid4()
    _command(stream, 0, 2, seat=0)
    append(stream_id=stream, expected_version=2, events=_events(1, "sys"), actor="system")
    stored = read(stream)
    tail = read_tail(stream, since=2)
    assert [t.seq for t in tail] == [2, 3]
    assert [t.hash for t in tail] == [r.hash for r in stored[1:]]
    assert [t.seat for t in tail] == [0, None]  # the seat from the event's metadata
    assert tail[0].command_id == stored[1].command_id and tail[1].command_id is None
    assert tail[0].payload == stored[1].payload and tail[0].actor == "user:x"
    assert [t.seq for t in read_tail(stream, since=0)] == [1, 2, 3]
    assert [t.seq for t in read_tail(stream, since=1, upto=2)] == [1, 2]
    assert read_tail(stream, since=4) == []


@pytest.mark.django_db(transaction=True)
def test_writers_racing_with_append_command_exactly_one_wins() -> None:
    stream = uuid.uuid4()
    _command(stream, 0, 1, tag="base")
    prev = _last_hash(stream)
    writers = 8
    barrier = threading.Barrier(writers)
    outcomes: dict[int, str] = {}

    def writer(i: int) -> None:
        try:
            barrier.wait()
            _command(
                stream,
                1,
                2,
                tag=f"w{i}",
                prev_hash=prev,
                also=[_snapshot_insert(stream, 3)],
            )
            outcomes[i] = "won"
        except ConcurrencyConflict:
            outcomes[i] = "conflict"
        except Exception as exc:  # a deadlock, say: must not happen
            outcomes[i] = repr(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes.values()) == ["conflict"] * (writers - 1) + ["won"]
    [winner] = [i for i, o in outcomes.items() if o == "won"]
    rows = read(stream)
    assert [r.seq for r in rows] == [1, 2, 3]
    assert {r.payload["tag"] for r in rows[1:]} == {f"w{winner}"}
    assert list(
        CommandRecord.objects.filter(stream_id=stream).values_list("command__tag", flat=True)
    ) == ["base", f"w{winner}"]
    assert Snapshot.objects.filter(stream_id=stream).count() == 1
    _assert_chained(stream)


@pytest.mark.django_db(transaction=True)
def test_twins_racing_with_one_command_id_land_once() -> None:
    """A retried command racing its first attempt from the same version: one lands, the
    other hears either of the two refusals (whichever constraint it trips first)."""
    stream = uuid.uuid4()
    _command(stream, 0, 1, tag="base")
    prev = _last_hash(stream)
    command_id = uuid.uuid4()
    twins = 6
    barrier = threading.Barrier(twins)
    outcomes: list[str] = []

    def twin(i: int) -> None:
        try:
            barrier.wait()
            _command(stream, 1, 2, command_id=command_id, tag=f"t{i}", prev_hash=prev)
            outcomes.append("won")
        except (ConcurrencyConflict, CommandSeenBefore):
            outcomes.append("refused")
        except Exception as exc:
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=twin, args=(i,)) for i in range(twins)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused"] * (twins - 1) + ["won"]
    assert stream_version(stream) == 3
    assert CommandRecord.objects.filter(stream_id=stream, command_id=command_id).count() == 1
    _assert_chained(stream)
