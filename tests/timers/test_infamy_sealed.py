"""Infamy's sealed sector step on a real Celery worker and a real broker (conftest.py):
the step's deadline closes it with no client, playing I-11.4's minimal default (the lowest
legal sector) for every seat that has not committed, then the reveal; a lost close task
is covered by the sweeper. Exactly one reveal, whatever crashes."""

from __future__ import annotations

import time
import uuid

import pytest

from events.models import CommandRecord, StoredEvent
from games.infamy.game import GAME
from games.infamy.legal import candidates, legal_sectors
from games.lobby import seat_join, table_create, table_start
from games.models import Table
from games.service import clock_ms, game_command_execute, game_load
from tests.factories import UserFactory
from tests.timers.test_workers import diagnose, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

REVEALED = "infamy.SectorsRevealed"
CHOSEN = "infamy.SectorChosen"


def sealed_step(sector_seconds: int) -> tuple[Table, int]:
    """A table of three humans, played (with the bot's choices) to its first sealed sector
    step; seat 0 commits at once. Returns the table and the step's deadline."""
    table = table_create(
        created_by=None, game="infamy", seats=3, options={"sector_seconds": sector_seconds}
    )
    for name in ("alice", "bob", "carol"):
        seat_join(table_id=table.id, user=UserFactory(username=f"{name}-{uuid.uuid4().hex[:6]}"))
    table_start(table_id=table.id)
    for n in range(300):
        loaded = game_load(game_id=table.id)
        status = GAME.status(loaded.state)
        if loaded.state.step == "sector":
            break
        seat = status.awaiting[0]
        command = GAME.bot_command(loaded.state, seat, "heuristic", f"drive:{n}")
        game_command_execute(
            game_id=table.id, seat=seat, actor=f"user:{seat}", command=command,
            command_id=uuid.uuid4(),
        )  # fmt: skip
    else:
        pytest.fail("no sector step")
    game_command_execute(
        game_id=table.id, seat=0, actor="user:0",
        command=GAME.encode_command(candidates(loaded.state, 0)[-1]),  # (and an accomplice's)
        command_id=uuid.uuid4(),
    )  # fmt: skip
    window = GAME.status(game_load(game_id=table.id).state).window
    assert window is not None
    return table, window.deadline


def reveals(table: Table) -> list[StoredEvent]:
    return list(StoredEvent.objects.filter(stream_id=table.id, type=REVEALED))


def check_closed(table: Table, deadline: int, latest_ms: int, since: int = 0) -> StoredEvent:
    """The step closed once, at ``deadline`` or within ``latest_ms`` after it (or after
    ``since``, when a closer could only start then: a worker started after the deadline)."""
    (revealed,) = wait_until(lambda: reveals(table), 30, "the sealed step's close", table)
    at = int(revealed.recorded_at.timestamp() * 1000)
    assert at >= deadline, f"revealed {deadline - at} ms before the deadline"
    late = at - max(deadline, since)
    assert late <= latest_ms, f"revealed {late} ms late{diagnose(table)}"
    chosen = StoredEvent.objects.filter(stream_id=table.id, type=CHOSEN).order_by("seq")
    by_seat = {e.payload["seat"]: e for e in chosen}
    # seat 0's own choice stands; the others got the minimal default from the system
    assert by_seat[0].actor == "user:0"
    state_before = game_load(game_id=table.id, upto=by_seat[0].seq).state
    for seat in (1, 2):
        assert by_seat[seat].actor == "system"
        assert by_seat[seat].payload["sector"] == legal_sectors(state_before, seat)[0]
    assert revealed.actor == "system"
    time.sleep(1.5)  # any second closer (a re-delivered task, a sweep) has had its chance
    assert len(reveals(table)) == 1
    assert game_load(game_id=table.id).state.step != "sector"
    return revealed


def test_a_sealed_step_closes_at_its_deadline_with_no_client(workers) -> None:
    workers()
    table, deadline = sealed_step(sector_seconds=3)
    assert deadline - clock_ms() > 1000  # nobody but the timer can close it
    revealed = check_closed(table, deadline, latest_ms=1500)
    assert revealed.metadata["by"] == "task"
    closes = CommandRecord.objects.filter(
        stream_id=table.id, actor="system", command__type="timeout"
    )
    assert [(c.command, c.outcome) for c in closes] == [({"type": "timeout"}, "accepted")]


def test_a_killed_worker_still_gets_the_sealed_step_closed_once(workers) -> None:
    first = workers()
    table, deadline = sealed_step(sector_seconds=5)
    first.wait_for(r"Task games\.tasks\.close_window\[.*\] received", 15, "countdown task")
    first.kill()  # it held the task, unacknowledged
    assert game_load(game_id=table.id).state.step == "sector"
    workers()  # RabbitMQ re-delivers the task; with Redis the sweeper closes the step
    ready = clock_ms()  # (on a loaded machine the new worker may be up after the deadline)
    # the sweeper: after the grace (1 s), within one sweep (0.5 s), plus a margin
    revealed = check_closed(table, deadline, latest_ms=4000, since=ready)
    closes = CommandRecord.objects.filter(
        stream_id=table.id, actor="system", command__type="timeout"
    )
    assert closes.count() == 1
    print(f"closed by {revealed.metadata['by']}")
