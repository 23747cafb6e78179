"""Beat's health check (``python -m fbservice.beat check``, the compose file's) on a real
``celery beat`` and a private Redis: healthy while beat hands its tasks to the broker,
unhealthy within its max age once the broker is gone, healthy again when it is back."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fbservice.beat import heartbeat_file, main
from tests.faults.conftest import REPO, PrivateRedis, base_env, wait_until

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


def test_a_beat_that_never_sent_anything_is_unhealthy(tmp_path: Path) -> None:
    schedule = tmp_path / "beat"
    assert main(["check", "--file", str(schedule)]) == 1
    heartbeat_file(str(schedule)).touch()
    assert main(["check", "--file", str(schedule)]) == 0
    os.utime(heartbeat_file(str(schedule)), (0, 0))
    assert main(["check", "--file", str(schedule), "--max-age", "30"]) == 1
