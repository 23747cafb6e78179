"""The feed against real server processes (gunicorn with uvicorn workers serving
fbservice.asgi, as in production) on the test database: subscribers are woken by commits
made in another process, a rolled-back append wakes nobody, streams resume exactly from
``Last-Event-ID``, each user's open feeds are capped, and hundreds of waiting clients
leave ``/healthz`` and commands answering at once."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections import Counter
from typing import Any

import aiohttp
import psycopg
import pytest
import requests
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from events.models import StoredEvent
from events.notify import CHANNEL, connection_params
from games.service import game_command_execute, game_load
from tests.faults.conftest import Web
from tests.feed.helpers import (
    discard,
    follow_stream,
    hidden_cards,
    long_poll,
    read_sse,
    started_game,
    token_headers,
    waiting_long_poll,
)
from tests.service.helpers import CAST, human_table
from tests.windows import run_out, to_answer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_waiting_long_poll_wakes_on_a_commit_made_by_another_process(feed_server) -> None:
    game_id, version = started_game()
    answer, waiter = waiting_long_poll(feed_server, "bob", game_id, version, wait=20)
    time.sleep(1.5)  # the request is waiting in the server by now
    assert "response" not in answer
    moved = discard("alice", game_id)  # this test process commits; the server wakes
    moved_at = time.monotonic()
    waiter.join(timeout=30)
    body = answer["response"].json()
    assert answer["response"].status_code == 200, body
    assert [e["seq"] for e in body["events"]] == list(range(version + 1, moved + 1))
    assert body["events"][0]["data"]["type"] == "CardPlayed"
    assert answer["at"] - moved_at < 1.0


def test_a_rolled_back_append_wakes_nobody(feed_server) -> None:
    game_id, version = started_game()
    answer: dict[str, Any] = {}

    def wait() -> None:
        began = time.monotonic()
        answer["response"] = long_poll(feed_server, "bob", game_id, version, wait=3)
        answer["took"] = time.monotonic() - began

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(1.0)
    with pytest.raises(RuntimeError), transaction.atomic():
        discard("alice", game_id)  # appended inside this transaction ...
        raise RuntimeError("... and rolled back")
    waiter.join(timeout=30)
    assert answer["response"].json()["events"] == []
    assert answer["took"] >= 2.9  # waited out its time: nothing woke it


def test_notifications_are_sent_on_commit_only() -> None:
    """The trigger's announcements, heard directly: none for a rolled-back append, one
    naming the stream and its new last seq for a committed one."""
    game_id, version = started_game()
    with psycopg.connect(autocommit=True, **connection_params()) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        with pytest.raises(RuntimeError), transaction.atomic():
            discard("alice", game_id)
            raise RuntimeError("rolled back")
        assert list(listener.notifies(timeout=1.0)) == []
        last = discard("alice", game_id)
        heard = [n.payload for n in listener.notifies(timeout=3.0, stop_after=1)]
    assert heard == [f"{game_id}:{last}"] and last > version


def test_a_stream_resumes_exactly_from_last_event_id(feed_server) -> None:
    game_id, version = started_game()
    seen = read_sse(feed_server, "bob", game_id, until_seq=version)
    assert [m["id"] for m in seen if "id" in m] == list(range(1, version + 1))
    # moves while bob is away
    last = discard("alice", game_id)
    last = discard("bob", game_id)
    resumed = read_sse(feed_server, "bob", game_id, until_seq=last, last_event_id=version)
    ids = [m["id"] for m in resumed if "id" in m]
    assert ids == list(range(version + 1, last + 1))  # no gap, no duplicate


def test_a_stream_delivers_each_move_as_it_is_made(feed_server) -> None:
    game_id, version = started_game()
    received: list[dict[str, Any]] = []
    reader = threading.Thread(
        target=lambda: received.extend(
            read_sse(feed_server, "carol", game_id, until_seq=version + 6, timeout=30)
        )
    )
    reader.start()
    time.sleep(1.5)
    discard("alice", game_id)
    last = discard("bob", game_id)
    reader.join(timeout=40)
    ids = [m["id"] for m in received if "id" in m]
    assert ids == list(range(1, last + 1))


def test_each_user_holds_a_limited_number_of_feeds(feed_server) -> None:
    """FB_FEED_MAX_PER_USER=3 on this server: a fourth long-poll or stream of the same
    user is refused with 429 ``too_many_feeds``; another user is not affected; a freed
    slot can be used again."""
    game_id, version = started_game()
    waiting = [
        threading.Thread(target=long_poll, args=(feed_server, "bob", game_id, version, 4))
        for _ in range(3)
    ]
    for thread in waiting:
        thread.start()
    time.sleep(1.5)
    refused = long_poll(feed_server, "bob", game_id, version, wait=1)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_feeds" and refused.json()["extra"]["limit"] == 3
    stream = requests.get(
        f"{feed_server.url}/api/v1/games/{game_id}/events/stream",
        headers=token_headers("bob"),
        timeout=10,
    )
    assert (stream.status_code, stream.json()["code"]) == (429, "too_many_feeds")
    assert long_poll(feed_server, "carol", game_id, version, wait=0).status_code == 200
    for thread in waiting:
        thread.join(timeout=30)
    assert long_poll(feed_server, "bob", game_id, version, wait=0).status_code == 200


async def _hold_long_polls(
    web: Web, headers: dict[str, str], game_id: Any, after: int, count: int
) -> list[Any]:
    url = f"{web.url}/api/v1/games/{game_id}/events"
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one() -> Any:
            params = {"after": after, "wait": 20}
            async with session.get(url, params=params, headers=headers) as response:
                return response.status, await response.json(), time.monotonic()

        return await asyncio.gather(*(one() for _ in range(count)))


def test_300_waiting_long_polls_leave_health_and_commands_answering(feed_server) -> None:
    game_id, version = started_game()
    results: list[Any] = []
    bob = token_headers("bob")
    holder = threading.Thread(
        target=lambda: results.extend(
            asyncio.run(_hold_long_polls(feed_server, bob, game_id, version, 300))
        )
    )
    holder.start()
    time.sleep(3.0)  # all 300 are waiting in the server
    began = time.monotonic()
    health = requests.get(f"{feed_server.url}/healthz", timeout=10)
    health_took = time.monotonic() - began
    assert health.status_code == 200 and health_took < 1.0, health_took
    state = requests.get(
        f"{feed_server.url}/api/v1/games/{game_id}", headers=token_headers("alice"), timeout=10
    ).json()
    card = state["state"]["players"][0]["hand"][0]["id"]
    began = time.monotonic()
    command = requests.post(
        f"{feed_server.url}/api/v1/games/{game_id}/commands",
        json={"command": {"type": "play", "card": card, "discard": True}},
        headers={**token_headers("alice"), "Idempotency-Key": str(uuid.uuid4())},
        timeout=10,
    )
    command_took = time.monotonic() - began
    moved_at = time.monotonic()
    assert command.status_code == 201 and command_took < 1.0, (command.text, command_took)
    holder.join(timeout=60)
    assert len(results) == 300
    statuses = Counter(status for status, _, _ in results)
    assert statuses == {200: 300}, statuses
    first = command.json()["first_seq"]
    assert all(body["events"][0]["seq"] == first for _, body, _ in results)  # all woken
    assert max(at for _, _, at in results) - moved_at < 5.0  # (latency: bench.feed_load)


def test_the_listener_recovers_from_a_lost_connection(feed_server) -> None:
    """The server's LISTEN connection is terminated: the listener reconnects and catches
    up, so a waiting client still gets the move made meanwhile."""
    game_id, version = started_game()
    answer: dict[str, Any] = {}
    waiter = threading.Thread(
        target=lambda: answer.update(r=long_poll(feed_server, "bob", game_id, version, wait=20))
    )
    waiter.start()
    time.sleep(1.5)
    params = {**connection_params(), "application_name": "fbtest-admin"}
    with psycopg.connect(autocommit=True, **params) as admin:
        killed = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = 'fbservice-listener' AND datname = current_database()"
        ).fetchone()
    assert killed is not None and killed[0] >= 1
    last = discard("alice", game_id)  # likely while the listener is reconnecting
    waiter.join(timeout=30)
    events = answer["r"].json()["events"]
    assert [e["seq"] for e in events] == list(range(version + 1, last + 1))


def test_a_revoked_token_reopens_no_feed_once_the_remembered_seconds_pass(feed_server) -> None:
    """A feed process remembers a token's user for FB_FEED_RECENT_SECONDS (2 here) so a
    long-poll that comes back needs no database; a deleted token is refused after that."""
    game_id, version = started_game()
    headers = token_headers("bob")
    url = f"{feed_server.url}/api/v1/games/{game_id}/events"
    first = requests.get(url, params={"after": version, "wait": 0}, headers=headers, timeout=30)
    assert first.status_code == 200, first.text
    Token.objects.filter(user__username="bob").delete()
    time.sleep(2.5)
    again = requests.get(url, params={"after": version, "wait": 0}, headers=headers, timeout=30)
    assert again.status_code == 401, again.text
    assert again.json()["code"] in ("not_authenticated", "authentication_failed")


def test_feed_errors_use_the_envelope(feed_server) -> None:
    game_id, _ = started_game()
    url = f"{feed_server.url}/api/v1/games/{game_id}/events"
    anonymous = requests.get(url, timeout=10)
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")
    assert anonymous.headers["WWW-Authenticate"].startswith("Token")
    bad = requests.get(url, params={"wait": 99}, headers=token_headers("bob"), timeout=10)
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    unknown = requests.get(
        f"{feed_server.url}/api/v1/games/{uuid.uuid4()}/events/stream",
        headers={**token_headers("bob"), "Accept": "text/event-stream"},
        timeout=10,
    )
    assert unknown.status_code == 404
    assert unknown.text.startswith("event: error\ndata: ")
    assert json.loads(unknown.text.split("data: ", 1)[1])["code"] == "game_not_found"
    assert unknown.headers["X-Request-ID"]


def test_a_signed_in_browser_session_reads_the_feed(feed_server) -> None:
    """The web pages sign in with a session cookie, not a token."""
    game_id, version = started_game()
    signing_in = Client()
    signing_in.force_login(User.objects.get(username="bob"))  # a stored session, as a sign-in
    browser = requests.Session()
    browser.cookies.set("sessionid", signing_in.cookies["sessionid"].value)
    feed = browser.get(f"{feed_server.url}/api/v1/games/{game_id}/events", timeout=10)
    assert feed.status_code == 200, feed.text
    assert [e["seq"] for e in feed.json()["events"]] == list(range(1, version + 1))
    assert feed.headers["X-Content-Type-Options"] == "nosniff"  # the security headers
    browser.cookies.clear()
    assert (
        browser.get(f"{feed_server.url}/api/v1/games/{game_id}/events", timeout=10).status_code
        == 401
    )


def _collect_long_polls(web: Web, name: str, game_id: Any, into: list[dict[str, Any]]) -> None:
    """``name`` long-polls the feed from the start to the end of the game."""
    after = 0
    while True:
        body = long_poll(web, name, game_id, after, wait=10).json()
        into.extend({**event, "_revealed": body["revealed"]} for event in body["events"])
        if body["events"]:
            after = body["events"][-1]["seq"]
        if body["revealed"] and not body["has_more"]:
            return


def test_no_feed_route_shows_a_hidden_card(feed_server) -> None:
    """A whole game played by this process while every viewer (the three seats, a
    spectator, staff) follows it on a stream and by long-polls: each event each one
    received is the engine's redaction of that event for that viewer, and before the end
    none names a card hidden from that viewer at that point."""
    from games.registry import FAMILY_BUSINESS as game
    from games.service import from_row
    from tests.api.helpers import card_ids
    from tests.api.test_play import choose
    from tests.factories import UserFactory

    UserFactory(username="mallory")
    UserFactory(username="staff", is_staff=True)
    table = human_table(3, reaction_seconds=300)
    viewers = {"alice": 0, "bob": 1, "carol": 2, "mallory": "spectator", "staff": "staff"}
    streams: dict[str, list[dict[str, Any]]] = {name: [] for name in viewers}
    polls: dict[str, list[dict[str, Any]]] = {name: [] for name in viewers}
    readers = [
        threading.Thread(
            target=lambda n=name: streams[n].extend(follow_stream(feed_server, n, table.id))
        )
        for name in viewers
    ] + [
        threading.Thread(target=_collect_long_polls, args=(feed_server, n, table.id, polls[n]))
        for n in viewers
    ]
    for reader in readers:
        reader.start()
    for step in range(3000):  # humans play as the heuristic bot would
        loaded = game_load(game_id=table.id)
        if loaded.state.over:
            break
        if run_out(table.id, loaded.state):
            continue  # every seat passed (sealed): the window ran its time
        seat = to_answer(table.id, loaded.state)[0]
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{CAST[seat]}",
            command=choose(loaded.state, seat, f"{table.id}:{step}"),
            command_id=uuid.uuid4(),
        )
    for reader in readers:
        reader.join(timeout=120)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    final = rows[-1].seq
    secret_at = hidden_cards(game, rows, viewers.values())
    by_seq = {row.seq: from_row(game, row) for row in rows}
    # Events read after the end are shown with every hand revealed: only to a long-poll
    # whose answer says so, or on a stream after the end was recorded.
    ended_at = rows[-1].recorded_at.timestamp()
    checked = scanned = 0
    for name, viewer in viewers.items():
        for received in (streams[name], polls[name]):
            assert [d["seq"] for d in received] == list(range(1, final + 1)), name
            for document in received:
                seq = document["seq"]
                shown = [game.redact_event(by_seq[seq], viewer, revealed=False)]
                if document.get("_revealed") or document.get("_received_at", 0) >= ended_at:
                    shown.append(game.redact_event(by_seq[seq], viewer, revealed=True))
                shown = [json.loads(json.dumps(expected)) for expected in shown]
                assert document["data"] in shown, (name, seq)
                revealed = document["data"] != shown[0]
                if viewer != "staff" and not revealed:
                    leaked = card_ids(document) & secret_at[seq][viewer]
                    assert not leaked, (name, seq, sorted(leaked))
                    scanned += 1
                checked += 1
    assert checked == 10 * final
    assert scanned >= 4 * final  # most were delivered while the game ran: not vacuous
