"""The dev runner (``python -m fbservice.devserver``, what ``make run`` runs) restarts a
Celery worker or beat that dies, and keeps the web server up meanwhile: the timers must not
stop because one process did. It runs on the test database, a private Redis and a queue of
its own; its whole process tree is killed at teardown."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.conftest import REPO, PrivateRedis, base_env, database_url, free_port, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


class DevServer:
    def __init__(self, folder: Path, broker_url: str) -> None:
        self.port = free_port()
        self.log = folder / "devserver.log"
        env = base_env(
            DATABASE_URL=database_url(),
            CELERY_BROKER_URL=broker_url,
            CELERY_BEAT_SCHEDULE_FILENAME=str(folder / "beat"),
            WORKER_CONCURRENCY="1",
        )
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(  # noqa: S603
                [sys.executable, "-m", "fbservice.devserver", "--port", str(self.port)],
                cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def pids(self, name: str) -> list[int]:
        return [int(p) for p in re.findall(rf"started {name} \(pid (\d+)\)", self.text())]

    def wait_for(self, pattern: str, count: int, what: str, timeout: float = 60) -> None:
        wait_until(lambda: len(re.findall(pattern, self.text())) >= count, timeout, what,
                   f":\n{self.text()[-4000:]}")  # fmt: skip


@pytest.fixture
def devserver(tmp_path: Path) -> Iterator[DevServer]:
    broker = PrivateRedis(tmp_path)
    broker.start()
    server = DevServer(tmp_path, broker.url)
    try:
        yield server
    finally:
        # the runner stops its children (each its own group) on SIGTERM; SIGKILL any left
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.proc.wait(timeout=20)
        for name in ("web", "worker", "beat"):
            for pid in server.pids(name):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.proc.pid, signal.SIGKILL)
        broker.destroy()


def test_a_dead_worker_and_a_dead_beat_are_restarted_the_web_server_stays(devserver) -> None:
    devserver.wait_for(r"worker \| .*\bready\.", 1, "the worker's 'ready' line")
    devserver.wait_for(r"beat \| .*beat: Starting", 1, "beat's start")
    web = devserver.pids("web")
    for name in ("worker", "beat"):
        os.killpg(devserver.pids(name)[-1], signal.SIGKILL)
        devserver.wait_for(rf"{name} exited with code -9 .*; restarting it", 1, f"{name} restart")
        devserver.wait_for(rf"started {name} \(pid", 2, f"a new {name}")
    devserver.wait_for(r"worker \| .*\bready\.", 2, "the new worker's 'ready' line")
    devserver.wait_for(r"beat \| .*beat: Starting", 2, "the new beat's start")
    assert devserver.proc.poll() is None, devserver.text()[-4000:]
    assert devserver.pids("web") == web  # the web server was never restarted
    assert "stopping the rest" not in devserver.text()
