"""A Redis broker SIGKILLed and restarted under a live worker that holds unacknowledged
countdown tasks (open windows): the SAME worker stays up and goes on closing windows.

kombu 5.7.0's Redis transport restores a channel's unacked messages when it closes it, and
after a broker restart it does so after the connection's transport is already gone: an
``AttributeError`` (``'NoneType' object has no attribute 'hostname'``) that escaped
Celery's reconnect handling and stopped the worker ("Unrecoverable error"). See
fbservice/kombu_guard.py."""

from __future__ import annotations

import time

import pytest

from events.models import StoredEvent
from games.service import clock_ms
from tests.faults.conftest import wait_until
from tests.faults.test_worker_broker import CLOSED, closes, open_window
from tests.service.helpers import state

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def timers_on(settings) -> None:
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_BOTS_INLINE = False


def test_redis_restarted_under_a_worker_holding_countdowns_the_worker_lives_on(
    private_broker, celery_workers, timers_on
) -> None:
    worker = celery_workers(private_broker.url)
    held = [open_window(reaction_seconds=6) for _ in range(2)]
    worker.wait_for(r"Task games\.tasks\.close_window\[.*\] received", 15, "a countdown task")

    for _ in range(2):  # twice: the worker must survive each restart, not just the first
        private_broker.kill()
        time.sleep(0.5)
        private_broker.start()
        worker.wait_for(r"(?i)connected to redis", 30, "a reconnection")
        time.sleep(1.0)
        assert worker.proc.poll() is None, f"worker exited:\n{worker.tail()}"
    assert "Unrecoverable error" not in worker.text(), worker.tail()

    # windows opened after the restarts are closed by the same worker's tasks, on time
    fresh = [open_window(reaction_seconds=2) for _ in range(2)]
    for table, window in held + fresh:
        wait_until(lambda t=table: closes(t) >= 1, 20, f"close of {window.id}",
                   f"; now {clock_ms()}, deadline {window.deadline}\n{worker.tail()}")  # fmt: skip
        closed = StoredEvent.objects.get(stream_id=table.id, type=CLOSED)
        late = closed.recorded_at.timestamp() * 1000 - window.deadline
        print(f"closed by {closed.metadata['by']} {late:.0f} ms after the deadline")
    time.sleep(1.0)
    assert worker.proc.poll() is None, f"worker exited:\n{worker.tail()}"
    for table, window in fresh:
        assert closes(table) == 1
        closed = StoredEvent.objects.get(stream_id=table.id, type=CLOSED)
        assert closed.metadata.get("by") == "task", closed.metadata
        lateness = closed.recorded_at.timestamp() * 1000 - window.deadline
        assert lateness < 1000, f"closed {lateness:.0f} ms after its deadline"
        assert state(table).state.window is None
