"""A feed opened on a game that is already over answers at once: nothing more will be
appended, so a long-poll with nothing after ``after`` says ``finished: true`` without
waiting (holding a feed slot for nothing), and a stream sends what is left, then
``event: end``. Against the production-shape server (tests/faults' ``webs``)."""

from __future__ import annotations

import time
import uuid

import pytest
import requests

from games.service import game_command_execute, game_load
from tests.feed.helpers import (
    long_poll,
    read_sse,
    started_game,
    token_headers,
    waiting_long_poll,
)
from tests.feed.test_ruled import rule

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10  # seconds: far longer than an answer given at once takes


def resigned_game() -> tuple[uuid.UUID, int]:
    """A two-seat game that bob resigned (it ended by play: GameEnded): id and version."""
    game_id, _ = started_game(players=2)
    game_command_execute(
        game_id=game_id,
        seat=1,
        actor="user:bob",
        command={"type": "resign"},
        command_id=uuid.uuid4(),
    )
    loaded = game_load(game_id=game_id)
    assert loaded.table.status == "finished"
    return game_id, loaded.version


def timed_poll(feed_server, name: str, game_id, after: int) -> tuple[dict, float]:
    started = time.monotonic()
    response = long_poll(feed_server, name, game_id, after, wait=WAIT)
    assert response.status_code == 200, response.text
    return response.json(), time.monotonic() - started


def test_a_long_poll_on_a_game_over_answers_at_once(feed_server) -> None:
    game_id, version = resigned_game()
    body, took = timed_poll(feed_server, "alice", game_id, version)
    assert (body["events"], body["version"]) == ([], version)
    assert body["finished"] is True and body["revealed"] is True
    assert took < 3.0, f"waited {took:.1f}s for a game that was already over"
    # again at once: the feed process now answers from what it remembers
    body, took = timed_poll(feed_server, "alice", game_id, version)
    assert body["finished"] is True and took < 3.0, took
    # a caller behind still gets the events it missed, at once
    body, took = timed_poll(feed_server, "alice", game_id, version - 1)
    assert [e["seq"] for e in body["events"]] == [version] and body["finished"] is True
    assert took < 3.0, took


def test_a_long_poll_on_a_game_decided_by_a_ruling_answers_at_once(feed_server) -> None:
    game_id, version = started_game()
    rule(game_id)  # ended without an event
    body, took = timed_poll(feed_server, "carol", game_id, version)
    assert (body["events"], body["finished"]) == ([], True)
    assert took < 3.0, f"waited {took:.1f}s for a game that was already over"


def test_long_polls_on_a_game_over_hold_no_feed_slot(feed_server) -> None:
    """FEED_ENV allows alice 3 open feeds: three long-polls on a game that is over answer
    at once, so a fourth feed, on a running game, is not refused for too many."""
    over, version = resigned_game()
    running, running_version = started_game(players=2)
    polls = [waiting_long_poll(feed_server, "alice", over, version, WAIT) for _ in range(3)]
    time.sleep(1.5)  # had they waited, they would hold alice's three slots now
    fourth = long_poll(feed_server, "alice", running, running_version, wait=0)
    assert fourth.status_code == 200, fourth.text
    for answer, waiter in polls:
        waiter.join(timeout=WAIT + 30)
        assert answer["response"].json()["finished"] is True


def test_a_stream_on_a_game_over_sends_what_is_left_and_ends(feed_server) -> None:
    game_id, version = resigned_game()
    started = time.monotonic()
    messages = read_sse(feed_server, "bob", game_id, until_seq=10**9, last_event_id=version - 2)
    assert [m["id"] for m in messages if "id" in m] == [version - 1, version]
    assert messages[-1].get("event") == "end"
    # nothing left to send: the end at once
    messages = read_sse(feed_server, "bob", game_id, until_seq=10**9, last_event_id=version)
    assert [m for m in messages if "retry" not in m] == [{"event": "end", "data": "{}"}]
    assert time.monotonic() - started < 5.0
    # and the server closes the stream after the end (a client reading on is not held)
    with requests.get(
        f"{feed_server.url}/api/v1/games/{game_id}/events/stream",
        params={"after": version},
        headers={**token_headers("bob"), "Accept": "text/event-stream"},
        stream=True,
        timeout=WAIT,
    ) as response:
        assert response.status_code == 200
        text = b"".join(response.iter_content(chunk_size=None)).decode()
    assert text.endswith("event: end\ndata: {}\n\n"), text
