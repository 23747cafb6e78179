"""A tournament director's ruling ends a running game without an event (games.reviews):
it is announced on the appends' channel, so a feed waiting on the game learns at once that
the game is over: a long-poll answers with ``finished``, a stream sends ``event: end``, and
what a feed process remembered of the game is not trusted any more (api/feed/hub.py)."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User

from events.notify import CHANNEL, connection_params
from games import reviews
from games.models import Table
from tests.feed.helpers import long_poll, read_sse, started_game, waiting_long_poll
from tests.feed.test_remembered import GAME, batch, listening_hub, run

pytestmark = pytest.mark.django_db(transaction=True)


def director() -> User:
    return User.objects.create_user("director", is_staff=True)


def rule(game_id: uuid.UUID, kind: str = "award") -> dict[str, Any]:
    return reviews.ruling_record(
        table=Table.objects.get(id=game_id),
        user=director(),
        kind=kind,
        winners=[1] if kind == "award" else [],
        reason="alice's connection was lost for good.",
    )


def test_a_ruling_is_announced_on_commit_with_the_games_version() -> None:
    game_id, version = started_game()
    with psycopg.connect(autocommit=True, **connection_params()) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        rule(game_id)
        heard = [n.payload for n in listener.notifies(timeout=3.0, stop_after=1)]
    assert heard == [f"{game_id}:{version}"]


def test_a_waiting_long_poll_answers_when_the_game_is_ruled(feed_server) -> None:
    game_id, version = started_game()
    # bob's first poll: the feed process reads (and remembers) the running game
    first = long_poll(feed_server, "bob", game_id, version, wait=0).json()
    assert first["finished"] is False and first["events"] == []
    answer, waiter = waiting_long_poll(feed_server, "bob", game_id, version, wait=20)
    time.sleep(1.5)  # the request is waiting in the server by now
    assert "response" not in answer
    rule(game_id)  # committed by this process, as by another web server
    ruled_at = time.monotonic()
    waiter.join(timeout=30)
    body = answer["response"].json()
    assert answer["response"].status_code == 200, body
    assert (body["events"], body["version"]) == ([], version)
    assert body["finished"] is True and body["revealed"] is True
    assert answer["at"] - ruled_at < 2.0  # woken, not waited out
    # coming back at once: the remembered running game is not trusted
    again = long_poll(feed_server, "bob", game_id, version, wait=3).json()
    assert again["finished"] is True


def test_an_open_stream_ends_when_the_game_is_ruled(feed_server) -> None:
    game_id, version = started_game()
    received: list[dict[str, Any]] = []
    reader = threading.Thread(
        target=lambda: received.extend(
            read_sse(feed_server, "carol", game_id, until_seq=10**9, timeout=30)
        )
    )
    reader.start()
    time.sleep(2.5)  # the stream has sent what there is and waits
    assert reader.is_alive()
    rule(game_id, kind="void")
    reader.join(timeout=20)
    assert not reader.is_alive()
    assert [m["id"] for m in received if "id" in m] == list(range(1, version + 1))
    assert received[-1].get("event") == "end"


def test_an_announcement_of_a_seq_already_read_forgets_the_remembered_batch() -> None:
    """Not an append (a ruling): what the hub remembers may say the game runs."""

    async def scenario() -> None:
        hub = listening_hub()
        with hub.subscribe(GAME):
            hub.remember(GAME, batch(4, 9), hub.epoch)
        assert hub.remembered(GAME, 9) is not None
        hub.announced(GAME, 9)  # nobody waits: no read, but nothing is trusted
        assert hub.remembered(GAME, 9) is None

    run(scenario())
