"""Celery workers of our own, as subprocesses: shared by the timer and fault tests'
``workers`` fixtures (tests/timers/conftest.py, tests/faults/conftest.py) and the outage
bench (bench/_outage.py, which starts beat and clock loops as ``Process`` too).

A worker runs ``celery -A fbservice worker`` in its own process group (a kill takes its
pool processes and an embedded beat too), logging to a file, against the database this
process uses (``database_url``) and the broker and queue it is given, with timers and bots
on Celery as in production (``worker_env``). ``use_broker`` points this process's own
Celery app at the same broker, so the tasks it sends reach the worker.

Plain Python, no pytest: a wait that fails raises ``WaitFailed``. Import it after Django
is set up.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

from django.db import connection

from fbservice.celery import app as celery_app

REPO = Path(__file__).resolve().parent.parent


class WaitFailed(RuntimeError):
    """A process exited, or did not log what was waited for in time (its log's tail is in
    the message)."""


def database_url() -> str:
    """A DATABASE_URL naming the database this process uses (under pytest-django, the test
    database ``test_<name>``)."""
    d = connection.settings_dict
    auth = quote(d["USER"] or "", safe="")
    if d["PASSWORD"]:
        auth += ":" + quote(d["PASSWORD"], safe="")
    options = {k: str(v) for k, v in (d.get("OPTIONS") or {}).items() if isinstance(v, str | int)}
    host = d["HOST"] or ""
    if host.startswith("/"):
        options["host"] = host
        netloc = f"{auth}@" if auth else ""
    else:
        netloc = f"{auth}@{host}" if auth else host
        if d["PORT"]:
            netloc += f":{d['PORT']}"
    query = f"?{urlencode(options)}" if options else ""
    return f"postgres://{netloc}/{quote(d['NAME'])}{query}"


def use_broker(url: str | None) -> None:
    """Point this process's Celery app at ``url`` (None: back to the configured broker).
    CELERY_BROKER_URL in the environment wins over app.conf.broker_url, so the write and
    read URLs are set instead, and the cached producer pool is dropped (private API:
    tests and benches only; kombu keeps pools per connection, so the old one is reused on
    the way back)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    celery_app.conf.broker_write_url = url
    celery_app.conf.broker_read_url = url


def worker_env(
    *, db_url: str, broker_url: str, queue: str, beat_schedule: Path, think_seconds: float,
    **extra: str,
) -> dict[str, str]:  # fmt: skip
    """This process's environment for a worker (or beat, or a clock loop) on ``queue``:
    tasks scheduled, bots on Celery thinking ``think_seconds``, never the embedded
    servers; ``extra`` is set last."""
    env = dict(
        os.environ,
        DATABASE_URL=db_url,
        CELERY_BROKER_URL=broker_url,
        CELERY_TASK_DEFAULT_QUEUE=queue,
        CELERY_BEAT_SCHEDULE_FILENAME=str(beat_schedule),
        FB_EMBEDDED="false",
        FB_BOTS_INLINE="false",
        FB_SCHEDULE_TASKS="true",
        FB_BOT_THINK_SECONDS=str(think_seconds),
        PYTHONUNBUFFERED="1",
    )
    env.pop("CELERY_BROKER_WRITE_URL", None)
    env.update(extra)
    return env


class Process:
    """One subprocess in its own process group, logging to ``log`` (appended to);
    ``start()`` again starts it anew."""

    def __init__(
        self, label: str, cmd: list[str], env: dict[str, str], log: Path, cwd: Path = REPO
    ) -> None:
        self.label, self.cmd, self.env, self.log, self.cwd = label, cmd, env, log, cwd
        self.starts = 0
        self.proc: subprocess.Popen[bytes]
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(  # noqa: S603 - our interpreter, our arguments
                self.cmd, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.starts += 1

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.text().splitlines()[-lines:])

    def wait_for(self, pattern: str, timeout: float, what: str) -> None:
        """Until the log matches ``pattern``; ``WaitFailed`` if the process exits first or
        ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, self.text()):
                return
            if self.proc.poll() is not None:
                raise WaitFailed(
                    f"{self.label} exited ({self.proc.returncode}) before {what}:\n{self.tail()}"
                )
            time.sleep(0.05)
        raise WaitFailed(f"{self.label}: no {what} within {timeout:.0f}s:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL the whole group (a worker's pool processes and its beat too)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)


def worker_command(node: str, queue: str, *, concurrency: int = 2, beat: bool = False) -> list[str]:
    """``celery worker`` (prefork, ``concurrency`` processes; an embedded beat with
    ``beat``) named ``node``, taking tasks from ``queue`` only."""
    return [
        sys.executable, "-m", "celery", "-A", "fbservice", "worker", *(["-B"] if beat else []),
        "-l", "INFO", "-P", "prefork", "-c", str(concurrency), "-n", node, "-Q", queue,
        "--without-mingle", "--without-gossip",
    ]  # fmt: skip


class Worker(Process):
    """A Celery worker named ``node`` on ``queue`` (see ``worker_command``)."""

    def __init__(
        self, label: str, node: str, queue: str, env: dict[str, str], log: Path, *,
        concurrency: int = 2, beat: bool = False, cwd: Path = REPO,
    ) -> None:  # fmt: skip
        self.name = node
        command = worker_command(node, queue, concurrency=concurrency, beat=beat)
        super().__init__(label, command, env, log, cwd)

    def wait_ready(self, timeout: float = 60) -> None:
        self.wait_for(r"\bready\.", timeout, "'ready' line")
