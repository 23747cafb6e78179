"""Real processes for the webhook tests: receivers on 127.0.0.1 and a Celery worker.

``receiver(mode)`` starts ``tests/webhooks/receiver.py`` on a free port (``.url``,
``.messages()``, ``.stop()``, ``.start()`` again on the same port). ``webhook_worker()``
starts a Celery worker (the configured broker, a queue of this run's own, the test
database) whose relay thread turns committed events into deliveries, with short backoff
and sweep intervals. Loopback endpoints are allowed here (FB_WEBHOOK_ALLOW_LOOPBACK).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings

from fbservice.celery import app as celery_app
from tests.timers.conftest import QUEUE, Worker, _clean_redis, _use_broker, database_url
from tests.webhooks.receiver import SCRIPT, read

WORKER_ENV = {
    "FB_WEBHOOK_ALLOW_LOOPBACK": "true",
    "FB_WEBHOOK_BACKOFF_SECONDS": "0.2",
    "FB_WEBHOOK_BACKOFF_MAX_SECONDS": "1",
    "FB_WEBHOOK_SWEEP_SECONDS": "0.5",
    "FB_WEBHOOK_SWEEP_GRACE_SECONDS": "1",
    "FB_WEBHOOK_TIMEOUT_SECONDS": "60",
    "FB_WORKER_SWEEP": "false",
    "FB_BOTS_INLINE": "true",
}


@pytest.fixture(autouse=True)
def _loopback_allowed(settings: Any) -> None:
    settings.FB_WEBHOOK_ALLOW_LOOPBACK = True


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Receiver:
    def __init__(
        self, folder: Path, mode: str = "ok", script: Path | None = None, **env: str
    ) -> None:
        self.port = free_port()
        self.log = folder / f"received-{self.port}.jsonl"
        self.mode = mode
        self.script = script or SCRIPT
        self.env = env
        self.proc: subprocess.Popen[str] | None = None
        self.stdout_lines: list[str] = []  # what it printed after "listening" (once stopped)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks"

    def start(self, mode: str | None = None) -> Receiver:
        import os

        self.mode = mode or self.mode
        args = [sys.executable, str(self.script)]
        if self.script == SCRIPT:
            args += [str(self.port), str(self.log), self.mode]
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PORT": str(self.port), **self.env},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "listening" in line, line
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            assert self.proc.stdout is not None
            self.stdout_lines += self.proc.stdout.read().splitlines()
            self.proc = None

    def messages(self) -> list[dict[str, Any]]:
        return read(self.log)

    def wait_for(self, count: int, timeout: float = 60) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.messages()
            if len(got) >= count:
                return got
            time.sleep(0.1)
        raise AssertionError(f"the receiver got {len(self.messages())} of {count} messages")


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Callable[..., Receiver]]:
    started: list[Receiver] = []

    def make(mode: str = "ok", *, start: bool = True, **kw: Any) -> Receiver:
        rec = Receiver(tmp_path, mode, **kw)
        started.append(rec)
        return rec.start() if start else rec

    yield make
    for rec in started:
        rec.stop()


@pytest.fixture
def webhook_worker(
    transactional_db: None, tmp_path: Path, settings: Any, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Worker]]:
    """``start(**env)``: a worker on the configured broker and this run's queue."""
    url = django_settings.CELERY_BROKER_URL
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = QUEUE
    settings.CELERY_TASK_DEFAULT_QUEUE = QUEUE
    _use_broker(url)
    started: list[Worker] = []
    db_url = database_url()

    def start(**env: str) -> Worker:
        worker = Worker(url, db_url, tmp_path, len(started), False, **{**WORKER_ENV, **env})
        started.append(worker)
        worker.wait_ready()
        worker.wait_for("this process relays", 30, "the relay's lock")
        return worker

    try:
        yield start
    finally:
        for worker in started:
            worker.kill()
        failed = getattr(request.node, "rep_call", None)
        if failed is not None and failed.failed:
            for worker in started:
                print(f"--- {worker.name} log (tail) ---\n{worker.tail(120)}")
        _use_broker(None)
        celery_app.conf.task_default_queue = old_queue
        if url.startswith("redis"):
            _clean_redis(url)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
