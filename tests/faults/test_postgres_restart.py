"""PostgreSQL restarted in the middle of a game against bots: while it is down every request
fails cleanly (503 ``database_unavailable`` in the error envelope, /healthz degraded),
nothing is half-written (the hash chain and a full replay verify afterwards), and the game
goes on once it is back, the failed command completed by its retry with the same key.

The database is a PRIVATE PostgreSQL (pgserver's binaries, data in tmp_path, a unix socket
of its own), never the machine's shared server; the web server is gunicorn on it."""

from __future__ import annotations

import uuid
from typing import Any

import requests

from games.verify import verify_record
from tests.faults.conftest import migrate, wait_until

ENVELOPE = {"code", "message", "extra"}


class Client:
    def __init__(self, base: str) -> None:
        self.api = f"{base}/api/v1"
        self.session = requests.Session()

    def register(self, username: str) -> None:
        response = self.session.post(
            f"{self.api}/auth/register",
            json={"username": username, "password": "correct-horse-battery-staple"},
            timeout=30,
        )
        assert response.status_code == 201, response.text
        self.session.headers["Authorization"] = f"Token {response.json()['token']}"

    def get(self, path: str, **params: Any) -> requests.Response:
        return self.session.get(f"{self.api}{path}", params=params, timeout=30)

    def post(self, path: str, body: Any = None, key: uuid.UUID | None = None):
        headers = {"Idempotency-Key": str(key)} if key else {}
        return self.session.post(f"{self.api}{path}", json=body or {}, headers=headers, timeout=30)


def next_command(view: dict[str, Any]) -> dict[str, Any]:
    """A simple human: pass on windows, otherwise discard the first card it may; resign
    when nothing else is offered (advanced options are never on this table)."""
    legal = view["state"].get("legal") or []
    for option in legal:
        if option["command"] == "pass":
            return {"type": "pass", "window": option["window"]}
    for option in legal:
        if option["command"] == "discard":
            return {"type": "play", "card": option["card"], "discard": True}
    return {"type": "resign"}


def assert_unavailable(response: requests.Response) -> None:
    assert response.status_code == 503, (response.status_code, response.text[:500])
    body = response.json()
    assert set(body) == ENVELOPE, body
    assert body["code"] == "database_unavailable", body
    assert response.headers.get("Retry-After")


def test_postgres_restarted_during_a_bot_game(private_postgres, webs) -> None:
    private_postgres.create_database("fbfault")
    db_url = private_postgres.url("fbfault")
    migrate(db_url)
    web = webs(DATABASE_URL=db_url)
    alice = Client(web.url)
    alice.register("alice")
    table = alice.post("/tables", {"seats": 3, "options": {"reaction_seconds": 300}})
    assert table.status_code == 201, table.text
    game_id = table.json()["id"]
    for kind in ("heuristic", "random"):
        assert alice.post(f"/tables/{game_id}/bots", {"kind": kind}).status_code == 201
    assert alice.post(f"/tables/{game_id}/start").status_code == 200

    def move() -> bool:
        view = alice.get(f"/games/{game_id}")
        assert view.status_code == 200, view.text
        if view.json()["state"]["over"]:
            return False
        answer = alice.post(f"/games/{game_id}/commands", {"command": next_command(view.json())},
                            key=uuid.uuid4())  # fmt: skip
        assert answer.status_code == 201, answer.text
        return not answer.json()["state"]["over"]

    for _ in range(3):
        assert move(), "the game ended before the restart"
    before = alice.get(f"/games/{game_id}").json()
    pending = {"command": next_command(before)}
    key = uuid.uuid4()

    private_postgres.stop()
    try:
        assert_unavailable(alice.post(f"/games/{game_id}/commands", pending, key=key))
        assert_unavailable(alice.get(f"/games/{game_id}"))
        assert_unavailable(alice.get(f"/games/{game_id}/events", after=0))
        assert_unavailable(alice.get("/tables"))
        health = requests.get(f"{web.url}/healthz", timeout=30)
        assert health.status_code == 503 and health.json()["status"] == "degraded"
        assert health.json()["database"]["ok"] is False
    finally:
        private_postgres.start()

    # back: the failed command's retry completes it, once
    retried = alice.post(f"/games/{game_id}/commands", pending, key=key)
    assert retried.status_code == 201, retried.text
    assert retried.json()["first_seq"] == before["version"] + 1
    again = alice.post(f"/games/{game_id}/commands", pending, key=key)
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"

    def database_healthy() -> bool:  # the broker's probe may be slow on a loaded machine
        return bool(requests.get(f"{web.url}/healthz", timeout=30).json()["database"]["ok"])

    wait_until(database_healthy, 20, "/healthz to report the database back")

    # the game goes on, to its end (alice resigns after a few more moves; the bots finish)
    for _ in range(5):
        if not move():
            break
    if not alice.get(f"/games/{game_id}").json()["state"]["over"]:
        resigned = alice.post(f"/games/{game_id}/resign", key=uuid.uuid4())
        assert resigned.status_code == 201, resigned.text
    final = alice.get(f"/games/{game_id}").json()
    assert final["state"]["over"] and final["table"]["status"] == "finished"

    # nothing half-written: gap-free, one record per accepted command, a verified replay
    feed = alice.get(f"/games/{game_id}/events", after=0, limit=1000).json()
    assert [e["seq"] for e in feed["events"]] == list(range(1, final["version"] + 1))
    audit = alice.get(f"/games/{game_id}/audit").json()
    commands = [c for c in audit["commands"] if c["command_id"] == str(key)]
    assert len(commands) == 1 and commands[0]["outcome"] == "accepted"
    accepted = [c for c in audit["commands"] if c["outcome"] == "accepted" and c["first_seq"]]
    covered = sorted(s for c in accepted for s in range(c["first_seq"], c["last_seq"] + 1))
    assert covered == list(range(1, final["version"] + 1))
    record = alice.get(f"/games/{game_id}/export")
    assert record.status_code == 200, record.text
    report = verify_record(record.json())
    assert report.ok, report.problems
