"""Celery beat's scheduler, with a heartbeat, and the health check that reads it.

    python -m fbservice.beat check [--max-age SECONDS] [--file SCHEDULE_FILE]

The scheduler (settings.CELERY_BEAT_SCHEDULER) keeps its schedule in memory: its only
entry is the sweeper, every FB_SWEEP_SECONDS, so a restarted beat loses nothing by starting
afresh. Celery's default scheduler keeps it in a shelve file, and treats any failure to
open that file as corruption: on a fresh clone (no such file, its folder not made yet) it
logged "Removing corrupted schedule file" at ERROR with two tracebacks and exited, and a
file half-written when beat was killed would do the same. (Add a long-period entry, a
daily crontab, and a persistent schedule would be worth having again: one missed while
beat was down would not run.)

The scheduler touches ``<schedule file>.sent`` each time it has handed a task to the
broker, every FB_SWEEP_SECONDS; it makes the file's folder when it starts. The check exits
0 when that file is younger than ``--max-age`` (30 s), 1 otherwise: a beat that is stuck,
or cannot reach the broker, fails it within half a minute. The schedule file (now only the
heartbeat's name) defaults to CELERY_BEAT_SCHEDULE_FILENAME from the environment, as beat's
own.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from celery import beat

HEARTBEAT_SUFFIX = ".sent"
DEFAULT_MAX_AGE = 30.0
STILL_FAILING_EVERY = 60.0  # seconds between the lines saying sends still fail

log = logging.getLogger(__name__)


def heartbeat_file(schedule_file: str) -> Path:
    return Path(schedule_file + HEARTBEAT_SUFFIX)


class Scheduler(beat.Scheduler):  # type: ignore[misc]  # Celery ships no types
    """Celery's in-memory scheduler, touching the heartbeat file after each task it sent
    (not after a failed send: that raises)."""

    def __init__(self, *args: Any, schedule_filename: str | None = None, **kw: Any) -> None:
        app = kw.get("app") or args[0]
        self.schedule_filename = schedule_filename or app.conf.beat_schedule_filename
        heartbeat_file(self.schedule_filename).parent.mkdir(parents=True, exist_ok=True)
        super().__init__(*args, **kw)

    failing_since: float | None = None  # monotonic time of the first failed send in a row
    failing_said: float = 0.0

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **kw: Any) -> Any:
        result = super().apply_async(entry, producer=producer, advance=advance, **kw)
        heartbeat_file(self.schedule_filename).touch()
        return result

    def apply_entry(self, entry: Any, producer: Any = None) -> None:
        """Celery's, but a send that fails (the broker is away: every FB_SWEEP_SECONDS
        while it is) is one WARNING line, then one a minute, and never a traceback: Celery
        logged each at ERROR with two (its stack and the exception's). Nothing is lost by
        a missed sweep: the workers sweep on their own and the clock loops keep deadlines
        from PostgreSQL alone."""
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as exc:  # whatever the transport raises; the next tick retries
            self._send_failed(entry, exc)
        else:
            if self.failing_since is not None:
                down = time.monotonic() - self.failing_since
                log.warning("beat: sending %s again, after %.0fs of failed sends", entry.name, down)
                self.failing_since = None

    def _send_failed(self, entry: Any, exc: Exception) -> None:
        now = time.monotonic()
        reason = f"{type(exc).__name__}: {exc}".strip()
        if self.failing_since is None:
            self.failing_since = self.failing_said = now
            log.warning("beat: cannot send %s (%s); retrying each tick", entry.name, reason)
        elif now - self.failing_said >= STILL_FAILING_EVERY:
            self.failing_said = now
            log.warning(
                "beat: still cannot send %s, for %.0fs (%s)",
                entry.name, now - self.failing_since, reason,
            )  # fmt: skip

    @property
    def info(self) -> str:
        return f"    . heartbeat -> {heartbeat_file(self.schedule_filename)}"


def age(schedule_file: str, now: float | None = None) -> float | None:
    """Seconds since beat last sent a task; None if it never did."""
    try:
        sent = heartbeat_file(schedule_file).stat().st_mtime
    except FileNotFoundError:
        return None
    return (time.time() if now is None else now) - sent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Is Celery beat sending its tasks?")
    parser.add_argument("command", choices=["check"])
    parser.add_argument("--max-age", type=float, default=DEFAULT_MAX_AGE)
    parser.add_argument("--file", default=os.environ.get("CELERY_BEAT_SCHEDULE_FILENAME"))
    args = parser.parse_args(argv)
    if not args.file:
        print("no schedule file: pass --file or set CELERY_BEAT_SCHEDULE_FILENAME")
        return 2
    seconds = age(args.file)
    if seconds is None:
        print(f"beat has sent nothing yet ({heartbeat_file(args.file)} does not exist)")
        return 1
    if seconds > args.max_age:
        print(f"beat last sent a task {seconds:.0f}s ago (more than {args.max_age:.0f}s)")
        return 1
    print(f"beat sent a task {seconds:.1f}s ago")
    return 0


if __name__ == "__main__":
    sys.exit(main())
