"""Rulings inside the record's proof (games.ruling_chain). A security campaign added a
forged ``award`` ruling to an exported record and it still verified: a tournament's results
rest on rulings. Now each ruling's hash covers the previous ruling's and the game's event
it was recorded at, so a ruling added, removed, altered or moved fails ``games.verify``,
which names the ruling; the chain is written with the ruling, under the events' locking
(two rulings racing never fork it); a migration chains the rulings recorded before."""

from __future__ import annotations

import copy
import json
import threading
import time
import uuid
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from events.models import StoredEvent
from games import reviews
from games.errors import ServiceError
from games.models import Ruling, RulingLink, Table
from games.record import game_export
from games.ruling_chain import GENESIS, ruling_hash
from games.verify import main, record_ruling_body, summary, verify_record
from tests.factories import UserFactory
from tests.service.helpers import human_table, run

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_password_hashing")]


def director() -> Any:
    return UserFactory(username="director", is_staff=True)


def rule(table: Table, kind: str = "note", **kw: Any) -> dict[str, Any]:
    return reviews.ruling_record(
        table=Table.objects.get(id=table.id),
        user=director(),
        kind=kind,
        reason=kw.pop("reason", f"A {kind}."),
        **kw,
    )


@pytest.fixture
def ruled() -> Table:
    """A three-seat game with four rulings: a note during play, then (once alice and carol
    resigned, bob winning) an award to carol, a void, and a note."""
    table = human_table(3)
    rule(table, "note", reason="alice was warned for slow play.", seq=2)
    run(table, 0, {"type": "resign"})
    run(table, 2, {"type": "resign"})
    rule(table, "award", winners=[2], reason="carol's resignation was a misclick.")
    rule(table, "void", reason="Both results disputed.")
    rule(table, "note", reason="Players informed.")
    table.refresh_from_db()
    return table


def export(table: Table) -> dict[str, Any]:
    return json.loads(json.dumps(game_export(table)))  # as a file would hold it


def rechain(record: dict[str, Any]) -> None:
    """What a forger who knows the scheme does: renumber and re-hash every ruling."""
    hashes = [e["hash"] for e in record["events"]]
    prev = GENESIS
    for n, r in enumerate(record["rulings"], start=1):
        r["n"], r["prev_hash"] = n, prev
        at = hashes[r["version"] - 1] if r["version"] else GENESIS
        r["hash"] = prev = ruling_hash(prev, record_ruling_body(record["stream_id"], r, at))


def failure(record: dict[str, Any], **kw: Any) -> str:
    report = verify_record(record, **kw)
    assert not report.ok, "a tampered record verified"
    assert len(report.problems) == 1
    return report.problems[0]


# --- an export proves its rulings --------------------------------------------------------


def test_an_export_covers_its_rulings_and_verifies(ruled) -> None:
    record = export(ruled)
    assert record["format"] == "fbservice.game-record/2"
    assert record["covers"] == ["events", "rulings"]
    assert [(r["n"], r["kind"]) for r in record["rulings"]] == [
        (1, "note"),
        (2, "award"),
        (3, "void"),
        (4, "note"),
    ]
    report = verify_record(record)
    assert report.ok, report.problems
    assert report.rulings_checked == 4 and report.covers == ("events", "rulings")
    head = record["rulings"][-1]["hash"]
    assert report.rulings_head == head
    assert summary(report).endswith(f"rulings chain intact: 4 rulings, head {head}")
    # the head is what the API publishes with the latest ruling; checked against it
    assert verify_record(record, rulings_head=head).ok
    # each ruling is anchored to the event it was made at
    first = record["rulings"][0]
    at = record["events"][first["version"] - 1]["hash"]
    assert first["prev_hash"] == GENESIS
    assert first["hash"] == ruling_hash(GENESIS, record_ruling_body(record["stream_id"], first, at))


def test_a_game_with_no_rulings_verifies_with_an_empty_chain() -> None:
    table = human_table(2)
    run(table, 1, {"type": "resign"})
    table.refresh_from_db()
    record = export(table)
    report = verify_record(record)
    assert report.ok and report.rulings_checked == 0 and report.rulings_head == GENESIS
    assert summary(report).endswith("; no rulings")
    assert not verify_record(record, rulings_head="ab" * 32).ok


# --- tampering: added, removed, altered, reordered ----------------------------------------


def test_a_forged_ruling_added_fails_naming_it(ruled) -> None:
    record = export(ruled)
    real = record["rulings"][-1]
    forged = {
        **copy.deepcopy(real),
        "id": real["id"] + 1,
        "n": 5,
        "kind": "award",
        "winners": [0],
        "reason": "alice wins.",
        "prev_hash": real["hash"],
        "hash": real["hash"],  # any hash the forger cannot compute right
    }
    at_end = copy.deepcopy(record)
    at_end["rulings"].append(forged)
    problem = failure(at_end)
    assert problem.startswith(f"ruling 5 (id {forged['id']}): hash does not match")

    # slipped in between: the forged one and those after it no longer chain
    between = copy.deepcopy(record)
    between["rulings"].insert(2, {**forged, "n": 3, "prev_hash": record["rulings"][1]["hash"]})
    problem = failure(between)
    assert problem.startswith(f"ruling 3 (id {forged['id']}): hash does not match")


def test_a_forged_ruling_over_a_recomputed_chain_fails_against_the_published_head(
    ruled,
) -> None:
    """The chain is a commitment: a forger who re-hashes everything makes a chain that
    holds together, but not one that ends where the published head says."""
    record = export(ruled)
    head = record["rulings"][-1]["hash"]
    forged = copy.deepcopy(record)
    forged["rulings"].append(
        {**copy.deepcopy(record["rulings"][1]), "id": 99, "winners": [0], "reason": "x"}
    )
    rechain(forged)
    assert verify_record(forged).ok  # nothing inside a record can tell...
    problem = failure(forged, rulings_head=head)  # ...the published head can
    assert problem.startswith("the rulings chain ends at") and head in problem
    # and a recomputed forgery must still say what a ruling may say
    impossible = copy.deepcopy(record)
    impossible["rulings"][1]["winners"] = [7]  # a three-seat game
    rechain(impossible)
    problem = failure(impossible)
    assert problem.startswith(f"ruling 2 (id {record['rulings'][1]['id']}): an award names")


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_ruling_removed_fails_naming_the_one_after_it(ruled, index) -> None:
    record = export(ruled)
    after = record["rulings"][index + 1]
    del record["rulings"][index]
    problem = failure(record)
    assert problem.startswith(f"ruling {index + 1} (id {after['id']}): says it is ruling")
    for n, r in enumerate(record["rulings"], start=1):
        r["n"] = n  # renumbered: the link itself breaks
    problem = failure(record)
    assert problem.startswith(f"ruling {index + 1} (id {after['id']}): prev_hash does not")


def test_the_latest_ruling_removed_fails_against_the_published_head(ruled) -> None:
    record = export(ruled)
    head = record["rulings"][-1]["hash"]
    record["rulings"].pop()
    assert verify_record(record).ok  # a shorter chain holds together on its own
    problem = failure(record, rulings_head=head)
    assert "3 rulings" in problem and "cut from its end" in problem


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("winners", lambda _: [0]),  # the award given to another seat
        ("kind", lambda _: "void"),
        ("reason", lambda _: "alice's resignation was a misclick."),
        ("seq", lambda _: 1),
        ("version", lambda _: 3),  # moved to another point of the game
        ("created_at", lambda _: "2020-01-01T00:00:00+00:00"),
        ("author", lambda a: {**a, "id": a["id"] + 1}),  # someone else's ruling
        ("id", lambda i: i + 1000),
    ],
)
def test_a_ruling_altered_fails_naming_it(ruled, field, change) -> None:
    record = export(ruled)
    award = record["rulings"][1]
    before = award[field]
    award[field] = change(before)
    assert award[field] != before
    problem = failure(record)
    assert problem.startswith(f"ruling 2 (id {award['id']}): hash does not match")


def test_the_authors_name_is_shown_not_proven(ruled) -> None:
    """Usernames may change; the author's id is what the hash covers."""
    record = export(ruled)
    record["rulings"][1]["author"]["name"] = "renamed"
    assert verify_record(record).ok


def test_rulings_reordered_fail(ruled) -> None:
    record = export(ruled)
    first, second = record["rulings"][1], record["rulings"][2]
    record["rulings"][1], record["rulings"][2] = second, first
    problem = failure(record)
    assert problem.startswith(f"ruling 2 (id {second['id']}): says it is ruling 3")
    second["n"], first["n"] = 2, 3
    problem = failure(record)
    assert problem.startswith(f"ruling 2 (id {second['id']}): prev_hash does not match")


def test_a_record_that_claims_less_than_its_format_covers_fails(ruled) -> None:
    record = export(ruled)
    record["covers"] = ["events"]
    assert failure(record).startswith("the record says its proof covers ['events']")
    del record["covers"]
    assert not verify_record(record).ok
    record["format"] = "fbservice.game-record/1"  # passed off as an older format...
    report = verify_record(record)
    assert report.ok and "rulings not covered" in summary(report)  # ...it says so
    assert not verify_record(record, rulings_head=ruled_head(ruled)).ok


def ruled_head(table: Table) -> str:
    return RulingLink.objects.filter(table=table).order_by("-n").values_list("hash", flat=True)[0]


def test_the_command_line_names_the_broken_ruling(ruled, tmp_path, capsys) -> None:
    record = export(ruled)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out = StringIO()
    call_command("verify_game", str(path), stdout=out)
    assert "rulings chain intact: 4 rulings" in out.getvalue()
    head = record["rulings"][-1]["hash"]
    assert main([str(path), "--rulings-head", head]) == 0
    assert f"head {head}" in capsys.readouterr().out

    record["rulings"][3]["reason"] = "Players were not informed."
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match=r"ruling 4 \(id \d+\): hash does not match"):
        call_command("verify_game", str(path), stdout=StringIO())
    assert main([str(path)]) == 1
    assert "FAILED: ruling 4 (id" in capsys.readouterr().err


# --- written with the ruling: API, storage, append-only ---------------------------------


def test_each_ruling_is_stored_with_its_link_and_the_api_shows_it(ruled) -> None:
    links = list(RulingLink.objects.filter(table=ruled).order_by("n"))
    rulings = list(Ruling.objects.filter(table=ruled).order_by("id"))
    assert [link.ruling_id for link in links] == [r.id for r in rulings]  # id order
    assert [link.n for link in links] == [1, 2, 3, 4]
    assert [link.prev_hash for link in links] == [GENESIS] + [x.hash for x in links[:-1]]
    shown = reviews.ruling_documents(ruled)
    assert [(r["n"], r["prev_hash"], r["hash"]) for r in shown] == [
        (x.n, x.prev_hash, x.hash) for x in links
    ]
    for sql in ("UPDATE games_rulinglink SET n = 9", "DELETE FROM games_rulinglink"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql)


def test_a_refused_ruling_leaves_no_link() -> None:
    table = human_table(2)
    rule(table, "note")
    with pytest.raises(ServiceError) as refused:
        rule(table, "note", seq=10_000)
    assert refused.value.code == "position_out_of_range"
    assert RulingLink.objects.filter(table=table).count() == 1
    assert Ruling.objects.filter(table=table).count() == 1


# --- racing rulings never fork the chain -----------------------------------------------


def _waiting_on_a_lock(timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.02)
    raise AssertionError("the second ruling never waited for the first")


@pytest.mark.django_db(transaction=True)
def test_a_ruling_that_lost_the_race_for_its_place_is_recorded_after_the_winner() -> None:
    """The first ruling holds place 1 (uncommitted) when the second, which read an empty
    chain, tries to take it too: the second waits on the unique (table, n), loses, and is
    recorded again at place 2, chained to the first."""
    table = human_table(2)
    director()
    first_in = threading.Event()
    release = threading.Event()
    made: dict[str, Any] = {}
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                made["first"] = rule(table, "note", reason="first")
                first_in.set()
                assert release.wait(20)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            first_in.set()
        finally:
            connection.close()

    def second() -> None:
        try:
            assert first_in.wait(20)
            made["second"] = rule(table, "award", winners=[1], reason="second")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    try:
        assert first_in.wait(20)
        _waiting_on_a_lock()
    finally:
        release.set()
        for t in threads:
            t.join(30)
    assert errors == []
    a, b = made["first"], made["second"]
    assert (a["n"], b["n"]) == (1, 2)
    assert b["prev_hash"] == a["hash"] and b["id"] > a["id"]
    table.refresh_from_db()
    report = verify_record(export(table))
    assert report.ok and report.rulings_checked == 2, report.problems


@pytest.mark.django_db(transaction=True)
def test_directors_racing_on_one_game_make_one_chain() -> None:
    table = human_table(2)
    run(table, 1, {"type": "resign"})
    director()
    writers = 6
    barrier = threading.Barrier(writers)
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            barrier.wait()
            rule(table, "note", reason=f"note {i}")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    links = list(RulingLink.objects.filter(table=table).order_by("n"))
    assert [x.n for x in links] == list(range(1, writers + 1))
    assert [x.prev_hash for x in links] == [GENESIS] + [x.hash for x in links[:-1]]
    table.refresh_from_db()
    report = verify_record(export(table))
    assert report.ok and report.rulings_checked == writers, report.problems


# --- the migration chains the rulings recorded before it --------------------------------

BEFORE = [("games", "0008_ruled_games_take_no_appends")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_chains_the_rulings_recorded_before_it() -> None:
    two = human_table(2)
    run(two, 1, {"type": "resign"})
    three = human_table(3, seed="other")
    staff = director()
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps.get_model("games", "Ruling")
        recorded = [  # interleaved between the games, as they came
            (two, "note", [], 3),
            (three, "note", [], 5),
            (two, "award", [0], None),
            (three, "void", [], None),
            (two, "note", [], None),
        ]
        for table, kind, winners, seq in recorded:
            version = StoredEvent.objects.filter(stream_id=table.id).count()
            old.objects.create(
                table_id=table.id,
                kind=kind,
                winners=winners,
                reason=f"{kind} before the chain",
                seq=seq,
                version=version,
                author_id=staff.pk,
            )
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    finally:
        MigrationExecutor(connection).migrate(latest)  # whatever happened above

    for table, count in ((two, 3), (three, 2)):
        links = list(RulingLink.objects.filter(table=table).order_by("n"))
        ids = list(Ruling.objects.filter(table=table).order_by("id").values_list("id", flat=True))
        assert [x.ruling_id for x in links] == ids and len(ids) == count
        table.refresh_from_db()
        report = verify_record(export(table))
        assert report.ok and report.rulings_checked == count, report.problems
    # and the chain goes on from there
    made = rule(two, "note", reason="after the chain")
    assert made["n"] == 4
    assert made["prev_hash"] == RulingLink.objects.get(table=two, n=3).hash
    two.refresh_from_db()
    assert verify_record(export(two)).rulings_checked == 4


def test_ids_in_the_chain_are_the_rulings_own() -> None:
    """A ruling's id is in its hash: the id the API's ``result.ruling`` names is proven."""
    table = human_table(2)
    made = rule(table, "void", reason="void")
    table.refresh_from_db()
    record = export(table)
    assert (
        record["rulings"][0]["id"] == made["id"] == Table.objects.get(id=table.id).rulings.get().id
    )
    assert uuid.UUID(record["stream_id"]) == table.id
