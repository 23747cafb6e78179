"""``manage.py clock_loop``: keep the games' deadlines from PostgreSQL alone (games.clock_loop).

Run one or more anywhere the database is reachable (``make run`` starts one, the compose
file's ``clock`` service runs two); they share the work. SIGTERM or Ctrl-C stops it within
a second or two (it finishes the actions under way)."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.clock_loop import ClockLoop


class Command(BaseCommand):
    help = "Act on overdue game deadlines (windows, turn limits, bot moves) from PostgreSQL."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--grace", type=float, help="seconds past due, tasks healthy (FB_CLOCK_GRACE_SECONDS)"
        )
        parser.add_argument(
            "--outage-grace", type=float,
            help="seconds past due, broker or workers away (FB_CLOCK_OUTAGE_GRACE_SECONDS)",
        )  # fmt: skip
        parser.add_argument("--threads", type=int, help="games acted on at once (FB_CLOCK_THREADS)")
        parser.add_argument("--lease", type=float, help="claim lease (FB_CLOCK_LEASE_SECONDS)")
        parser.add_argument("--once", action="store_true", help="one pass, then exit")
        parser.add_argument(
            "--heartbeat", help="a file touched after every pass (at least every second)"
        )
        parser.add_argument(
            "--check", type=float, metavar="MAX_AGE",
            help="health check: exit 1 unless the --heartbeat file is at most MAX_AGE s old",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"] is not None:
            path = Path(options["heartbeat"] or "")
            age = time.time() - path.stat().st_mtime if path.is_file() else None
            if age is None:
                raise CommandError(f"clock loop heartbeat {path}: missing")
            if age > options["check"]:
                raise CommandError(f"clock loop heartbeat {path}: {age:.0f}s old")
            self.stdout.write(f"clock loop alive ({age:.1f}s ago)")
            return
        loop = ClockLoop(
            grace=options["grace"],
            outage_grace=options["outage_grace"],
            lease=options["lease"],
            threads=options["threads"],
        )
        if options["heartbeat"]:
            loop.heartbeat = Path(options["heartbeat"])
        if options["once"]:
            with loop:
                loop.check()
                self.stdout.write(f"acted on {loop.run_once()} deadline(s)")
            return
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: loop.stop())
        loop.run()
