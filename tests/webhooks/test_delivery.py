"""Deliveries for real: receivers on 127.0.0.1 (their own processes), a Celery worker on
the configured broker whose relay thread turns committed events into deliveries, the
test database. Each test plays through the service in this process, as the API would."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import transaction
from django.db.models import Count

from events.models import StoredEvent
from games.service import game_command_execute, game_load
from tests.timers.conftest import database_url
from tests.webhooks.conftest import Receiver
from tests.webhooks.helpers import move, play_out, rule, started_table, subscribe, users
from webhooks import services, signing
from webhooks.models import Delivery, Subscription

DOCS = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


def settle(subscription: Subscription, timeout: float = 120) -> list[Delivery]:
    """Wait until the relay has caught up and no delivery of ``subscription`` is pending."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pending = Delivery.objects.filter(subscription=subscription, status="pending").count()
        behind = StoredEvent.objects.count() and _relay_behind()
        if not pending and not behind:
            return list(Delivery.objects.filter(subscription=subscription).order_by("seq", "id"))
        time.sleep(0.2)
    raise AssertionError(f"deliveries still pending after {timeout}s")


@contextmanager
def rolled_back_after_sweeps() -> Iterator[None]:
    """What the block appends stays uncommitted for 2 s (the relay sweeps meanwhile: it
    must not see it) and is rolled back; then 2 s more, for the relay to sweep again."""

    class Abort(Exception):
        pass

    try:
        with transaction.atomic():
            yield
            time.sleep(2.0)
            raise Abort
    except Abort:
        pass
    time.sleep(2.0)


def _relay_behind() -> bool:
    from webhooks.relay import behind

    return bool(behind())


def docs_receiver_script(tmp: Path) -> Path:
    text = DOCS.read_text()
    section = text.split("## A receiver in Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    path = tmp / "docs_receiver.py"
    path.write_text(code.group(1))
    return path


def test_signed_deliveries_in_order_and_a_receiver_written_from_the_docs_verifies_them(
    webhook_worker, receiver, tmp_path: Path
) -> None:
    alice, bob, carol = players = users("alice", "bob", "carol")
    plain = receiver()
    to_alice = subscribe(alice, plain.url, ["all"])
    docs = Receiver(tmp_path, script=docs_receiver_script(tmp_path))
    to_bob = subscribe(bob, docs.url, ["turn.started", "window.opened", "game.finished"])
    docs.env = {"WEBHOOK_SECRET": to_bob.secret}
    docs.start()
    webhook_worker()
    table = started_table(players, reaction_seconds=300)
    play_out(table, players)
    delivered = settle(to_alice)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    assert [d.seq for d in delivered] == [r.seq for r in rows]
    assert {d.status for d in delivered} == {"delivered"}
    got = plain.wait_for(len(rows))
    assert len(got) == len(rows)  # no duplicates either
    by_id = {d.message_id: d for d in delivered}
    seqs = []
    for message in sorted(got, key=lambda m: m["at"]):
        headers, body = message["headers"], message["body"].encode()
        signing.verify(to_alice.secret, headers, body, now=message["at"])
        assert by_id[headers["webhook-id"]].body == message["body"]
        seqs.append(json.loads(body)["data"]["seq"])
    assert seqs == [r.seq for r in rows]  # in order

    bob_deliveries = settle(to_bob)
    assert bob_deliveries and {d.status for d in bob_deliveries} == {"delivered"}
    assert {d.attempts for d in bob_deliveries} == {1}  # the docs' receiver took each at once
    docs.stop()
    assert docs.proc is None
    out = docs_out(docs)
    verified = [line.split()[1] for line in out if line.startswith("verified")]
    assert verified == [d.message_id for d in bob_deliveries]


def docs_out(rec: Receiver) -> list[str]:
    return rec.stdout_lines


def test_a_receiver_down_for_a_while_gets_every_delivery_after_in_order(
    webhook_worker, receiver
) -> None:
    players = users("alice", "bob")
    down = receiver(start=False)  # its port is known, nothing listens yet
    sub = subscribe(players[0], down.url, ["all"])
    webhook_worker()
    table = started_table(players, reaction_seconds=300)
    for _ in range(15):
        move(table, players)
    deadline = time.monotonic() + 30
    while not Delivery.objects.filter(subscription=sub, attempts__gte=2).exists():
        assert time.monotonic() < deadline, "no retries seen"
        time.sleep(0.1)
    failing = Delivery.objects.filter(subscription=sub, attempts__gte=1).order_by("seq").first()
    assert failing is not None and "Connection refused" in failing.last_error
    # the lane waits behind its head: nothing later in the game was attempted
    assert not Delivery.objects.filter(subscription=sub, seq__gt=failing.seq, attempts__gt=0)
    down.start()
    for _ in range(10):
        move(table, players)
    delivered = settle(sub)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    assert [d.seq for d in delivered] == [r.seq for r in rows]
    got = sorted(down.wait_for(len(rows)), key=lambda m: m["at"])
    assert [json.loads(m["body"])["data"]["seq"] for m in got] == [r.seq for r in rows]
    assert len({m["headers"]["webhook-id"] for m in got}) == len(got)


def test_the_relay_relays_when_database_url_carries_a_connect_timeout(
    webhook_worker, receiver
) -> None:
    """docker-compose.yml's DATABASE_URL ends in ?connect_timeout=5: the relay once passed
    its own beside it (a TypeError at each try), so it never relayed and said nothing."""
    players = users("alice", "bob")
    rec = receiver()
    sub = subscribe(players[0], rec.url, ["all"])
    url = database_url()
    worker = webhook_worker(DATABASE_URL=f"{url}{'&' if '?' in url else '?'}connect_timeout=5")
    table = started_table(players, reaction_seconds=300)
    move(table, players)
    delivered = settle(sub)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    assert [d.seq for d in delivered] == [r.seq for r in rows]
    assert {d.status for d in delivered} == {"delivered"}
    assert len(rec.wait_for(len(rows))) == len(rows)
    assert "Traceback" not in worker.text(), worker.tail()


def test_a_worker_killed_mid_delivery_sends_it_again_with_the_same_id_and_nothing_else(
    webhook_worker, receiver
) -> None:
    players = users("alice", "bob")
    holding = receiver("hold-first")  # the first request waits 30 s before answering
    sub = subscribe(players[0], holding.url, ["all"])
    first = webhook_worker()
    table = started_table(players, reaction_seconds=300)
    holding.wait_for(1, timeout=60)
    time.sleep(0.3)
    first.kill()  # mid-delivery: the receiver holds the request
    webhook_worker()
    delivered = settle(sub)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    assert [d.seq for d in delivered] == [r.seq for r in rows]
    got = sorted(holding.wait_for(len(rows) + 1), key=lambda m: m["at"])
    ids = [m["headers"]["webhook-id"] for m in got]
    assert ids[0] == ids[1] == delivered[0].message_id  # the same message, the same id
    assert got[0]["body"] == got[1]["body"]
    assert ids[1:] == [d.message_id for d in delivered]  # then each once, in order
    time.sleep(1.0)
    assert len(holding.messages()) == len(rows) + 1


def test_an_endpoint_that_keeps_failing_is_disabled_with_a_reason_and_enabled_again(
    webhook_worker, receiver, settings
) -> None:
    (alice,) = users("alice")
    failing = receiver("fail")
    sub = subscribe(alice, failing.url, ["all"])
    webhook_worker()
    settings.FB_WEBHOOK_RETRY_SECONDS = 3  # a delivery's retry period is fixed when made
    delivery = services.test_send(subscription=sub)
    deadline = time.monotonic() + 60
    while Subscription.objects.get(id=sub.id).active:
        assert time.monotonic() < deadline, "never disabled"
        time.sleep(0.2)
    sub.refresh_from_db()
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.attempts >= 2
    assert delivery.last_status_code == 500
    assert "HTTP 500" in sub.disabled_reason and delivery.message_id in sub.disabled_reason
    attempts = delivery.attempt_set.all()
    assert [a.number for a in attempts] == list(range(1, delivery.attempts + 1))
    assert {a.status_code for a in attempts} == {500}
    failing.stop()
    failing.start("ok")
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_WEBHOOK_RETRY_SECONDS = 60
    services.subscription_update(subscription=sub, active=True)
    delivered = settle(sub)
    assert [d.status for d in delivered] == ["delivered"]
    got = failing.messages()
    assert {m["headers"]["webhook-id"] for m in got} == {delivery.message_id}
    assert (
        Delivery.objects.values("message_id").annotate(n=Count("id")).filter(n__gt=1).count() == 0
    )


def test_a_rolled_back_append_sends_nothing_and_its_seq_carries_the_committed_event(
    webhook_worker, receiver
) -> None:
    players = users("alice", "bob")
    rec = receiver()
    sub = subscribe(players[0], rec.url, ["all"])
    webhook_worker()
    table = started_table(players, reaction_seconds=300)
    settle(sub)
    loaded = game_load(game_id=table.id)
    seat = loaded.definition.status(loaded.state).awaiting[0]
    hand = loaded.state.players[seat].hand

    with rolled_back_after_sweeps():
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{players[seat].pk}",
            command={"type": "play", "card": hand[0], "discard": True},
            command_id=uuid.uuid4(),
        )
    assert not Delivery.objects.filter(subscription=sub, seq__gt=loaded.version).exists()
    move(table, players)  # a different move takes the same seqs, committed
    delivered = settle(sub)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    got = rec.wait_for(len(rows))
    assert len(got) == len(rows)
    committed = {r.seq: r.payload for r in rows}
    for message in got:
        event = json.loads(message["body"])["data"]["event"]
        stored = {k: v for k, v in event["data"].items() if k != "type"}
        if event["data"]["type"] not in ("CardsDealt", "CardsDrawn", "DeckShuffled", "GameStarted"):
            assert stored == committed[event["seq"]], event
    assert [d.seq for d in delivered] == [r.seq for r in rows]


def test_the_address_is_checked_again_at_each_delivery(webhook_worker, receiver) -> None:
    (alice,) = users("alice")
    rec = receiver()
    sub = subscribe(alice, rec.url, ["all"])  # accepted here: loopback allowed
    webhook_worker(FB_WEBHOOK_ALLOW_LOOPBACK="false")  # the worker refuses it
    delivery = services.test_send(subscription=sub)
    deadline = time.monotonic() + 30
    while Delivery.objects.get(id=delivery.id).attempts < 2:
        assert time.monotonic() < deadline, "never attempted"
        time.sleep(0.1)
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.last_status_code is None
    assert delivery.last_error.startswith("refused:") and "loopback" in delivery.last_error
    assert rec.messages() == []


# --- a tournament director's deciding ruling ------------------------------------------------


def test_a_ruling_that_ends_a_running_game_is_delivered_once_after_its_earlier_deliveries(
    webhook_worker, receiver, tmp_path: Path
) -> None:
    alice, bob, carol = players = users("alice", "bob", "carol")
    plain = receiver()
    to_alice = subscribe(alice, plain.url, ["all"])
    docs = Receiver(tmp_path, script=docs_receiver_script(tmp_path))
    to_bob = subscribe(bob, docs.url, ["game.finished"])
    docs.env = {"WEBHOOK_SECRET": to_bob.secret}
    docs.start()
    others = receiver()
    to_carol = subscribe(carol, others.url, ["turn.started", "window.opened", "table.filled"])
    webhook_worker()
    table = started_table(players, reaction_seconds=300)
    for _ in range(10):
        move(table, players)
    settle(to_alice)
    version = game_load(game_id=table.id).version
    ruling = rule(table, "award", [2])
    delivered = settle(to_alice)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    assert rows[-1].seq == version == ruling["version"]
    assert [(d.seq, d.ruling) for d in delivered] == [(r.seq, None) for r in rows] + [
        (version, ruling["id"])
    ]
    assert {d.status for d in delivered} == {"delivered"}
    got = sorted(plain.wait_for(len(rows) + 1), key=lambda m: m["at"])
    time.sleep(1.0)
    assert len(plain.messages()) == len(rows) + 1  # once
    for message in got:
        signing.verify(
            to_alice.secret, message["headers"], message["body"].encode(), now=message["at"]
        )
    assert [m["headers"]["webhook-id"] for m in got] == [d.message_id for d in delivered]
    last = json.loads(got[-1]["body"])
    assert last["type"] == "game.finished"
    assert last["data"]["version"] == version and last["data"]["seat"] == 0
    assert last["data"]["winners"] == [2] and last["data"]["ruling"]["reason"] == "award: a reason"
    assert last["data"]["result"] == {
        "decided_by": "ruling",
        "ruling": ruling["id"],
        "kind": "award",
    }

    # bob wanted game.finished only: the ruling is his one message, and the receiver
    # written from the docs verifies it
    (for_bob,) = settle(to_bob)
    assert for_bob.ruling == ruling["id"] and for_bob.status == "delivered"
    docs.stop()
    verified = [line.split()[1:3] for line in docs_out(docs) if line.startswith("verified")]
    assert verified == [[for_bob.message_id, "game.finished"]]

    # carol wanted other kinds: nothing of the ruling
    carols = settle(to_carol)
    assert carols and all(d.ruling is None and d.kind != "game.finished" for d in carols)
    assert len(others.wait_for(len(carols))) == len(carols)
    assert {json.loads(m["body"])["type"] for m in others.messages()} <= {
        "turn.started",
        "window.opened",
        "table.filled",
    }

    # a redelivery sends the same message again: same webhook-id, same body
    services.redeliver(subscription=to_alice, delivery=delivered[-1])
    again = plain.wait_for(len(rows) + 2)
    repeat = max(again, key=lambda m: m["at"])
    assert repeat["headers"]["webhook-id"] == delivered[-1].message_id
    assert repeat["body"] == got[-1]["body"]
    signing.verify(to_alice.secret, repeat["headers"], repeat["body"].encode(), now=repeat["at"])


def test_a_ruling_on_a_finished_game_is_delivered_after_its_end_and_a_note_or_a_rolled_back_one_is_not(
    webhook_worker, receiver
) -> None:
    players = users("alice", "bob")
    rec = receiver()
    sub = subscribe(players[1], rec.url, ["game.finished"])
    webhook_worker()
    table = started_table(players, reaction_seconds=300)
    play_out(table, players)
    (ended,) = settle(sub)
    rec.wait_for(1)
    version = game_load(game_id=table.id).version

    rule(table, "note")
    with rolled_back_after_sweeps():
        rule(table, "void")
    assert settle(sub) == [ended]
    assert len(rec.messages()) == 1

    ruling = rule(table, "void")
    delivered = settle(sub)
    assert [(d.seq, d.ruling) for d in delivered] == [(version, None), (version, ruling["id"])]
    got = sorted(rec.wait_for(2), key=lambda m: m["at"])
    time.sleep(1.0)
    assert len(rec.messages()) == 2  # once each
    assert [m["headers"]["webhook-id"] for m in got] == [d.message_id for d in delivered]
    for message in got:
        signing.verify(sub.secret, message["headers"], message["body"].encode(), now=message["at"])
    first, second = (json.loads(m["body"]) for m in got)
    assert first["type"] == second["type"] == "game.finished"
    assert first["data"]["event"]["type"] == "family_business.GameEnded"
    assert second["data"]["event"] is None and second["data"]["winners"] == []
    assert second["data"]["result"] == {
        "decided_by": "ruling",
        "ruling": ruling["id"],
        "kind": "void",
    }
    assert second["data"]["viewer"] == 1 and second["data"]["ruling"]["id"] == ruling["id"]
