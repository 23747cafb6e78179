"""Run the web server, a Celery worker, Celery beat and the clock loop together (`make run`).

    python -m fbservice.devserver [--host 127.0.0.1] [--port 8000]

Output lines are prefixed with the process name. Ctrl-C (SIGINT), SIGTERM or SIGHUP stop
everything: each child gets SIGTERM (its leader only: it stops its own processes, and a
Celery worker lets its pool finish what it runs), then, after a grace period, its whole
process group gets SIGKILL, so no grandchild (uvicorn's server, Celery's pool) outlives it.
A worker, beat or clock loop that dies is restarted (after 1 s, doubling up to 30 s while it keeps
dying within 30 s of its start; after 5 such quick deaths in a row everything stops, as it
does at once when the web server dies; the exit code is then non-zero): the timers must
not stop because one process did. On Linux the children also get SIGTERM if this runner
itself is killed (PR_SET_PDEATHSIG).

Run it inside `python -m fbservice.embedded exec --` (as `make run` does) so all three
share the same database and broker. The clock loop (`manage.py clock_loop`,
games/clock_loop.py) keeps deadlines from PostgreSQL alone while the broker is away.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import IO

BASE_DIR = Path(__file__).resolve().parent.parent
GRACE_SECONDS = 10.0
CODE_DIRS = ("fbservice", "games", "events", "api", "web")  # what the web server reloads on
# Children restarted when they die (the web server is not: it dying is a setup problem).
RESTARTED = frozenset({"worker", "beat", "clock"})
RESTART_DELAY = 1.0  # doubled after each quick death, up to RESTART_DELAY_MAX
RESTART_DELAY_MAX = 30.0
QUICK_DEATH_SECONDS = 30.0  # a child that ran at least this long starts again at 1 s
QUICK_DEATHS_MAX = 5  # that many quick deaths in a row: give up, stop everything
_print_lock = threading.Lock()
# uvicorn's options as fbservice.server.UvicornWorker (production) sets them: no proxy
# headers (api/proxies.py alone decides who the client is), and the HTTP protocol with
# limits on the request line and headers.
SERVER_ARGS = ("--no-proxy-headers", "--http", "fbservice.server:HttpProtocol")


def _say(name: str, line: str) -> None:
    with _print_lock:
        sys.stdout.write(f"{name:>7} | {line}")
        if not line.endswith("\n"):
            sys.stdout.write("\n")
        sys.stdout.flush()


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM when the runner dies (Linux only)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _pump(name: str, stream: IO[str]) -> None:
    for line in stream:
        _say(name, line)


# Celery's worker-to-worker bootsteps, which this project does not use: mingle (at start and
# at each reconnection, ask the other workers for revoked task ids: nothing is revoked here,
# and it held tasks back a second each time) and gossip (elections and node join/leave
# callbacks: none here). Gossip also logged "Error on restarting Gossip: AttributeError ...
# 'connection_errors'" with a traceback at Redis restarts (celery 5.7.0 closes its channel
# after dropping the connection; docs/timers.md#brokers). The compose file's worker passes
# the same flags.
WORKER_WITHOUT = ("--without-mingle", "--without-gossip")


def commands(host: str, port: int) -> dict[str, list[str]]:
    python = sys.executable
    return {
        # The ASGI app as in production (fbservice/asgi.py), with the production server's
        # options (fbservice/server.py), reloaded when our code changes.
        "web": [python, "-m", "uvicorn", "fbservice.asgi:application", "--host", host,
                "--port", str(port), *SERVER_ARGS, "--reload",
                *(f"--reload-dir={d}" for d in CODE_DIRS)],
        "worker": [python, "-m", "celery", "-A", "fbservice", "worker", "-l", "INFO",
                   "--concurrency", os.environ.get("WORKER_CONCURRENCY", "2"), *WORKER_WITHOUT],
        "beat": [python, "-m", "celery", "-A", "fbservice", "beat", "-l", "INFO"],
        "clock": [python, "manage.py", "clock_loop"],
    }  # fmt: skip


def _announce_when_up(url: str, web: _Child) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and web.proc.poll() is None:
        try:
            with urllib.request.urlopen(url + "healthz", timeout=3) as response:  # noqa: S310
                response.read()
        except OSError as exc:  # 503 (HTTPError) still means the server is serving
            if getattr(exc, "code", None) is None:
                time.sleep(0.3)
                continue
        _say("run", f"fbservice is up: {url}  (health: {url}healthz, admin: {url}admin/)")
        _say("run", "press Ctrl-C to stop web, worker, beat and clock")
        return


def _stop(children: list[_Child]) -> None:
    # SIGTERM to each leader alone, as `docker stop` does: it stops its own processes in
    # order (Celery's warm shutdown lets its pool finish the tasks it runs; uvicorn's
    # reloader stops its server). Sent to the whole group, it would also reach the pool's
    # processes, whose SIGTERM is the default action: a task cut short, a WorkerLostError.
    for child in children:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child.proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.proc.wait(max(0.0, deadline - time.monotonic()))
    # Whatever is left in the groups (stuck leaders, orphaned grandchildren) is killed.
    for child in children:
        if child.proc.poll() is None:
            _say("run", f"{child.name} did not stop within {GRACE_SECONDS:.0f}s; killing it")
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.proc.pid, signal.SIGKILL)
        child.proc.wait()
    for child in children:
        if child.pump is not None:
            child.pump.join(timeout=2)


class _Child:
    """One supervised child: its command, its current process and its restart record."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str]) -> None:
        self.name, self.cmd, self.env = name, cmd, env
        self.quick_deaths = 0
        self.restart_at: float | None = None  # monotonic time of a pending restart
        self.proc = self._spawn()

    def _spawn(self) -> subprocess.Popen[str]:
        proc = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            self.cmd,
            cwd=BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            start_new_session=True,  # own process group: we decide when it stops
            preexec_fn=_die_with_parent,  # noqa: PLW1509
        )
        self.started = time.monotonic()
        self.pump: threading.Thread | None = None
        if proc.stdout is not None:
            self.pump = threading.Thread(target=_pump, args=(self.name, proc.stdout), daemon=True)
            self.pump.start()
        _say("run", f"started {self.name} (pid {proc.pid}): {' '.join(self.cmd[1:])}")
        return proc

    def on_death(self) -> bool:
        """The process exited: plan its restart (True), or say it must not restart."""
        ran = time.monotonic() - self.started
        # Orphans of the dead leader (a Celery pool process) must not outlive it.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.name not in RESTARTED:
            return False
        self.quick_deaths = self.quick_deaths + 1 if ran < QUICK_DEATH_SECONDS else 0
        if self.quick_deaths >= QUICK_DEATHS_MAX:
            _say("run", f"{self.name} died {self.quick_deaths} times in a row, each within "
                        f"{QUICK_DEATH_SECONDS:.0f}s of its start: not restarting it")  # fmt: skip
            return False
        delay = min(RESTART_DELAY * 2 ** max(self.quick_deaths - 1, 0), RESTART_DELAY_MAX)
        self.restart_at = time.monotonic() + delay
        _say("run", f"{self.name} exited with code {self.proc.returncode} after {ran:.0f}s; "
                    f"restarting it in {delay:.0f}s")  # fmt: skip
        return True

    def restart_if_due(self) -> None:
        if self.restart_at is not None and time.monotonic() >= self.restart_at:
            self.restart_at = None
            self.proc = self._spawn()


def _supervise(children: dict[str, _Child], stopping: threading.Event) -> int:
    """Watch the children until asked to stop; returns the exit code."""
    while not stopping.wait(0.2):
        for child in children.values():
            if child.restart_at is not None:
                child.restart_if_due()
            elif child.proc.poll() is not None and not child.on_death():
                _say("run", f"{child.name} exited with code {child.proc.returncode}; "
                            "stopping the rest")  # fmt: skip
                return child.proc.returncode or 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", default=os.environ.get("RUN_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args(argv)

    stopping = threading.Event()

    def request_stop(signum: int, _frame: object) -> None:
        if not stopping.is_set():
            _say("run", f"got {signal.Signals(signum).name}, stopping...")
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, request_stop)

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    children: dict[str, _Child] = {}
    exit_code = 1
    try:
        for name, cmd in commands(args.host, args.port).items():
            children[name] = _Child(name, cmd, env)
        url = f"http://{args.host}:{args.port}/"
        threading.Thread(target=_announce_when_up, args=(url, children["web"]), daemon=True).start()
        exit_code = _supervise(children, stopping)
    finally:
        _stop(list(children.values()))
    _say("run", "all processes stopped")
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
