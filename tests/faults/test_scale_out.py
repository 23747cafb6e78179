"""Scale-out on one machine: two web servers (gunicorn on two ports, DEBUG off, static
files from WhiteNoise) and two Celery workers (each with its beat) serve the same games.

* Counters racing through both web servers at once: exactly one 201, the others
  ``409 window_closed`` naming the winning event; one CounterPlayed, seqs gap-free.
* Windows opened through either web server are closed by either worker, exactly once
  (two sweepers run too: two beats, as if on two hosts).

The uniqueness of (stream_id, seq) in PostgreSQL is what arbitrates: no process holds
state of its own (see docs/scaling.md)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from events.models import CommandRecord, StoredEvent
from games.service import derived_command_id
from tests.faults.conftest import REPO, base_env, database_url, wait_until
from tests.service.helpers import CAST, cards_of, hand_stack, human_table, state

pytestmark = pytest.mark.django_db(transaction=True)

CLOSED = "family_business.WindowClosed"
COUNTERED = "family_business.CounterPlayed"


def collectstatic(folder: Path) -> None:
    result = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=REPO, env=base_env(DATABASE_URL=database_url(), STATIC_ROOT=str(folder)),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, f"collectstatic failed:\n{result.stdout}\n{result.stderr}"


def token_of(name: str) -> str:
    return Token.objects.get_or_create(user=User.objects.get(username=name))[0].key


def post_command(base: str, name: str, game_id: Any, command: dict[str, Any]):
    return requests.post(
        f"{base}/api/v1/games/{game_id}/commands",
        json={"command": command},
        headers={"Authorization": f"Token {token_of(name)}", "Idempotency-Key": str(uuid.uuid4())},
        timeout=30,
    )


def play_contract(base: str, table) -> dict[str, Any]:
    target = state(table).state.players[1].crew[0]
    played = post_command(base, "alice", table.id,
                          {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]})  # fmt: skip
    assert played.status_code == 201, played.text
    window = played.json()["state"]["window"]
    assert window is not None
    return window


def test_two_web_servers_and_two_workers_serve_the_same_games(
    configured_broker, celery_workers, webs, tmp_path
) -> None:
    static = tmp_path / "static"
    collectstatic(static)
    env = {
        "FB_SCHEDULE_TASKS": "true",
        "FB_BOTS_INLINE": "false",
        "DEBUG": "false",
        "SECRET_KEY": "fault-tests-only-not-a-secret",
        "STATIC_ROOT": str(static),
    }
    workers = [celery_workers(configured_broker) for _ in range(2)]
    servers = [webs(**env), webs(**env)]

    # static files with DEBUG off, from gunicorn itself
    for server in servers:
        for path in ("/static/admin/css/base.css", "/static/web/family_business/game.js"):
            response = requests.get(f"{server.url}{path}", timeout=10)
            assert response.status_code == 200, (server.url, path, response.status_code)

    # --- counters racing through both servers -----------------------------------------
    fi = cards_of("FAMILY_INFLUENCE")
    for round_ in range(2):
        stack = hand_stack(["CONTRACT"], *[["FAMILY_INFLUENCE"]] * 3)
        table = human_table(4, stacked=stack, reaction_seconds=60)
        window = play_contract(servers[round_ % 2].url, table)
        barrier = threading.Barrier(3)
        answers: dict[int, requests.Response] = {}

        def counter(seat: int, table=table, window=window, barrier=barrier, answers=answers):
            base = servers[seat % 2].url
            command = {"type": "counter", "window": window["id"], "card": fi[seat - 1]}
            barrier.wait(timeout=10)
            answers[seat] = post_command(base, CAST[seat], table.id, command)

        threads = [threading.Thread(target=counter, args=(seat,)) for seat in (1, 2, 3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        statuses = sorted(r.status_code for r in answers.values())
        assert statuses == [201, 409, 409], {s: (r.status_code, r.text) for s, r in answers.items()}
        counters = StoredEvent.objects.filter(stream_id=table.id, type=COUNTERED)
        assert counters.count() == 1
        winning_seq = counters.get().seq
        for response in answers.values():
            if response.status_code == 409:
                body = response.json()
                assert body["code"] == "window_closed", body
                assert body["extra"]["winning_seq"] == winning_seq, body
        seqs = list(StoredEvent.objects.filter(stream_id=table.id).values_list("seq", flat=True))
        assert sorted(seqs) == list(range(1, len(seqs) + 1))

    # --- windows closed by either worker, exactly once --------------------------------
    games = []
    for i in range(4):
        table = human_table(3, stacked=hand_stack(["CONTRACT"], [], []), reaction_seconds=2)
        games.append((table, play_contract(servers[i % 2].url, table)))

    def closes(table) -> int:
        return StoredEvent.objects.filter(stream_id=table.id, type=CLOSED).count()

    wait_until(lambda: all(closes(t) for t, _ in games), 30, "every window's close")
    time.sleep(1.5)  # the other worker's task, both sweepers: their chance to close twice
    for table, window in games:
        assert closes(table) == 1
        close_id = derived_command_id(table.id, f"close:{window['id']}:{window['deadline']}")
        assert CommandRecord.objects.filter(stream_id=table.id, command_id=close_id).count() == 1
        assert state(table).state.window is None
    ran = [w.text().count("Task games.tasks.close_window[") for w in workers]
    print(f"close_window tasks seen by each worker: {ran}")
