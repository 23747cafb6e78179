"""Celery beat's scheduler, with a heartbeat, and the health check that reads it.

    python -m fbservice.beat check [--max-age SECONDS] [--file SCHEDULE_FILE]

The scheduler (settings.CELERY_BEAT_SCHEDULER) touches ``<schedule file>.sent`` each time
it has handed a task to the broker, every FB_SWEEP_SECONDS with the sweeper in the
schedule. The check exits 0 when that file is younger than ``--max-age`` (30 s), 1
otherwise: a beat that is stuck, or cannot reach the broker, fails it within half a
minute. (Beat rewrites its schedule file only every few minutes, so that file's age said
little.) The schedule file defaults to CELERY_BEAT_SCHEDULE_FILENAME from the environment,
as beat's own.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from celery.beat import PersistentScheduler

HEARTBEAT_SUFFIX = ".sent"
DEFAULT_MAX_AGE = 30.0


def heartbeat_file(schedule_file: str) -> Path:
    return Path(schedule_file + HEARTBEAT_SUFFIX)


class Scheduler(PersistentScheduler):  # type: ignore[misc]  # Celery ships no types
    """Celery's default scheduler, touching the heartbeat file after each task it sent
    (not after a failed send: that raises)."""

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True, **kw: Any) -> Any:
        result = super().apply_async(entry, producer=producer, advance=advance, **kw)
        heartbeat_file(self.schedule_filename).touch()
        return result


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
