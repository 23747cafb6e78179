"""Real Celery workers on a real broker for the timer tests.

Each test gets a ``workers`` factory: it starts ``celery worker -B`` subprocesses (prefork,
2 processes, with an embedded beat (unless told otherwise) and the worker's own sweeper
thread, both sweeping every 0.5 s) against

* the broker this test run is configured with (``CELERY_BROKER_URL``: Redis here, the
  embedded Redis on a fresh machine): never skipped;
* RabbitMQ on 127.0.0.1:5672 (guest/guest) when it answers; skipped, saying so, when not.

Workers use pytest-django's test database (their DATABASE_URL names it) and a queue of
their own (CELERY_TASK_DEFAULT_QUEUE=fbtest-<random>), so they never take the tasks of a
developer's ``make run`` worker on the same broker, nor leave it ours. The test process
sends its tasks to the same broker and queue. Each worker runs in its own process group,
killed (SIGKILL) at teardown whatever happened; its log is printed when a test fails.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from bench import _worker
from bench._worker import database_url
from bench._worker import use_broker as _use_broker
from fbservice.celery import app as celery_app

QUEUE = f"fbtest-{uuid.uuid4().hex[:12]}"
RABBITMQ_URL = os.environ.get("FB_TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//")
SWEEP_SECONDS = 0.5
GRACE_SECONDS = 1.0
BOT_THINK_SECONDS = 0.01


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


RABBITMQ_UP = _answers("127.0.0.1", 5672)

BROKERS = [
    pytest.param("configured", id="configured-broker"),
    pytest.param(
        "rabbitmq",
        id="rabbitmq",
        marks=pytest.mark.skipif(
            not RABBITMQ_UP, reason="RabbitMQ does not answer on 127.0.0.1:5672"
        ),
    ),
]


class Worker(_worker.Worker):
    """One ``celery worker -B`` subprocess (its own process group) with a log file
    (bench/_worker.py); a wait that fails fails the test."""

    def __init__(
        self,
        broker_url: str,
        db_url: str,
        folder: Path,
        index: int,
        beat: bool = True,
        **overrides: str,
    ) -> None:
        sweeps = {
            "FB_SWEEP_SECONDS": str(SWEEP_SECONDS),
            "FB_SWEEP_GRACE_SECONDS": str(GRACE_SECONDS),
        }
        env = _worker.worker_env(
            db_url=db_url,
            broker_url=broker_url,
            queue=QUEUE,
            beat_schedule=folder / f"beat-{index}",
            think_seconds=BOT_THINK_SECONDS,
            **{**sweeps, **overrides},
        )
        name = f"{QUEUE}-{index}@fbtest"
        super().__init__("worker", name, QUEUE, env, folder / f"worker-{index}.log", beat=beat)

    def wait_for(self, pattern: str, timeout: float, what: str) -> None:
        try:
            super().wait_for(pattern, timeout, what)
        except _worker.WaitFailed as exc:
            pytest.fail(str(exc))


def _delete_queue(url: str) -> None:
    """RabbitMQ keeps a declared queue (and its exchange) until deleted."""
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=3) as conn:
            channel = conn.default_channel
            channel.queue_delete(QUEUE)
            channel.exchange_delete(QUEUE)
    except Exception as exc:  # noqa: BLE001 - cleanup: report, do not fail the test
        print(f"could not delete queue {QUEUE} on RabbitMQ: {exc}")


def _clean_redis(url: str) -> None:
    """Redis keeps what a killed worker held in its ``unacked`` hash, to restore it into
    our queue once the visibility timeout passes: drop it, and the queue itself."""
    import json

    from kombu import Connection

    try:
        with Connection(url, connect_timeout=3) as conn:
            client = conn.default_channel.client
            for tag, raw in client.hscan_iter("unacked"):
                try:
                    routing_key = json.loads(raw)[2]
                except (ValueError, IndexError, TypeError):
                    continue
                if routing_key == QUEUE:
                    client.hdel("unacked", tag)
                    client.zrem("unacked_index", tag)
            client.delete(QUEUE, f"_kombu.binding.{QUEUE}", f"_kombu.binding_permanent.{QUEUE}")
    except Exception as exc:  # noqa: BLE001 - cleanup: report, do not fail the test
        print(f"could not clean queue {QUEUE} on Redis: {exc}")


@pytest.fixture(params=BROKERS)
def broker_url(request: pytest.FixtureRequest) -> Iterator[str]:
    url = django_settings.CELERY_BROKER_URL if request.param == "configured" else RABBITMQ_URL
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = QUEUE
    _use_broker(url)
    try:
        yield url
    finally:
        _use_broker(None)
        celery_app.conf.task_default_queue = old_queue
        if url.startswith("amqp"):
            _delete_queue(url)
        elif url.startswith("redis"):
            _clean_redis(url)


@pytest.fixture(autouse=True)
def _fast_hashing(fast_password_hashing: None) -> None:
    """The cast's users are created in this process before the clock matters: PBKDF2 took
    over a second a user on a loaded machine, and windows ran out while tables were set."""


@pytest.fixture
def timers_on(settings) -> None:
    """This process behaves like the web server: tasks scheduled, bots on Celery."""
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_BOTS_INLINE = False
    settings.FB_BOT_THINK_SECONDS = BOT_THINK_SECONDS
    settings.CELERY_TASK_DEFAULT_QUEUE = QUEUE


@pytest.fixture
def workers(
    broker_url: str, timers_on: None, transactional_db: None, tmp_path: Path, request
) -> Iterator[Callable[[], Worker]]:
    """``start(beat=True, **env)`` launches a worker (with an embedded beat unless told
    otherwise; ``env`` overrides its environment) and waits until it is ready; all are
    killed after the test."""
    started: list[Worker] = []
    db_url = database_url()

    def start(beat: bool = True, **env: str) -> Worker:
        worker = Worker(broker_url, db_url, tmp_path, len(started), beat, **env)
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        worker.kill()
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        for worker in started:
            print(f"--- {worker.name} log (tail) ---\n{worker.tail(120)}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
