"""The event feed (long-poll and server-sent events), spectators and staff."""

from __future__ import annotations

import json
import threading
import time
import uuid

import pytest
from asgiref.sync import async_to_sync
from django.db import connection
from rest_framework.test import APIClient

from tests.api.helpers import API, create_table, seat_all, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol) -> str:
    table = create_table(alice, seats=3, spectator_delay=0)
    seat_all(table["id"], bob, carol)
    start(alice, table["id"])
    return table["id"]


def discard(player, game_id: str, seat: int):
    state = player.state(game_id)
    card = state["state"]["players"][seat]["hand"][0]["id"]
    response = player.command(game_id, {"type": "play", "card": card, "discard": True})
    assert response.status_code == 201, response.json()
    return response.json()


def test_the_feed_redacts_each_event_for_its_viewer(alice, bob, mallory, staff, game) -> None:
    version = alice.state(game)["version"]
    feeds = {p.name: p.get(f"/games/{game}/events").json() for p in (alice, bob, mallory, staff)}
    for name, feed in feeds.items():
        assert feed["version"] == version and feed["revealed"] is False
        assert feed["has_more"] is False
        assert [e["seq"] for e in feed["events"]] == list(range(1, version + 1))
        started, shuffled = feed["events"][0]["data"], feed["events"][1]["data"]
        assert "seed" not in started and "stacked_deck" not in started
        if name == "staff":
            assert len(shuffled["cards"]) == 56  # staff see the deck order
        else:
            assert shuffled["cards"] is None and shuffled["count"] == 56
    dealt = {
        p: [e["data"] for e in f["events"] if e["data"]["type"] == "CardsDealt"]
        for p, f in feeds.items()
    }
    assert [bool(d["cards"]) for d in dealt["alice"]] == [True, False, False]
    assert [bool(d["cards"]) for d in dealt["bob"]] == [False, True, False]
    assert [bool(d["cards"]) for d in dealt["mallory"]] == [False, False, False]
    assert [bool(d["cards"]) for d in dealt["staff"]] == [True, True, True]
    later = alice.get(f"/games/{game}/events", after=3, limit=1).json()
    assert [e["seq"] for e in later["events"]] == [4] and later["has_more"] is True


def test_wait_zero_returns_at_once(alice, game) -> None:
    began = time.monotonic()
    feed = alice.get(f"/games/{game}/events", after=alice.state(game)["version"], wait=0).json()
    assert feed["events"] == [] and time.monotonic() - began < 0.5


def test_a_wait_with_nothing_new_ends_empty_after_the_wait(alice, game) -> None:
    after = alice.state(game)["version"]
    began = time.monotonic()
    feed = alice.get(f"/games/{game}/events", after=after, wait=0.5).json()
    took = time.monotonic() - began
    assert feed["events"] == [] and 0.5 <= took < 1.5


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_returns_within_a_second_of_another_players_move(alice, bob, carol) -> None:
    table = create_table(alice, seats=3)
    game_id = table["id"]
    seat_all(game_id, bob, carol)
    start(alice, game_id)
    version = bob.state(game_id)["version"]
    result: dict[str, object] = {}

    def wait_for_news() -> None:
        client = APIClient()
        client.force_authenticate(user=bob.user)
        try:
            response = client.get(f"{API}/games/{game_id}/events", {"after": version, "wait": 10})
            result["at"] = time.monotonic()
            result["body"] = response.json()
        finally:
            connection.close()

    waiter = threading.Thread(target=wait_for_news)
    waiter.start()
    time.sleep(0.6)
    assert "body" not in result  # still waiting
    moved = discard(alice, game_id, 0)
    moved_at = time.monotonic()
    waiter.join(timeout=15)
    body = result["body"]
    assert body["events"][0]["seq"] == version + 1
    assert body["events"][0]["data"]["type"] == "CardPlayed"
    assert result["at"] - moved_at < 1.0
    assert body["version"] >= moved["first_seq"]


def test_wait_is_bounded_and_typed(alice, game) -> None:
    for params in ({"wait": 26}, {"wait": -1}, {"after": "x"}, {"after": -1}, {"limit": 0}):
        response = alice.get(f"/games/{game}/events", **params)
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), params


@async_to_sync
async def collect(response) -> list[bytes]:
    """The body of a streaming response whose content is asynchronous (a stream served by
    an async view, read through the synchronous test client)."""
    return [part async for part in response.streaming_content]


def _sse(client: APIClient, path: str, **headers) -> list[dict]:
    response = client.get(path, HTTP_ACCEPT="text/event-stream", **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    text = b"".join(collect(response)).decode()
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":"):
                fields.setdefault("comment", line)
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if fields:
            messages.append(fields)
    return messages


def test_server_sent_events_stream_the_feed(settings, alice, bob, game) -> None:
    settings.FB_SSE_LIFETIME = 0.5
    settings.FB_SSE_HEARTBEAT = 0.2
    version = bob.state(game)["version"]
    messages = _sse(bob.client, f"{API}/games/{game}/events/stream")
    assert messages[0] == {"retry": "2000"}
    events = [m for m in messages if "id" in m]
    assert [int(m["id"]) for m in events] == list(range(1, version + 1))
    dealt = [json.loads(m["data"]) for m in events][2:5]
    assert [bool(d["data"]["cards"]) for d in dealt] == [False, True, False]
    assert any("comment" in m for m in messages)  # heartbeats
    # resuming with Last-Event-ID sends only what came after
    discard(alice, game, 0)
    resumed = _sse(bob.client, f"{API}/games/{game}/events/stream", HTTP_LAST_EVENT_ID=str(version))
    assert [int(m["id"]) for m in resumed if "id" in m][0] == version + 1


@pytest.mark.parametrize("last", ["4052876706089", "9" * 30, "1" + "0" * 5000])
def test_any_last_event_id_past_the_end_is_nothing_new_yet(settings, bob, game, last) -> None:
    """A seq, however large, is a valid place to resume: past the end there is nothing new
    (13 digits and more were 400; thousands would not even parse)."""
    settings.FB_SSE_LIFETIME = 0.3
    messages = _sse(bob.client, f"{API}/games/{game}/events/stream", HTTP_LAST_EVENT_ID=last)
    assert messages[0] == {"retry": "2000"} and not [m for m in messages if "id" in m]
    for path in ("events", "events/stream"):
        if path == "events":
            feed = bob.get(f"/games/{game}/{path}", after=last)
            assert feed.status_code == 200 and feed.json()["events"] == [], feed.content
        else:
            response = bob.client.get(f"{API}/games/{game}/{path}", {"after": last})
            assert response.status_code == 200
            assert not [part for part in collect(response) if part.startswith(b"id:")]


def test_a_last_event_id_with_leading_zeros_resumes_where_it_says(settings, bob, game) -> None:
    settings.FB_SSE_LIFETIME = 0.3
    messages = _sse(
        bob.client, f"{API}/games/{game}/events/stream", HTTP_LAST_EVENT_ID="0" * 30 + "2"
    )
    assert [int(m["id"]) for m in messages if "id" in m][0] == 3


@pytest.mark.parametrize("last", ["-1", "x", "1.5", "\u00b2", "\u0663", "1e3"])
def test_a_last_event_id_that_is_no_seq_is_invalid(bob, game, last) -> None:
    response = bob.client.get(f"{API}/games/{game}/events/stream", HTTP_LAST_EVENT_ID=last)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "Last-Event-ID" in response.json()["extra"]["fields"]


def test_the_stream_ends_when_the_game_is_over(alice, bob) -> None:
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    bob.post(f"/games/{table['id']}/resign", key=str(uuid.uuid4()))
    messages = _sse(alice.client, f"{API}/games/{table['id']}/events/stream")
    assert messages[-1]["event"] == "end"
    ended = json.loads([m for m in messages if "id" in m][-1]["data"])
    assert ended["data"]["type"] == "GameEnded"


def test_stream_errors_use_the_envelope(mallory, anon) -> None:
    response = anon.get(f"{API}/games/00000000-0000-0000-0000-000000000000/events/stream")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    response = mallory.client.get(
        f"{API}/games/00000000-0000-0000-0000-000000000000/events/stream",
        HTTP_ACCEPT="text/event-stream",
    )
    assert response.status_code == 404
    assert response.content.startswith(b"event: error\ndata: ")
    assert json.loads(response.content.split(b"data: ", 1)[1])["code"] == "game_not_found"


def test_spectators_see_no_hands_and_lag_by_the_delay(alice, bob, mallory, staff) -> None:
    table = create_table(alice, seats=2, spectator_delay=3)
    game_id = table["id"]
    seat_all(game_id, bob)
    start(alice, game_id)
    discard(alice, game_id, 0)  # 3 more events: CardPlayed, TurnStarted, CardsDrawn
    players = alice.state(game_id)
    watcher = mallory.state(game_id)
    assert watcher["viewer"] == "spectator" and watcher["seat"] is None
    assert watcher["version"] == players["version"] - 3 and watcher["delayed_by"] == 3
    assert all("hand" not in p for p in watcher["state"]["players"])
    assert "legal" not in watcher["state"] and "deck" not in watcher["state"]
    assert watcher["state"]["turn_seat"] == 0  # the move is not visible yet
    feed = mallory.get(f"/games/{game_id}/events", after=0).json()
    assert feed["version"] == players["version"] - 3
    assert feed["events"][-1]["seq"] == players["version"] - 3
    replay = mallory.get(f"/games/{game_id}/replay", at=players["version"]).json()
    assert replay["at"] == players["version"] - 3
    # a long-poll for the hidden events waits instead of showing them
    began = time.monotonic()
    waited = mallory.get(f"/games/{game_id}/events", after=feed["version"], wait=0.3).json()
    assert waited["events"] == [] and time.monotonic() - began >= 0.3
    # staff see everything, now
    seen = staff.state(game_id)
    assert seen["viewer"] == "staff" and seen["version"] == players["version"]
    assert all("hand" in p for p in seen["state"]["players"])
    assert len(seen["state"]["deck"]) == seen["state"]["deck_size"]
    assert "seed" not in seen["state"]
    # once the game ends the delay no longer applies
    bob.post(f"/games/{game_id}/resign", key=str(uuid.uuid4()))
    final = mallory.state(game_id)
    assert final["version"] == alice.state(game_id)["version"] and final["state"]["over"]
    assert all("hand" in p for p in final["state"]["players"])
