"""Run the web server, a Celery worker and Celery beat together (used by `make run`).

    python -m fbservice.devserver [--host 127.0.0.1] [--port 8000]

Output lines are prefixed with the process name. Ctrl-C (SIGINT), SIGTERM or SIGHUP stop
everything: each child runs in its own process group, which gets SIGTERM, then SIGKILL
after a grace period, so grandchildren (uvicorn's reloader, Celery's pool) go too.
If one child dies, the others are stopped and the exit code is non-zero. On Linux the
children also get SIGTERM if this runner itself is killed (PR_SET_PDEATHSIG).

Run it inside `python -m fbservice.embedded exec --` (as `make run` does) so all three
share the same database and broker.
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
_print_lock = threading.Lock()


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


def commands(host: str, port: int) -> dict[str, list[str]]:
    python = sys.executable
    return {
        # The ASGI app as in production (fbservice/asgi.py), reloaded when our code changes.
        "web": [python, "-m", "uvicorn", "fbservice.asgi:application", "--host", host,
                "--port", str(port), "--reload", *(f"--reload-dir={d}" for d in CODE_DIRS)],
        "worker": [python, "-m", "celery", "-A", "fbservice", "worker", "-l", "INFO",
                   "--concurrency", os.environ.get("WORKER_CONCURRENCY", "2")],
        "beat": [python, "-m", "celery", "-A", "fbservice", "beat", "-l", "INFO"],
    }  # fmt: skip


def _announce_when_up(url: str, procs: dict[str, subprocess.Popen[str]]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and procs["web"].poll() is None:
        try:
            with urllib.request.urlopen(url + "healthz", timeout=3) as response:  # noqa: S310
                response.read()
        except OSError as exc:  # 503 (HTTPError) still means the server is serving
            if getattr(exc, "code", None) is None:
                time.sleep(0.3)
                continue
        _say("run", f"fbservice is up: {url}  (health: {url}healthz, admin: {url}admin/)")
        _say("run", "press Ctrl-C to stop web, worker and beat")
        return


def _stop(procs: dict[str, subprocess.Popen[str]]) -> None:
    for proc in procs.values():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_SECONDS
    for proc in procs.values():
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(max(0.0, deadline - time.monotonic()))
    # Whatever is left in the groups (stuck leaders, orphaned grandchildren) is killed.
    for name, proc in procs.items():
        if proc.poll() is None:
            _say("run", f"{name} did not stop within {GRACE_SECONDS:.0f}s; killing it")
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


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
    procs: dict[str, subprocess.Popen[str]] = {}
    try:
        for name, cmd in commands(args.host, args.port).items():
            procs[name] = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                cmd,
                cwd=BASE_DIR,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                bufsize=1,
                start_new_session=True,  # own process group: we decide when it stops
                preexec_fn=_die_with_parent,  # noqa: PLW1509
            )
            _say("run", f"started {name} (pid {procs[name].pid}): {' '.join(cmd[1:])}")
        pumps = [
            threading.Thread(target=_pump, args=(name, proc.stdout), daemon=True)
            for name, proc in procs.items()
            if proc.stdout is not None
        ]
        for pump in pumps:
            pump.start()
        url = f"http://{args.host}:{args.port}/"
        threading.Thread(target=_announce_when_up, args=(url, procs), daemon=True).start()

        exit_code = 0
        while not stopping.wait(0.2):
            for name, proc in procs.items():
                if proc.poll() is not None:
                    _say("run", f"{name} exited with code {proc.returncode}; stopping the rest")
                    exit_code = proc.returncode or 1
                    stopping.set()
                    break
    finally:
        _stop(procs)
    for pump in pumps:
        pump.join(timeout=2)
    _say("run", "all processes stopped")
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
