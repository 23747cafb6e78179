"""Beat's health check (``python -m fbservice.beat check``, the compose file's) on a real
``celery beat`` and a private Redis: healthy while beat hands its tasks to the broker,
unhealthy within its max age once the broker is gone, healthy again when it is back. And
beat's first start on a fresh clone (no schedule file, no folder for it), and a start after
it was killed, are clean: no traceback, the sweeper sent."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from fbservice import devserver
from fbservice.beat import heartbeat_file, main
from tests.faults.conftest import QUEUE, REPO, PrivateRedis, base_env, wait_until

MAX_AGE = 3.0


def check(schedule: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603
        [sys.executable, "-m", "fbservice.beat", "check", "--max-age", str(MAX_AGE),
         "--file", str(schedule)],
        cwd=REPO, env=base_env(), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.fixture
def beat(tmp_path: Path):
    broker = PrivateRedis(tmp_path)
    broker.start()
    schedule = tmp_path / "beat"
    log = tmp_path / "beat.log"
    env = base_env(CELERY_BROKER_URL=broker.url, CELERY_BEAT_SCHEDULE_FILENAME=str(schedule),
                   FB_SWEEP_SECONDS="0.5", DATABASE_URL="postgres://unused/none")  # fmt: skip
    with log.open("w") as out:
        proc = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "celery", "-A", "fbservice", "beat", "-l", "INFO"],
            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        yield broker, schedule, log
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        broker.destroy()


def test_the_check_follows_whether_beat_reaches_the_broker(beat) -> None:
    broker, schedule, log = beat
    tail = lambda: f":\n{log.read_text()[-3000:]}"  # noqa: E731
    wait_until(lambda: check(schedule).returncode == 0, 60, "a healthy beat", tail())
    broker.kill()
    wait_until(lambda: check(schedule).returncode == 1, 30, "an unhealthy beat", tail())
    assert "ago" in check(schedule).stdout
    broker.start()
    wait_until(lambda: check(schedule).returncode == 0, 60, "beat healthy again", tail())
    # Through the outage: one line when sends start failing, one when they work again, and
    # no traceback (Celery logged each failed send, every tick, at ERROR with two).
    wait_until(lambda: "again, after" in log.read_text(), 10, "the recovery line", tail())
    text = log.read_text()
    assert "Traceback" not in text and "ERROR" not in text and "CRITICAL" not in text, text
    # one line each per outage, naming the entry that failed (or went) first: the sweeper
    # or another entry of the schedule (the tournaments' sweep)
    assert len(re.findall(r"beat: cannot send fb-[a-z]+ ", text)) == 1, text
    assert len(re.findall(r"beat: sending fb-[a-z]+ again, after", text)) == 1, text


def test_a_beat_that_never_sent_anything_is_unhealthy(tmp_path: Path) -> None:
    schedule = tmp_path / "beat"
    assert main(["check", "--file", str(schedule)]) == 1
    heartbeat_file(str(schedule)).touch()
    assert main(["check", "--file", str(schedule)]) == 0
    os.utime(heartbeat_file(str(schedule)), (0, 0))
    assert main(["check", "--file", str(schedule), "--max-age", "30"]) == 1


def sent_tasks(broker: PrivateRedis) -> list[str]:
    """The names of the tasks waiting in our queue on the private Redis."""
    client = redis.Redis(unix_socket_path=str(broker.sock))
    return [json.loads(raw)["headers"]["task"] for raw in client.lrange(QUEUE, 0, -1)]


def test_beats_first_start_from_nothing_is_clean_and_sends_the_sweeper(tmp_path: Path) -> None:
    """As `make run` starts it on a fresh clone: the schedule file's folder (.local/) does
    not exist yet. Celery's shelve scheduler logged "Removing corrupted schedule file" at
    ERROR with a traceback, then exited; killed and started again, it must be clean too."""
    broker = PrivateRedis(tmp_path)
    broker.start()
    schedule = tmp_path / "clone" / ".local" / "celerybeat-schedule"
    env = base_env(CELERY_BROKER_URL=broker.url, CELERY_BEAT_SCHEDULE_FILENAME=str(schedule),
                   FB_SWEEP_SECONDS="0.5", DATABASE_URL="postgres://unused/none")  # fmt: skip
    log = tmp_path / "beat.log"
    try:
        for start in (1, 2):
            with log.open("w") as out:
                proc = subprocess.Popen(  # noqa: S603 - the dev runner's own command for beat
                    devserver.commands("127.0.0.1", 0)["beat"], cwd=REPO, env=env,
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )  # fmt: skip
            try:
                wait_until(lambda: heartbeat_file(str(schedule)).exists() and sent_tasks(broker),
                           30, f"beat's first sweep (start {start})", f":\n{log.read_text()}")  # fmt: skip
                wait_until(lambda: len(sent_tasks(broker)) >= 3, 30, "more sweeps")
                assert proc.poll() is None, log.read_text()
            finally:
                os.killpg(proc.pid, signal.SIGKILL)  # as a crash would: no clean shutdown
                proc.wait(timeout=10)
            text = log.read_text()
            assert "Traceback" not in text and "ERROR" not in text and "CRITICAL" not in text, text
            assert set(sent_tasks(broker)) == {"games.tasks.sweep"}
            # nothing but the heartbeat is kept: no state that could look corrupted
            assert sorted(p.name for p in schedule.parent.iterdir()) == [
                heartbeat_file(str(schedule)).name
            ]
            heartbeat_file(str(schedule)).unlink()
            redis.Redis(unix_socket_path=str(broker.sock)).delete(QUEUE)
    finally:
        broker.destroy()
