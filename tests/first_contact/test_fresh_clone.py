"""The README's first command on a fresh clone, as a new user types it.

The tree git would submit is copied into a new folder (no .venv, no .local). There `make
run` creates a virtualenv with the runtime requirements only (pip's cache is reused, so
this costs seconds), migrates and starts web, worker, beat and the clock loop on a free
port. The test waits for /healthz, imports every module of the service in that virtualenv
(a package only the test set brings fails here), plays the README's curl walkthrough and
compares its answers with the README's, stops `make run` as Ctrl-C does and checks that
nothing of it is left running and that its output holds no traceback.

Twice: on the servers this suite runs on (a new database, its own queue) and on the
embedded PostgreSQL and Redis that the fresh clone starts for itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg
import pytest

from tests.faults.conftest import free_port
from tests.first_contact import walkthrough

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 300  # install (cached), migrate, first start; a cold pip cache takes longer
STOP_SECONDS = 30
# Of the suite's environment, what a new user's shell would not have.
DROPPED_PREFIXES = ("FB_", "CELERY_", "PYTEST", "DJANGO_", "MAKE")
DROPPED = {"DATABASE_URL", "VIRTUAL_ENV", "PYTHONPATH", "MFLAGS"}

pytestmark = [
    pytest.mark.skipif(shutil.which("make") is None, reason="needs make"),
    pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
]


@dataclass
class Clone:
    path: Path
    env: dict[str, str]
    port: int
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.output().splitlines()[-lines:])


def copy_tree(dest: Path) -> None:
    """The files git would submit from this work tree (tracked and new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def new_user_env() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in DROPPED and not key.startswith(DROPPED_PREFIXES)
    }
    venv_bin = str(ROOT / ".venv" / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextlib.contextmanager
def suite_servers(env: dict[str, str]) -> Iterator[None]:
    """A new database on the suite's PostgreSQL and a queue of its own on its broker (a
    Redis URL gets another database number): nothing left by other tests reaches it."""
    url = os.environ["DATABASE_URL"]
    name = f"first_contact_{uuid.uuid4().hex[:12]}"
    admin = with_database(url, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    broker = os.environ["CELERY_BROKER_URL"]
    if broker.startswith("redis://"):
        broker = urlunsplit(urlsplit(broker)._replace(path="/15"))
    env |= {
        "DATABASE_URL": with_database(url, name),
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_DEFAULT_QUEUE": f"first-contact-{name}",
    }
    try:
        yield
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [name],
            )
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def processes_of(folder: Path) -> list[str]:
    """Processes running a program from ``folder`` or with an argument or cwd in it."""
    mark = str(folder)
    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "cwd", "exe"]):
        info = proc.info
        texts = [*(info.get("cmdline") or []), info.get("cwd") or "", info.get("exe") or ""]
        if any(mark in text for text in texts):
            found.append(f"{info['pid']}: {' '.join(info.get('cmdline') or [])}")
    return found


def wait_for_none(folder: Path, seconds: float) -> list[str]:
    deadline = time.monotonic() + seconds
    while (left := processes_of(folder)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left


def wait_for_health(clone: Clone, make: subprocess.Popen[bytes]) -> dict[str, object]:
    url = f"http://127.0.0.1:{clone.port}/healthz"
    deadline = time.monotonic() + START_SECONDS
    last = "no answer"
    while time.monotonic() < deadline:
        if make.poll() is not None:
            pytest.fail(f"make run exited with {make.returncode}:\n{clone.tail()}")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:  # noqa: S310 - loopback
                return dict(json.load(answer))
        except urllib.error.HTTPError as exc:
            last = f"{exc.code} {exc.read()[:300]!r}"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.5)
    pytest.fail(f"/healthz never answered 200 in {START_SECONDS}s ({last}):\n{clone.tail()}")


def stop(make: subprocess.Popen[bytes]) -> None:
    """As Ctrl-C in the terminal: SIGINT to make's process group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(make.pid, signal.SIGINT)
    try:
        make.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(make.pid, signal.SIGKILL)
        make.wait()
        pytest.fail(f"make run did not stop within {STOP_SECONDS}s of Ctrl-C")


def run_in_clone(clone: Clone, *cmd: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=clone.path, env=clone.env, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(params=["suite_servers", "embedded"])
def clone(request: pytest.FixtureRequest) -> Iterator[Clone]:
    # Not under pytest's tmp_path: the embedded PostgreSQL runs as another user and needs
    # its parent folders readable (fbservice/embedded.py), and a unix socket path is short.
    folder = Path(tempfile.mkdtemp(prefix="fb-first-contact-"))
    folder.chmod(0o755)
    path = folder / "fbservice"
    copy_tree(path)
    env = new_user_env()
    made = Clone(path=path, env=env, port=free_port(), log=folder / "make-run.log")
    servers = suite_servers(env) if request.param == "suite_servers" else contextlib.nullcontext()
    try:
        with servers:
            yield made
    finally:
        if (path / ".venv" / "bin" / "python").exists():
            run_in_clone(made, "make", "stop", timeout=60)
        for line in processes_of(path):
            with contextlib.suppress(psutil.Error, ValueError):
                psutil.Process(int(line.split(":", 1)[0])).kill()
        shutil.rmtree(folder, ignore_errors=True)


def test_make_run_serves_the_walkthrough_and_stops_clean(clone: Clone) -> None:
    for tool in ("curl", "jq"):
        if shutil.which(tool) is None:
            pytest.fail(f"the README's walkthrough needs {tool} (apt-get install {tool})")
    with clone.log.open("wb") as log:
        make = subprocess.Popen(  # noqa: S603 - make, from PATH, in our own clone
            ["make", "run", f"PORT={clone.port}"],  # noqa: S607
            cwd=clone.path,
            env=clone.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        started = time.monotonic()
        health = wait_for_health(clone, make)
        print(f"first contact: /healthz answered in {time.monotonic() - started:.1f}s")
        assert health["status"] == "ok", health
        for section in ("database", "broker", "clock"):
            assert isinstance(health[section], dict) and "ok" in health[section], health
        assert health["database"]["ok"] and health["broker"]["ok"], health

        imports = run_in_clone(
            clone,
            ".venv/bin/python", "-m", "fbservice.embedded", "exec", "--",
            ".venv/bin/python", "tests/first_contact/runtime_imports.py",
        )  # fmt: skip
        assert imports.returncode == 0, imports.stdout + imports.stderr

        walk = walkthrough.extract((clone.path / "README.md").read_text())
        played = run_in_clone(clone, "bash", "-c", walkthrough.script(walk, clone.port), timeout=60)
        assert played.returncode == 0, played.stdout + played.stderr
        answers = walkthrough.outputs(played.stdout)
        assert len(answers) == len(walk.expected), played.stdout
        for shown, got in zip(walk.expected, answers, strict=True):
            assert len(got) == len(shown), f"README shows {shown}, got {got}"
            for want, value in zip(shown, got, strict=True):
                assert walkthrough.differences(want, value) == [], (want, value)
    finally:
        stop(make)

    output = clone.output()
    assert "all processes stopped" in output, clone.tail()
    left = wait_for_none(clone.path, 10)
    # What may stay after Ctrl-C: only the embedded servers, which outlive `make run` on
    # purpose (the next command reuses them) until `make stop`.
    assert all("postgres" in p or "redis-server" in p for p in left), left
    stopped = run_in_clone(clone, "make", "stop", timeout=60)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert wait_for_none(clone.path, 15) == []
    assert tracebacks(output) == []  # not while it ran, nor at Ctrl-C


def tracebacks(output: str) -> list[str]:
    """Each traceback in ``output``, with the line before it and the lines after."""
    lines = output.splitlines()
    return [
        "\n".join(lines[max(i - 1, 0) : i + 25])
        for i, line in enumerate(lines)
        if "Traceback" in line
    ]
