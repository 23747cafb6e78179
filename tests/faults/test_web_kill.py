"""A web process killed in the middle of a command: the command is all in the log or not
at all, and the client's retry with the same Idempotency-Key completes it exactly once.

The "middle" is made deterministic by a temporary trigger on ``events_commandrecord``:
BEFORE INSERT of the command under test's record it sleeps, so the gunicorn worker is held
inside the command's transaction after its events were inserted. The worker is SIGKILLed
there. PostgreSQL notices the dead client (``client_connection_check_interval``, set on the
database for the test) and rolls the transaction back."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from typing import Any

import pytest
import requests
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

from events.models import CommandRecord, StoredEvent
from games.models import Table
from games.record import game_export
from games.verify import verify_record
from tests.faults.conftest import wait_until
from tests.service.helpers import cards_of, hand_stack, human_table, state

pytestmark = pytest.mark.django_db(transaction=True)

STALL_FUNCTION = """
CREATE OR REPLACE FUNCTION fb_fault_stall() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF NEW.command_id = '{command_id}'::uuid THEN
        PERFORM pg_sleep(60);
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER fb_fault_stall BEFORE INSERT ON events_commandrecord
    FOR EACH ROW EXECUTE FUNCTION fb_fault_stall();
"""
DROP_STALL = """
DROP TRIGGER IF EXISTS fb_fault_stall ON events_commandrecord;
DROP FUNCTION IF EXISTS fb_fault_stall();
"""


def stalled_backend() -> tuple[int, Any] | None:
    """The backend sleeping in the trigger: (pid, its transaction id) or None."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_xid FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event = 'PgSleep'"
        )
        return cursor.fetchone()


def terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_web_worker_killed_mid_command_leaves_all_or_nothing_and_the_retry_completes_once(
    webs,
) -> None:
    table = human_table(3, stacked=hand_stack(["CONTRACT"], [], []), reaction_seconds=300)
    alice = User.objects.get(username="alice")
    token = Token.objects.create(user=alice).key
    # A backend whose client died notices it within 100 ms, even while it sleeps (new
    # sessions only: set before gunicorn connects).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT format('ALTER DATABASE %I SET client_connection_check_interval = 100',"
            " current_database())"
        )
        cursor.execute(cursor.fetchone()[0])
    web = webs()
    version = state(table).version
    target = state(table).state.players[1].crew[0]
    command = {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]}
    key = uuid.uuid4()
    url = f"{web.url}/api/v1/games/{table.id}/commands"
    headers = {"Authorization": f"Token {token}", "Idempotency-Key": str(key)}

    with connection.cursor() as cursor:
        cursor.execute(STALL_FUNCTION.format(command_id=key))
    outcome: dict[str, Any] = {}

    def send() -> None:
        try:
            outcome["response"] = requests.post(
                url, json={"command": command}, headers=headers, timeout=90
            )
        except requests.RequestException as exc:
            outcome["error"] = exc

    client = threading.Thread(target=send)
    try:
        client.start()
        pid, xid = wait_until(stalled_backend, 20, "the command to reach the stall",
                              f"\n{web.tail()}")  # fmt: skip
        assert xid is not None, "the stalled transaction has written nothing yet"
        # the worker holding the request (one gunicorn worker: it is the one)
        (worker_pid,) = web.worker_pids()
        os.kill(worker_pid, signal.SIGKILL)
        client.join(timeout=30)
        assert not client.is_alive()
        assert "error" in outcome, f"the killed request was answered: {outcome}"
        # PostgreSQL sees the client gone and rolls the transaction back
        deadline = time.monotonic() + 15
        while stalled_backend() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        if stalled_backend() is not None:
            terminate(pid)
            pytest.fail("PostgreSQL kept the dead worker's transaction open for 15 s")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE pid = %s", [pid])
            assert cursor.fetchone() is None
        # none of the command: no event, no record, the version unchanged
        assert StoredEvent.objects.filter(stream_id=table.id, command_id=key).count() == 0
        assert CommandRecord.objects.filter(stream_id=table.id, command_id=key).count() == 0
        assert state(table).version == version
    finally:
        stalled = stalled_backend()
        if stalled is not None:  # a failure above: do not wait a minute for the sleep
            terminate(stalled[0])
        with connection.cursor() as cursor:
            cursor.execute(DROP_STALL)
            cursor.execute(
                "SELECT format('ALTER DATABASE %I RESET client_connection_check_interval',"
                " current_database())"
            )
            cursor.execute(cursor.fetchone()[0])
        client.join(timeout=5)

    # gunicorn replaced its worker; the client retries with the same key
    web.wait_ready()
    retried = requests.post(url, json={"command": command}, headers=headers, timeout=30)
    assert retried.status_code == 201, retried.text
    body = retried.json()
    events = StoredEvent.objects.filter(stream_id=table.id, command_id=key).order_by("seq")
    assert [e.seq for e in events] == list(range(body["first_seq"], body["last_seq"] + 1))
    assert body["first_seq"] == version + 1
    assert CommandRecord.objects.filter(stream_id=table.id, command_id=key).count() == 1
    # once more: the stored answer, nothing appended
    again = requests.post(url, json={"command": command}, headers=headers, timeout=30)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.json()["first_seq"] == body["first_seq"]
    assert StoredEvent.objects.filter(stream_id=table.id, command_id=key).count() == len(events)
    seqs = list(StoredEvent.objects.filter(stream_id=table.id).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, len(seqs) + 1))
    report = verify_record(game_export(Table.objects.get(id=table.id)))
    assert report.ok, report.problems
