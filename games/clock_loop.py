"""The clock loop: deadlines kept with nothing but PostgreSQL. See docs/timers.md.

Celery countdown tasks are the primary way windows close, turns time out and bots move on
time; they travel through the broker, so while it is down (or a worker dies holding them)
nobody acts. The clock loop acts on the same deadlines straight from the clock projection
(``games_gameclock``), in its own process (``manage.py clock_loop``), with the same
idempotent service functions the tasks call, once a deadline is ``FB_CLOCK_GRACE_SECONDS``
past and still pending: normally the task has done it by then and the loop finds nothing.

Several loops (several hosts) share the work without acting twice: a loop *claims* due
rows in one short transaction (``SELECT ... FOR UPDATE SKIP LOCKED``, so claimers never
wait on each other, then ``claimed_until_ms`` set to a lease), commits, acts, and gives
the claim back. No lock is held while acting, so the loop never holds the clock row while
appending events (appends lock events first, then the clock row: one order). A loop that
dies mid-claim delays its rows by at most the lease; the tasks still run meanwhile.

It sleeps until the next deadline (plus grace), or until an append announces itself on
``fb_events`` (``events.notify``): a new deadline may be earlier than the one it waits for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction

from games import send_guard, service
from games.core import RuleViolation
from games.errors import ServiceError
from games.models import GameClock

log = logging.getLogger(__name__)

# Claim up to `limit` rows with a deadline at or before `cutoff` that no live claim holds,
# oldest deadline first; rows another claimer has locked right now are skipped, not waited on.
_CLAIM = """
WITH due AS (
    SELECT game_id FROM games_gameclock
    WHERE (window_deadline_ms <= %(cutoff)s OR turn_deadline_ms <= %(cutoff)s
           OR bot_due_ms <= %(cutoff)s)
      AND (claimed_until_ms IS NULL OR claimed_until_ms <= %(now)s)
    ORDER BY LEAST(window_deadline_ms, turn_deadline_ms, bot_due_ms)
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
)
UPDATE games_gameclock AS c SET claimed_until_ms = %(until)s
FROM due WHERE c.game_id = due.game_id
RETURNING c.game_id, c.version, c.window_id, c.window_deadline_ms, c.turn_key,
          c.turn_deadline_ms, c.bot_due_ms
"""

# The earliest deadline no live claim holds (one index scan per kind of deadline).
_NEXT_DUE = """
SELECT LEAST(
    (SELECT window_deadline_ms FROM games_gameclock WHERE window_deadline_ms IS NOT NULL
       AND (claimed_until_ms IS NULL OR claimed_until_ms <= %(now)s)
     ORDER BY window_deadline_ms LIMIT 1),
    (SELECT turn_deadline_ms FROM games_gameclock WHERE turn_deadline_ms IS NOT NULL
       AND (claimed_until_ms IS NULL OR claimed_until_ms <= %(now)s)
     ORDER BY turn_deadline_ms LIMIT 1),
    (SELECT bot_due_ms FROM games_gameclock WHERE bot_due_ms IS NOT NULL
       AND (claimed_until_ms IS NULL OR claimed_until_ms <= %(now)s)
     ORDER BY bot_due_ms LIMIT 1))
"""

# Overdue deadlines, for /healthz: how many rows have one older than `cutoff`, and the oldest.
_OVERDUE = """
SELECT count(*), min(LEAST(
    CASE WHEN window_deadline_ms <= %(cutoff)s THEN window_deadline_ms END,
    CASE WHEN turn_deadline_ms <= %(cutoff)s THEN turn_deadline_ms END,
    CASE WHEN bot_due_ms <= %(cutoff)s THEN bot_due_ms END))
FROM games_gameclock
WHERE window_deadline_ms <= %(cutoff)s OR turn_deadline_ms <= %(cutoff)s
   OR bot_due_ms <= %(cutoff)s
"""


@dataclass(frozen=True)
class Due:
    """A claimed clock row: what its game waits for, and until when."""

    game_id: uuid.UUID
    version: int
    window_id: str
    window_deadline_ms: int | None
    turn_key: str
    turn_deadline_ms: int | None
    bot_due_ms: int | None


def overdue(now: int | None = None, tolerance_ms: int = 1000) -> tuple[int, int | None]:
    """How many games have a deadline more than ``tolerance_ms`` past, and the oldest such
    deadline (ms since the epoch; None when there is none)."""
    now = service.clock_ms() if now is None else now
    with connection.cursor() as cursor:
        cursor.execute(_OVERDUE, {"cutoff": now - tolerance_ms})
        count, oldest = cursor.fetchone()
    return int(count), oldest


class ClockLoop:
    """Claims due clock rows and acts on them; ``run`` repeats that until stopped."""

    def __init__(
        self,
        *,
        grace: float | None = None,
        lease: float | None = None,
        batch: int = 20,
        idle: float | None = None,
        name: str | None = None,
    ) -> None:
        self.grace_ms = int(1000 * (settings.FB_CLOCK_GRACE_SECONDS if grace is None else grace))
        self.lease_ms = int(1000 * (settings.FB_CLOCK_LEASE_SECONDS if lease is None else lease))
        self.idle = float(settings.FB_CLOCK_IDLE_SECONDS if idle is None else idle)
        self.batch = batch
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.stopping = threading.Event()
        self.acted = 0  # actions taken since start (tests and the bench read it)
        self.heartbeat: Path | None = None  # touched after every pass (a health check)

    # -- one pass ----------------------------------------------------------------------

    def claim(self, now: int) -> list[Due]:
        """Claim due rows in one short transaction (committed before acting)."""
        params = {
            "cutoff": now - self.grace_ms,
            "now": now,
            "until": now + self.lease_ms,
            "limit": self.batch,
        }
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_CLAIM, params)
            rows = cursor.fetchall()
        return sorted((Due(*row) for row in rows), key=_earliest)

    def release(self, row: Due) -> None:
        GameClock.objects.filter(game_id=row.game_id).update(claimed_until_ms=None)

    def run_once(self, now: int | None = None) -> int:
        """Claim and act until nothing is due; returns how many actions were taken.
        ``now``: the clock to act at (tests); the real one by default."""
        acted = 0
        while not self.stopping.is_set():
            at = service.clock_ms() if now is None else now
            rows = self.claim(at)
            if not rows:
                break
            for row in rows:
                try:
                    acted += self.act(row, at - self.grace_ms, now)
                finally:
                    self.release(row)
            if len(rows) < self.batch:
                break
        self.acted += acted
        return acted

    def act(self, row: Due, cutoff: int, now: int | None = None) -> int:
        """Do whatever of the row is due: close its window, time out its turn, move its
        bot. Each is the tasks' idempotent service call; returns how many acted."""
        gid = row.game_id
        acted = 0
        if row.window_deadline_ms is not None and row.window_deadline_ms <= cutoff:
            acted += self._do(
                row,
                "window_deadline_ms",
                row.window_deadline_ms,
                f"closed window {row.window_id}",
                lambda: service.close_window(
                    game_id=gid, window_id=row.window_id, deadline=row.window_deadline_ms or 0,
                    now=now, by="clock",
                ),
            )  # fmt: skip
        if row.turn_deadline_ms is not None and row.turn_deadline_ms <= cutoff:
            acted += self._do(
                row,
                "turn_deadline_ms",
                row.turn_deadline_ms,
                f"played timed-out turn {row.turn_key}",
                lambda: service.turn_timeout(
                    game_id=gid,
                    key=row.turn_key,
                    deadline=row.turn_deadline_ms or 0,
                    now=now,
                    by="clock",
                ),
            )
        if row.bot_due_ms is not None and row.bot_due_ms <= cutoff:
            acted += self._do(
                row,
                "bot_due_ms",
                row.bot_due_ms,
                "moved a bot",
                lambda: service.bot_move(game_id=gid, version=row.version),
            )
        return acted

    def _do(self, row: Due, field: str, deadline: int, what: str, call: Callable[[], Any]) -> int:
        try:
            outcome = call()
        except (RuleViolation, ServiceError) as exc:
            log.info("clock loop: %s of %s refused: %s", field, row.game_id, exc)
            outcome = None
        except Exception:
            log.exception("clock loop: %s of %s failed", field, row.game_id)
            return 0
        if outcome is None:
            # Nothing to do (a bot that lets a window run out, a stale row): forget this
            # deadline unless the game moved on meanwhile, so it is not retried forever.
            GameClock.objects.filter(game_id=row.game_id, version=row.version).update(
                **{field: None}
            )
            return 0
        if outcome.replayed:
            return 0  # a task (or another closer) got there first: its outcome stands
        late = (service.clock_ms() - deadline) / 1000
        log.info(
            "clock loop %s: %s of game %s, %.2fs after its deadline (%s)",
            self.name, what, row.game_id, late, self._why(),
        )  # fmt: skip
        return 1

    def _why(self) -> str:
        down = send_guard.down_since()
        if down is not None:
            return f"the broker has been unreachable for {time.monotonic() - down:.1f}s"
        grace = self.grace_ms / 1000
        return f"no task had done it {grace:.2f}s after the deadline: broker or worker lost it"

    # -- the loop ----------------------------------------------------------------------

    def next_wake(self, now: int) -> float:
        """Seconds to sleep: until the next unclaimed deadline plus grace, at most idle."""
        with connection.cursor() as cursor:
            cursor.execute(_NEXT_DUE, {"now": now})
            (due,) = cursor.fetchone()
        if due is None:
            return self.idle
        return float(min(max((due + self.grace_ms - now) / 1000, 0.0), self.idle))

    def run(self) -> None:
        """Act on due deadlines until ``stop()``; survives database outages (retrying)."""
        log.info(
            "clock loop %s: acting on deadlines %.2fs past due (lease %.1fs)",
            self.name, self.grace_ms / 1000, self.lease_ms / 1000,
        )  # fmt: skip
        listener = _Listener()
        try:
            while not self.stopping.is_set():
                try:
                    close_old_connections()
                    self.run_once()
                    wait = self.next_wake(service.clock_ms())
                    if self.heartbeat is not None:
                        self.heartbeat.touch()
                except Exception:
                    log.exception("clock loop %s: pass failed; retrying", self.name)
                    with contextlib.suppress(Exception):
                        connection.close()
                    wait = 1.0
                if wait > 0:
                    listener.wait(wait, self.stopping)
        finally:
            listener.close()
            with contextlib.suppress(Exception):
                connection.close()

    def stop(self) -> None:
        self.stopping.set()


def _earliest(row: Due) -> int:
    deadlines = [row.window_deadline_ms, row.turn_deadline_ms, row.bot_due_ms]
    return min(d for d in deadlines if d is not None)


class _Listener:
    """A LISTEN connection on the appends' channel: a wait ends early when a game appends
    (its new deadline may come before the one waited for). Without it (the database is
    away) waits simply run their course, and it reconnects on the next wait."""

    # After a wake by an announcement, the next wait sleeps at least this long, so a busy
    # server (hundreds of appends a second) costs a few next-deadline queries, not one each.
    SETTLE = 0.05

    def __init__(self) -> None:
        self.conn: Any = None
        self.retry_at = 0.0

    def _connect(self) -> Any:
        if self.conn is not None or time.monotonic() < self.retry_at:
            return self.conn
        import psycopg

        from events.notify import CHANNEL, connection_params

        try:
            params = connection_params()
            params["application_name"] = "fbservice-clock"
            self.conn = psycopg.connect(**params, autocommit=True)
            self.conn.execute(f"LISTEN {CHANNEL}")
        except Exception as exc:
            log.warning("clock loop: cannot listen for appends (%s); polling", exc)
            self.close()
            self.retry_at = time.monotonic() + 5.0
        return self.conn

    def wait(self, seconds: float, stopping: threading.Event) -> None:
        conn = self._connect()
        if conn is None:
            stopping.wait(seconds)
            return
        woken = False
        try:
            for _ in conn.notifies(timeout=seconds, stop_after=1):
                woken = True
            if woken:
                for _ in conn.notifies(timeout=0.0, stop_after=100_000):
                    pass  # the rest of a burst: one wake for all of it
        except Exception as exc:
            log.warning("clock loop: lost the LISTEN connection (%s)", exc)
            self.close()
            stopping.wait(min(seconds, 1.0))
            return
        if woken:
            stopping.wait(min(self.SETTLE, seconds))

    def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
        self.conn = None
