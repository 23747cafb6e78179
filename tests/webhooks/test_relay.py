"""The relay on real PostgreSQL: which subscription gets which event, as whom, and that an
append that rolled back makes nothing. No worker: the relay is called directly and the
deliveries it writes are read back (tests/webhooks/test_delivery.py sends them)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.db import transaction

from events.models import StoredEvent
from games.models import Ruling, RulingLink
from games.registry import get_game
from games.service import from_row, game_command_execute, game_load
from tests.api.helpers import card_ids
from tests.factories import UserFactory
from tests.feed.helpers import hidden_cards
from tests.webhooks.helpers import move, play_out, rule, started_table, subscribe, users
from webhooks.models import Delivery, RelayCursor
from webhooks.relay import behind, lag, relay_all, relay_stream, ruling_message_id

game = get_game("family_business")
URL = "http://127.0.0.1:9/hooks"  # never called here
pytestmark = pytest.mark.django_db(transaction=True)


def bodies(sub: Any) -> list[dict[str, Any]]:
    rows = Delivery.objects.filter(subscription=sub).order_by("seq")
    return [json.loads(d.body) for d in rows]


def test_each_subscription_gets_its_kinds_of_its_games_as_its_seat_sees_them() -> None:
    alice, bob, carol = players = users("alice", "bob", "carol")
    mallory = UserFactory(username="mallory")
    staff = UserFactory(username="staff", is_staff=True)
    subs = {
        "alice": subscribe(alice, URL, ["all"]),
        "bob": subscribe(bob, URL, ["turn.started"]),
        "carol": subscribe(carol, URL, ["window.opened", "game.finished"]),
        "mallory": subscribe(mallory, URL, ["all"]),
        "staff": subscribe(staff, URL, ["turn.started", "table.filled"], scope="service"),
    }
    table = started_table(players, reaction_seconds=300)
    play_out(table, players)
    assert game_load(game_id=table.id).state.over
    relay_all()
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    kinds = {row.seq: row.type.split(".", 1)[1] for row in rows}

    # a turn is told when the seat is still awaited at the end of its command (not one that
    # starts in the command ending the game, or of a seat a Mob War put out in it)
    ends = {r.command_id: r.seq for r in rows}  # each command's last event
    awaited = {
        seq: game.status(game_load(game_id=table.id, upto=seq).state).awaiting
        for seq in set(ends.values())
    }

    def turn(row: StoredEvent) -> bool:
        seat = row.payload.get("seat")
        return kinds[row.seq] == "TurnStarted" and seat in awaited[ends[row.command_id]]

    got = bodies(subs["alice"])  # every event, in order, typed by what it means for alice
    assert [b["data"]["seq"] for b in got] == [row.seq for row in rows]
    for body in got:
        seq = body["data"]["seq"]
        assert body["data"]["game_id"] == str(table.id)
        assert body["data"]["seat"] == 0 and body["data"]["viewer"] == 0
        assert seq <= body["data"]["version"] <= rows[-1].seq
        assert body["data"]["event"]["seq"] == seq
        if turn(rows[seq - 1]) and rows[seq - 1].payload["seat"] == 0:
            assert body["type"] == "turn.started"
    assert {b["type"] for b in got} >= {"game.event", "turn.started", "table.filled"}
    assert got[-1]["type"] == "game.finished"

    bob_turns = [r.seq for r in rows if turn(r) and r.payload["seat"] == 1]
    assert [b["data"]["seq"] for b in bodies(subs["bob"])] == bob_turns
    assert {b["type"] for b in bodies(subs["bob"])} == {"turn.started"}

    carol_windows = [
        r.seq
        for r in rows
        if (kinds[r.seq] == "WindowOpened" and 2 in r.payload["eligible"])
        or kinds[r.seq] == "GameEnded"
    ]
    assert [b["data"]["seq"] for b in bodies(subs["carol"])] == carol_windows
    assert len(carol_windows) > 1

    assert bodies(subs["mallory"]) == []  # not seated: none of her games

    staff_got = bodies(subs["staff"])  # service-wide, as a spectator
    turns = [r.seq for r in rows if turn(r)]
    starts = [r.seq for r in rows if kinds[r.seq] == "GameStarted"]
    assert [b["data"]["seq"] for b in staff_got] == sorted(starts + turns)
    assert {b["data"]["viewer"] for b in staff_got} == {"spectator"}
    turn = next(b for b in staff_got if b["type"] == "turn.started")
    seat = turn["data"]["event"]["data"]["seat"]
    assert turn["data"]["notices"] == [
        {"kind": "turn.started", "seats": [seat], "users": [players[seat].pk]}
    ]

    # relayed once: the cursor is at the end and a second pass makes nothing
    before = Delivery.objects.count()
    assert relay_all() == 0 and relay_stream(table.id) == 0
    assert Delivery.objects.count() == before
    cursor = RelayCursor.objects.get(stream_id=table.id)
    assert cursor.seq == rows[-1].seq and cursor.finished
    assert table.id not in behind()


def test_no_payload_of_a_whole_game_shows_a_card_its_subscriber_may_not_see() -> None:
    players = users("alice", "bob", "carol", "dave")
    staff = UserFactory(username="staff", is_staff=True)
    subs = {seat: subscribe(user, URL, ["all"]) for seat, user in enumerate(players)}
    spectator = subscribe(staff, URL, ["all"], scope="service")
    table = started_table(players, reaction_seconds=300)
    for _ in range(40):  # relay while the game runs, as the relay does, then to the end
        for _ in range(5):
            move(table, players)
        relay_stream(table.id)
    play_out(table, players)
    relay_all()
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    secret_at = hidden_cards(game, rows, (0, 1, 2, 3, "spectator"))
    scanned = 0
    for viewer, sub in [*subs.items(), ("spectator", spectator)]:
        got = bodies(sub)
        assert [b["data"]["seq"] for b in got] == [r.seq for r in rows]
        for body in got:
            seq = body["data"]["seq"]
            expected = game.redact_event(from_row(game, rows[seq - 1]), viewer, revealed=False)
            assert body["data"]["event"]["data"] == json.loads(json.dumps(expected))
            leaked = card_ids(body) & secret_at[seq][viewer]
            assert not leaked, (viewer, seq, sorted(leaked))
            assert "seed" not in body["data"]["event"]["data"] or rows[seq - 1].type.endswith(
                "GameEnded"
            )
            scanned += 1
    assert scanned == 5 * len(rows)


def test_an_append_that_rolled_back_sends_nothing() -> None:
    players = users("alice", "bob")
    sub = subscribe(players[0], URL, ["all"])
    table = started_table(players, reaction_seconds=300)
    relay_all()
    made = Delivery.objects.filter(subscription=sub).count()
    version = game_load(game_id=table.id).version
    loaded = game_load(game_id=table.id)
    seat = game.status(loaded.state).awaiting[0]
    card = loaded.state.players[seat].hand[0]

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{players[seat].pk}",
            command={"type": "play", "card": card, "discard": True},
            command_id=uuid.uuid4(),
        )
        assert StoredEvent.objects.filter(stream_id=table.id, seq__gt=version).exists()
        raise Abort
    assert not StoredEvent.objects.filter(stream_id=table.id, seq__gt=version).exists()
    assert relay_all() == 0
    assert Delivery.objects.filter(subscription=sub).count() == made
    assert not Delivery.objects.filter(subscription=sub, seq__gt=version).exists()
    assert RelayCursor.objects.get(stream_id=table.id).seq == version


def test_lag_counts_the_games_behind_and_dates_the_oldest_event_or_ruling_not_relayed() -> None:
    players = users("alice", "bob")
    assert lag() == (0, None)
    first = started_table(players, reaction_seconds=300)
    second = started_table(players, reaction_seconds=300)
    oldest = StoredEvent.objects.get(stream_id=first.id, seq=1).recorded_at
    assert lag() == (2, oldest)
    assert sorted(behind()) == sorted([first.id, second.id])
    relay_stream(first.id)
    move(first, players)  # relayed up to before this move: its first event is the oldest now
    version = RelayCursor.objects.get(stream_id=first.id).seq
    after = StoredEvent.objects.get(stream_id=first.id, seq=version + 1).recorded_at
    assert lag() == (2, StoredEvent.objects.get(stream_id=second.id, seq=1).recorded_at)
    relay_stream(second.id)
    assert lag() == (1, after)
    relay_all()
    assert lag() == (0, None)
    ruling = rule(second, "void")
    assert lag() == (1, Ruling.objects.get(id=ruling["id"]).created_at)
    relay_all()
    assert lag() == (0, None)


def test_a_subscription_gets_only_what_was_recorded_after_it_was_made() -> None:
    players = users("alice", "bob")
    table = started_table(players, reaction_seconds=300)
    version = game_load(game_id=table.id).version
    sub = subscribe(players[0], URL, ["all"])
    relay_all()
    assert not Delivery.objects.filter(subscription=sub).exists()
    move(table, players)
    relay_all()
    seqs = list(Delivery.objects.filter(subscription=sub).values_list("seq", flat=True))
    assert seqs and min(seqs) == version + 1


# --- a tournament director's deciding ruling ------------------------------------------------


def test_a_ruling_that_decides_a_running_game_is_a_game_finished_for_whoever_gets_its_notices() -> (
    None
):
    alice, bob, carol = players = users("alice", "bob", "carol")
    mallory = UserFactory(username="mallory")
    staff = UserFactory(username="staff", is_staff=True)
    subs = {
        "alice": subscribe(alice, URL, ["all"]),
        "bob": subscribe(bob, URL, ["game.finished"]),
        "carol": subscribe(carol, URL, ["turn.started", "window.opened", "table.filled"]),
        "mallory": subscribe(mallory, URL, ["all"]),
        "staff": subscribe(staff, URL, ["game.finished"], scope="service"),
    }
    table = started_table(players, reaction_seconds=300)
    for _ in range(8):
        move(table, players)
    relay_all()
    before = {name: Delivery.objects.filter(subscription=sub).count() for name, sub in subs.items()}
    assert before["bob"] == 0  # nothing finished yet
    version = game_load(game_id=table.id).version
    ruling = rule(table, "award", [1])
    assert ruling["version"] == version
    assert table.id in behind()  # no event: the relay still finds it
    assert relay_all() == 3  # alice (all), bob (game.finished), staff (service-wide)

    def ruled(name: str) -> list[Delivery]:
        return list(Delivery.objects.filter(subscription=subs[name], ruling__isnull=False))

    for name in ("carol", "mallory"):  # other kinds only; not seated
        assert ruled(name) == []
        assert Delivery.objects.filter(subscription=subs[name]).count() == before[name]
    lane = list(Delivery.objects.filter(subscription=subs["alice"]).order_by("seq", "id"))
    assert lane[-1].ruling == ruling["id"]  # after every earlier delivery of the game
    assert [d.seq for d in lane[:-1]] == list(range(1, version + 1))
    (delivery,) = ruled("bob")
    assert (delivery.seq, delivery.kind, delivery.stream_id) == (version, "game.finished", table.id)
    assert delivery.message_id == ruling_message_id(subs["bob"].id, table.id, ruling["id"])
    body = json.loads(delivery.body)
    assert body["id"] == delivery.message_id and body["type"] == "game.finished"
    data = body["data"]
    seats = [0, 1, 2]
    assert data == {
        "game_id": str(table.id),
        "game": "family_business",
        "seq": None,
        "version": version,
        "viewer": 1,
        "seat": 1,
        "notices": [{"kind": "game.finished", "seats": seats, "users": [p.pk for p in players]}],
        "event": None,
        "winners": [1],
        "result": {"decided_by": "ruling", "ruling": ruling["id"], "kind": "award"},
        "ruling": ruling,  # as GET /games/{id}/rulings shows it to bob: the game is over
    }
    # with its hash, the head of the game's rulings chain: what a receiver keeps to check
    # an exported record against (games.verify --rulings-head)
    assert data["ruling"]["hash"] == RulingLink.objects.get(ruling_id=ruling["id"]).hash
    (spectator,) = ruled("staff")
    staff_data = json.loads(spectator.body)["data"]
    assert (staff_data["viewer"], staff_data["seat"]) == ("spectator", None)
    assert staff_data["ruling"]["reason"] == "award: a reason"
    (for_alice,) = ruled("alice")
    assert json.loads(for_alice.body)["data"]["seat"] == 0

    # relayed once; the game is over and nothing is behind
    assert relay_all() == 0 and relay_stream(table.id) == 0
    cursor = RelayCursor.objects.get(stream_id=table.id)
    assert (cursor.seq, cursor.ruling, cursor.finished) == (version, ruling["id"], True)
    assert table.id not in behind()


def test_rulings_on_a_finished_game_each_come_after_its_end_and_a_note_makes_nothing() -> None:
    players = users("alice", "bob")
    sub = subscribe(players[0], URL, ["game.finished"])
    table = started_table(players, reaction_seconds=300)
    play_out(table, players)
    relay_all()
    ended = list(Delivery.objects.filter(subscription=sub))
    assert len(ended) == 1 and ended[0].ruling is None  # the GameEnded event
    assert RelayCursor.objects.get(stream_id=table.id).finished
    version = game_load(game_id=table.id).version

    rule(table, "note")
    assert table.id not in behind()
    assert relay_all() == 0 and relay_stream(table.id) == 0

    void = rule(table, "void")
    award = rule(table, "award", [0, 1])
    assert table.id in behind()  # a finished game's cursor, found again for its rulings
    assert relay_all() == 2
    lane = list(Delivery.objects.filter(subscription=sub).order_by("seq", "id"))
    assert [(d.seq, d.ruling) for d in lane] == [
        (version, None),
        (version, void["id"]),
        (version, award["id"]),
    ]
    results = [json.loads(d.body)["data"] for d in lane[1:]]
    assert [(r["winners"], r["result"]["kind"]) for r in results] == [
        ([], "void"),
        ([0, 1], "award"),
    ]
    assert len({d.message_id for d in lane}) == 3
    assert relay_all() == 0 and table.id not in behind()


def test_a_ruling_that_rolled_back_sends_nothing() -> None:
    players = users("alice", "bob")
    sub = subscribe(players[0], URL, ["all"])
    table = started_table(players, reaction_seconds=300)
    relay_all()
    made = Delivery.objects.filter(subscription=sub).count()

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        rule(table, "void")
        raise Abort
    assert not Ruling.objects.filter(table_id=table.id).exists()
    assert table.id not in behind()
    assert relay_all() == 0 and relay_stream(table.id) == 0
    assert Delivery.objects.filter(subscription=sub).count() == made
    assert RelayCursor.objects.get(stream_id=table.id).ruling == 0


def test_a_subscription_made_after_a_ruling_does_not_get_it() -> None:
    players = users("alice", "bob")
    table = started_table(players, reaction_seconds=300)
    rule(table, "award", [0])
    sub = subscribe(players[0], URL, ["all"])
    relay_all()
    assert not Delivery.objects.filter(subscription=sub).exists()


def test_events_and_a_ruling_relayed_in_one_pass_keep_the_ruling_last() -> None:
    players = users("alice", "bob")
    sub = subscribe(players[0], URL, ["all"])
    table = started_table(players, reaction_seconds=300)
    for _ in range(5):
        move(table, players)
    ruling = rule(table, "void")
    assert relay_stream(table.id) == ruling["version"] + 1  # every event, then the ruling
    lane = list(Delivery.objects.filter(subscription=sub).order_by("seq", "id"))
    assert [d.seq for d in lane] == [*range(1, ruling["version"] + 1), ruling["version"]]
    assert lane[-1].ruling == ruling["id"] and all(d.ruling is None for d in lane[:-1])
    assert json.loads(lane[-1].body)["data"]["result"]["kind"] == "void"
