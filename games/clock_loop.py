"""The clock loop: deadlines kept with nothing but PostgreSQL. See docs/timers.md.

Celery countdown tasks are the primary way windows close, turns time out and bots move on
time; they travel through the broker, so while it is down (or a worker dies holding them)
nobody acts. The clock loop acts on the same deadlines straight from the clock projection
(``games_gameclock``), in its own process (``manage.py clock_loop``), with the same
idempotent service functions the tasks call, once a deadline is a *grace* past and still
pending: normally the task has done it by then and the loop finds nothing.

The grace depends on what the loop knows of the tasks' path (``Health``). While the broker
answers and a worker runs, a task that has not acted yet is late, not lost (a loaded
worker queues it), so the loop gives it ``FB_CLOCK_GRACE_SECONDS`` (2 s). While the broker
is unreachable, or no worker runs, the loop is the only timer and the grace is pure added
lateness, so it waits only ``FB_CLOCK_OUTAGE_GRACE_SECONDS`` (0.3 s), and keeps that for
``FB_CLOCK_RECOVERY_SECONDS`` after: tasks that were not sent meanwhile (or died with a
worker) are missing for deadlines falling due after the outage.

Several loops (several hosts) share the work without acting twice: a loop *claims* due
rows in one short transaction (``SELECT ... FOR UPDATE SKIP LOCKED``, so claimers never
wait on each other, then ``claimed_until_ms`` set to a lease), commits, acts, and gives
the claim back. No lock is held while acting, so the loop never holds the clock row while
appending events (appends lock events first, then the clock row: one order). A loop that
dies mid-claim delays its rows by at most the lease; the tasks still run meanwhile. The
claim is also what lets one loop act on several games at once (``FB_CLOCK_THREADS``): each
claimed row is one game, acted on by one thread. Windows and turn limits are claimed and
acted on before bot moves: a window or turn limit not acted on holds up the whole table;
a bot moving a little late harms nobody.

It sleeps until the next deadline (plus grace), or until an append announces itself on
``fb_events`` (``events.notify``): a new deadline may be earlier than the one it waits for.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import socket
import threading
import time
import uuid
from collections import Counter
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
from games.sweeper import sweeper_running

log = logging.getLogger(__name__)

PROBE_SECONDS = 0.5  # how often the broker and the workers are checked
SUMMARY_SECONDS = 60.0  # at most one INFO summary of the loop's actions this often

# Claim up to `limit` rows with a deadline at or before `cutoff` that no live claim holds:
# rows with a window or turn due first, then by oldest deadline; rows another claimer has
# locked right now are skipped, not waited on.
_CLAIM = """
WITH due AS (
    SELECT game_id FROM games_gameclock
    WHERE (window_deadline_ms <= %(cutoff)s OR turn_deadline_ms <= %(cutoff)s
           OR bot_due_ms <= %(cutoff)s)
      AND (claimed_until_ms IS NULL OR claimed_until_ms <= %(now)s)
    ORDER BY COALESCE(window_deadline_ms <= %(cutoff)s OR turn_deadline_ms <= %(cutoff)s,
                      false) DESC,
             LEAST(window_deadline_ms, turn_deadline_ms, bot_due_ms)
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

# What each deadline is, for the log.
_KINDS = {"window_deadline_ms": "window", "turn_deadline_ms": "turn", "bot_due_ms": "bot move"}


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


@dataclass(frozen=True)
class Why:
    """Why the loop acts on deadlines now: ``key`` names the state ("late": the tasks'
    path is whole, so a task not done yet is late; otherwise what is wrong), ``reason``
    says it in words for the log."""

    key: str
    reason: str


# The tasks' path is whole: a task not done yet is late (a worker behind), not lost.
LATE = Why("late", "its task is late, not lost: the broker answers and a worker runs")
_LATE_TASKS = "their tasks were late, not lost: the broker answers and a worker runs"


def overdue(now: int | None = None, tolerance_ms: int = 1000) -> tuple[int, int | None]:
    """How many games have a deadline more than ``tolerance_ms`` past, and the oldest such
    deadline (ms since the epoch; None when there is none)."""
    now = service.clock_ms() if now is None else now
    with connection.cursor() as cursor:
        cursor.execute(_OVERDUE, {"cutoff": now - tolerance_ms})
        count, oldest = cursor.fetchone()
    return int(count), oldest


# -- what the loop knows of the tasks' path ------------------------------------------------


class Health:
    """Evidence that the timer tasks can do their job: the broker answers (this process's
    sends go through, and ``BrokerProbe`` gets answers) and a worker runs (a Celery worker
    holds the sweeper's advisory lock, games.sweeper). ``trouble()`` says what is wrong,
    or None when the tasks can be trusted to be merely late.

    This process's failed sends count only when they came after the probe's last answer:
    a send guard keeps saying "down" until its next send goes through, which in a loop with
    nothing to do may be long after the broker came back.

    ``broker()`` is called from the probe thread, the rest from the loop's thread; each
    field is one assignment, so no lock is needed."""

    def __init__(self, recovery: float) -> None:
        self.recovery = recovery
        self.broker_checked = False
        self.broker_down: float | None = None  # monotonic: first failed probe of an outage
        self.broker_answered = -math.inf  # monotonic: the probe's last answer
        self.worker_checked = False
        self.worker_gone: float | None = None  # monotonic: first look that found none
        self.last: Why | None = None  # the last trouble seen
        self.recovered: tuple[float, str] | None = None  # when it ended, and what it was

    def broker(self, answered: bool, now: float | None = None) -> None:
        """The probe's finding."""
        now = time.monotonic() if now is None else now
        if answered:
            self.broker_down, self.broker_answered = None, now
        elif self.broker_down is None:
            self.broker_down = now
        self.broker_checked = True

    def worker(self, running: bool | None, now: float | None = None) -> None:
        """Whether a worker holds the sweeper lock (None: unknowable, the workers do not
        sweep, FB_WORKER_SWEEP=false; then only the broker counts)."""
        now = time.monotonic() if now is None else now
        if running is None or running:
            self.worker_gone = None
        elif self.worker_gone is None:
            self.worker_gone = now
        self.worker_checked = True

    def trouble(self, now: float | None = None) -> Why | None:
        """What keeps the tasks from keeping time now, or did lately (None: nothing)."""
        now = time.monotonic() if now is None else now
        current = self._current(now)
        if current is None and self.last is not None and self.last.key in ("broker", "worker"):
            self.recovered = (now, self.last.key)  # it just ended
        self.last = current
        if current is not None:
            return current
        if self.recovered is not None and now - self.recovered[0] < self.recovery:
            since, what = now - self.recovered[0], self.recovered[1]
            if what == "broker":
                said = f"the broker was unreachable until {since:.1f}s ago: tasks not sent"
            else:
                said = f"no worker ran until {since:.1f}s ago: tasks held by one that died"
            return Why("recovering", f"{said} then may be missing")
        return None

    def _current(self, now: float) -> Why | None:
        if not settings.FB_SCHEDULE_TASKS:
            return Why("off", "no timer tasks are sent (FB_SCHEDULE_TASKS is off)")
        failed = send_guard.down_since()
        if failed is not None and failed < self.broker_answered:
            failed = None  # the broker answered the probe since
        down = [t for t in (failed, self.broker_down) if t is not None]
        if down:
            return Why("broker", f"the broker has been unreachable for {now - min(down):.1f}s")
        if not (self.broker_checked and self.worker_checked):
            return Why("unknown", "the broker and the workers are not checked yet")
        if self.worker_gone is not None:
            return Why(
                "worker",
                f"no Celery worker has run for {now - self.worker_gone:.1f}s "
                "(none holds the sweeper lock)",
            )
        return None


class BrokerProbe:
    """One broker connection of its own, kept open, and a round trip on it per ``check()``
    (Redis: PING; AMQP: basic.qos, which the broker answers). A connection that fails is
    dropped and made again on the next check. Socket timeouts bound a broker that stopped
    answering (a host gone without closing its connections)."""

    def __init__(self, timeout: float | None = None) -> None:
        self.timeout = float(
            settings.CELERY_BROKER_CONNECTION_TIMEOUT if timeout is None else timeout
        )
        self.conn: Any = None
        self.error = ""  # the last failure, for the log

    def check(self) -> bool:
        try:
            if self.conn is None:
                self.conn = self._connect()
            channel = self.conn.default_channel
            client = getattr(channel, "client", None)
            if client is not None and callable(getattr(client, "ping", None)):
                client.ping()
            else:
                channel.basic_qos(0, 1, False)
        except Exception as exc:  # broker clients raise many kinds of errors
            self.error = f"{type(exc).__name__}: {exc}".strip()
            self.close()
            return False
        return True

    def _connect(self) -> Any:
        from celery import current_app  # the app sends go through: same URL and options

        t = self.timeout
        conn = current_app.connection_for_write(
            connect_timeout=t,
            transport_options={
                "socket_timeout": t,  # redis
                "socket_connect_timeout": t,
                "read_timeout": t,  # py-amqp
                "write_timeout": t,
            },
        )
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
        return conn

    def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.release()
        self.conn = None


class _BrokerWatch(threading.Thread):
    """Probes the broker every PROBE_SECONDS and tells ``health``: in a thread of its own,
    since a probe of an unreachable broker can take its timeout."""

    def __init__(self, health: Health, stopping: threading.Event) -> None:
        super().__init__(name="fb-clock-broker-probe", daemon=True)
        self.health, self.stopping = health, stopping
        self.probe = BrokerProbe()

    def run(self) -> None:
        try:
            while True:
                answered = self.probe.check()
                if not answered and self.health.broker_down is None:
                    log.warning("clock loop: the broker does not answer (%s)", self.probe.error)
                elif answered and self.health.broker_down is not None:
                    log.warning("clock loop: the broker answers again")
                self.health.broker(answered)
                if self.stopping.wait(PROBE_SECONDS):
                    return
        finally:
            self.probe.close()


# -- acting on several games at once ---------------------------------------------------


class _Pool:
    """Threads acting on claimed rows, one game each. Django's connections are per thread:
    each thread has its own, replaced when broken or old (as between requests) and closed
    when the thread ends."""

    def __init__(self, size: int, name: str) -> None:
        self.jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self.threads = [
            threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True)
            for i in range(size)
        ]
        for thread in self.threads:
            thread.start()

    def _work(self) -> None:
        try:
            while (job := self.jobs.get()) is not None:
                try:
                    close_old_connections()
                    job()
                except Exception:
                    log.exception("clock loop: an action failed")
                    with contextlib.suppress(Exception):
                        connection.close()  # a database outage: the next job reconnects
                finally:
                    self.jobs.task_done()
        finally:
            with contextlib.suppress(Exception):
                connection.close()

    def run(self, jobs: list[Callable[[], None]]) -> None:
        """Run ``jobs`` (started in this order) and wait until all are done."""
        for job in jobs:
            self.jobs.put(job)
        self.jobs.join()

    def close(self, timeout: float = 10.0) -> None:
        for _ in self.threads:
            self.jobs.put(None)
        for thread in self.threads:
            thread.join(timeout)


# -- the log ---------------------------------------------------------------------------


class _Report:
    """The loop's account of what it did and why. Every action at DEBUG; at INFO, the first
    action for a new reason at once (an outage, lateness under load, a recovery), then one
    summary per ``every`` seconds while actions go on: routine lateness under load costs a
    line a minute, not one per move."""

    def __init__(self, name: str, every: float) -> None:
        self.name, self.every = name, every
        self.lock = threading.Lock()
        self.key: str | None = None
        self.reason = ""
        self.kinds: Counter[str] = Counter()
        self.earliest, self.latest = math.inf, -math.inf  # seconds after the deadlines
        self.since = time.monotonic()

    def add(self, why: Why, what: str, game: uuid.UUID, kind: str, late: float) -> None:
        with self.lock:
            first = why.key != self.key
            if first:
                self._summarize()
                self.key = why.key
            self.reason = why.reason
            self.kinds[kind] += 1
            self.earliest, self.latest = min(self.earliest, late), max(self.latest, late)
        log.log(
            logging.INFO if first else logging.DEBUG,
            "clock loop %s: %s of game %s, %.2fs after its deadline (%s)",
            self.name, what, game, late, why.reason,
        )  # fmt: skip

    def flush(self, force: bool = False) -> None:
        """The summary, if one is due (``force``: now, whatever is pending)."""
        with self.lock:
            if force or time.monotonic() - self.since >= self.every:
                self._summarize()

    def _summarize(self) -> None:
        count = sum(self.kinds.values())
        if count:
            kinds = ", ".join(f"{n} {kind}{'s' * (n > 1)}" for kind, n in self.kinds.items())
            reason = _LATE_TASKS if self.key == LATE.key else self.reason
            log.info(
                "clock loop %s: acted on %d deadline(s) in the last %.0fs (%s), %.2f to "
                "%.2fs after them (%s)",
                self.name, count, time.monotonic() - self.since, kinds, self.earliest,
                self.latest, reason,
            )  # fmt: skip
        self.kinds.clear()
        self.earliest, self.latest = math.inf, -math.inf
        self.since = time.monotonic()


# -- the loop --------------------------------------------------------------------------


class ClockLoop:
    """Claims due clock rows and acts on them; ``run`` repeats that until stopped.
    ``close()`` (or leaving a ``with`` block) stops its threads; ``run`` does it itself."""

    def __init__(
        self,
        *,
        grace: float | None = None,
        outage_grace: float | None = None,
        recovery: float | None = None,
        lease: float | None = None,
        batch: int = 20,
        threads: int | None = None,
        idle: float | None = None,
        name: str | None = None,
    ) -> None:
        s = settings
        self.grace_ms = _ms(s.FB_CLOCK_GRACE_SECONDS if grace is None else grace)
        self.outage_grace_ms = _ms(
            s.FB_CLOCK_OUTAGE_GRACE_SECONDS if outage_grace is None else outage_grace
        )
        self.lease_ms = _ms(s.FB_CLOCK_LEASE_SECONDS if lease is None else lease)
        self.idle = float(s.FB_CLOCK_IDLE_SECONDS if idle is None else idle)
        self.threads = max(1, int(s.FB_CLOCK_THREADS if threads is None else threads))
        self.batch = batch
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.health = Health(float(s.FB_CLOCK_RECOVERY_SECONDS if recovery is None else recovery))
        self.report = _Report(self.name, SUMMARY_SECONDS)
        self.stopping = threading.Event()
        self.acted = 0  # actions taken since start (tests and the bench read it)
        self.heartbeat: Path | None = None  # touched after every pass (a health check)
        self._pool: _Pool | None = None
        self._lock = threading.Lock()  # guards `acted` (pool threads add to it)
        self._worker_checked_at = -math.inf

    def __enter__(self) -> ClockLoop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the threads acting for this loop (each closes its database connection)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self.report.flush(force=True)

    # -- how long the tasks get ----------------------------------------------------------

    def check_workers(self, force: bool = False) -> None:
        """Look (at most every PROBE_SECONDS) whether a worker holds the sweeper lock."""
        now = time.monotonic()
        if force or now - self._worker_checked_at >= PROBE_SECONDS:
            self._worker_checked_at = now
            self.health.worker(sweeper_running() if settings.FB_WORKER_SWEEP else None, now)

    def check(self) -> None:
        """Probe the broker and look for a worker now (``run`` keeps doing both)."""
        probe = BrokerProbe()
        try:
            self.health.broker(probe.check())
        finally:
            probe.close()
        self.check_workers(force=True)

    def grace(self) -> tuple[int, Why]:
        """The grace (ms) the tasks get now, and why the loop would act after it."""
        trouble = self.health.trouble()
        if trouble is not None:
            return self.outage_grace_ms, trouble
        return self.grace_ms, LATE

    # -- one pass ----------------------------------------------------------------------

    def claim(self, now: int, grace_ms: int | None = None) -> list[Due]:
        """Claim due rows in one short transaction (committed before acting); windows and
        turn limits first, then by deadline."""
        cutoff = now - (self.grace()[0] if grace_ms is None else grace_ms)
        params = {"cutoff": cutoff, "now": now, "until": now + self.lease_ms, "limit": self.batch}
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_CLAIM, params)
            rows = cursor.fetchall()
        return sorted((Due(*row) for row in rows), key=lambda row: _priority(row, cutoff))

    def release(self, row: Due) -> None:
        GameClock.objects.filter(game_id=row.game_id).update(claimed_until_ms=None)

    def run_once(self, now: int | None = None) -> int:
        """Claim and act until nothing is due; returns how many actions were taken.
        ``now``: the clock to act at (tests); the real one by default."""
        before = self.acted
        self.check_workers()
        while not self.stopping.is_set():
            at = service.clock_ms() if now is None else now
            grace_ms, why = self.grace()
            rows = self.claim(at, grace_ms)
            if not rows:
                break
            jobs = [self._job(row, at - grace_ms, now, why) for row in rows]
            if self.threads == 1 or len(jobs) == 1:
                for job in jobs:
                    job()
            else:
                self._threads().run(jobs)
            if len(rows) < self.batch:
                break
        self.report.flush()
        return self.acted - before

    def _threads(self) -> _Pool:
        if self._pool is None:
            self._pool = _Pool(self.threads, f"fb-clock-{self.name}")
        return self._pool

    def _job(self, row: Due, cutoff: int, now: int | None, why: Why) -> Callable[[], None]:
        def job() -> None:
            try:
                acted = self.act(row, cutoff, now, why)
            finally:
                self.release(row)
            with self._lock:
                self.acted += acted

        return job

    def act(self, row: Due, cutoff: int, now: int | None = None, why: Why | None = None) -> int:
        """Do whatever of the row is due: close its window, time out its turn, move its
        bot. Each is the tasks' idempotent service call; returns how many acted."""
        why = why or self.grace()[1]
        gid = row.game_id
        acted = 0
        if row.window_deadline_ms is not None and row.window_deadline_ms <= cutoff:
            acted += self._do(
                row, why,
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
                row, why,
                "turn_deadline_ms",
                row.turn_deadline_ms,
                f"played timed-out turn {row.turn_key}",
                lambda: service.turn_timeout(
                    game_id=gid, key=row.turn_key, deadline=row.turn_deadline_ms or 0,
                    now=now, by="clock",
                ),
            )  # fmt: skip
        if row.bot_due_ms is not None and row.bot_due_ms <= cutoff:
            acted += self._do(
                row, why,
                "bot_due_ms",
                row.bot_due_ms,
                "moved a bot",
                lambda: service.bot_move(game_id=gid, version=row.version),
            )  # fmt: skip
        return acted

    def _do(
        self, row: Due, why: Why, field: str, deadline: int, what: str, call: Callable[[], Any]
    ) -> int:
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
        self.report.add(why, what, row.game_id, _KINDS[field], late)
        return 1

    # -- the loop ----------------------------------------------------------------------

    def next_wake(self, now: int) -> float:
        """Seconds to sleep: until the next unclaimed deadline plus grace, at most idle.
        With the long grace, it looks again at least every PROBE_SECONDS once the short
        grace has run out: should the tasks' path break meanwhile, that deadline is due."""
        with connection.cursor() as cursor:
            cursor.execute(_NEXT_DUE, {"now": now})
            (due,) = cursor.fetchone()
        if due is None:
            return self.idle
        grace_ms = self.grace()[0]
        wait = (due + grace_ms - now) / 1000
        if grace_ms > self.outage_grace_ms:
            wait = min(wait, max((due + self.outage_grace_ms - now) / 1000, PROBE_SECONDS))
        return float(min(max(wait, 0.0), self.idle))

    def run(self) -> None:
        """Act on due deadlines until ``stop()``; survives database outages (retrying)."""
        log.info(
            "clock loop %s: acting on deadlines %.2fs past due (%.2fs while the broker or "
            "the workers are away), %d thread(s), lease %.1fs",
            self.name, self.grace_ms / 1000, self.outage_grace_ms / 1000, self.threads,
            self.lease_ms / 1000,
        )  # fmt: skip
        listener = _Listener()
        watch = _BrokerWatch(self.health, self.stopping)
        watch.start()
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
            self.stopping.set()
            watch.join(2 * watch.probe.timeout + 1)
            listener.close()
            self.close()
            with contextlib.suppress(Exception):
                connection.close()

    def stop(self) -> None:
        self.stopping.set()


def _ms(seconds: float) -> int:
    return int(1000 * seconds)


def _priority(row: Due, cutoff: int) -> tuple[bool, int]:
    """Rows with a window or turn due come first, then the oldest deadline."""
    urgent = [d for d in (row.window_deadline_ms, row.turn_deadline_ms) if d is not None]
    deadlines = [*urgent, *([row.bot_due_ms] if row.bot_due_ms is not None else [])]
    return (not any(d <= cutoff for d in urgent), min(deadlines))


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
