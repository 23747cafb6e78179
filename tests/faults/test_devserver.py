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


# A leader with a child that, as a Celery pool process, dies of SIGTERM: the leader alone is
# told to stop, and lets its child finish first (Celery's warm shutdown).
LEADER = r"""
import os, signal, sys, time
marks = sys.argv[1]
def note(line):
    with open(marks, "a") as f:
        f.write(line + "\n")
child = os.fork()
if child == 0:
    signal.signal(signal.SIGTERM, lambda *_: (note("child got SIGTERM"), os._exit(1)))
    signal.signal(signal.SIGUSR1, lambda *_: (note("child finished its task"), os._exit(0)))
    note("child running")
    while True:
        time.sleep(1)
def stop(*_):
    note("leader got SIGTERM")
    os.kill(child, signal.SIGUSR1)
    os.waitpid(child, 0)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
while True:
    time.sleep(1)
"""


def test_stopping_tells_each_leader_and_lets_it_stop_its_own_processes(tmp_path: Path) -> None:
    from fbservice import devserver

    marks = tmp_path / "marks"
    child = devserver._Child("worker", [sys.executable, "-c", LEADER, str(marks)], dict(os.environ))
    wait_until(lambda: marks.exists() and "child running" in marks.read_text(), 10, "the child")
    devserver._stop([child])
    assert marks.read_text().splitlines() == [
        "child running",
        "leader got SIGTERM",
        "child finished its task",
    ]
    assert child.proc.returncode == 0


def test_what_does_not_stop_in_time_is_killed_with_its_whole_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fbservice import devserver

    ready = tmp_path / "ready"
    stubborn = (
        "import os, signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "os.fork() or open(sys.argv[1], 'w').close()\n"
        "time.sleep(60)"
    )
    monkeypatch.setattr(devserver, "GRACE_SECONDS", 0.5)
    child = devserver._Child("beat", [sys.executable, "-c", stubborn, str(ready)], dict(os.environ))
    group = child.proc.pid
    wait_until(ready.exists, 10, "the grandchild")
    devserver._stop([child])
    assert child.proc.returncode == -signal.SIGKILL
    # the forked grandchild went with its group
    wait_until(lambda: _group_empty(group), 5, "the group to be empty")


def _group_empty(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False
