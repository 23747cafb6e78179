"""What an attacker tried (issue 14): forged client addresses, look-alike usernames, bodies
that are too deep or too big, numbers out of range. Every answer is a 4xx in the envelope."""

from __future__ import annotations

import hashlib
import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from events.models import CommandRecord
from games.family_business.rng import seed_hash
from games.verify import verify_record
from tests.api.helpers import API, create_table, seat_all, start

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def post(client: APIClient, path: str, body: dict | None = None, **extra):
    return client.post(f"{API}{path}", body or {}, format="json", **extra)


# --- rate limits that a header cannot reset ----------------------------------------------


def test_a_forged_forwarded_for_gets_no_fresh_sign_in_limit(settings, anon) -> None:
    settings.FB_AUTH_RATE = "3/min"
    codes = [
        post(
            anon,
            "/auth/token",
            {"username": f"user{i}", "password": "wrong-password"},
            HTTP_X_FORWARDED_FOR=f"10.0.{i}.1",
        ).status_code
        for i in range(5)
    ]
    assert codes == [400, 400, 400, 429, 429]


def test_a_trusted_proxy_forwards_the_client_address(settings) -> None:
    settings.FB_AUTH_RATE = "2/min"
    settings.TRUSTED_PROXIES = [__import__("ipaddress").ip_network("127.0.0.0/8")]
    proxy = APIClient(REMOTE_ADDR="127.0.0.1")

    def attempt(forwarded: str) -> int:
        body = {"username": "nobody", "password": "wrong-password"}
        return post(proxy, "/auth/token", body, HTTP_X_FORWARDED_FOR=forwarded).status_code

    # two clients behind the proxy each get their own limit; what a client itself put in
    # front of the header (the left end) does not make a new one
    assert [attempt("203.0.113.5"), attempt("198.51.100.7, 203.0.113.5")] == [400, 400]
    assert attempt("1.2.3.4, 203.0.113.5") == 429
    assert attempt("198.51.100.9") == 400
    # a request from an untrusted peer is counted by its peer, whatever it forwards
    other = APIClient(REMOTE_ADDR="192.0.2.1")
    body = {"username": "nobody", "password": "wrong-password"}
    assert post(other, "/auth/token", body, HTTP_X_FORWARDED_FOR="203.0.113.77").status_code == 400


def test_forwarding_headers_are_decided_once_from_the_peer(settings) -> None:
    """api.proxies: the headers stand only from a trusted proxy (an IPv4 one seen through
    a dual-stack socket too); from anyone else they are gone before any view reads them."""
    from ipaddress import ip_network

    from api.proxies import resolve

    settings.TRUSTED_PROXIES = [ip_network("10.0.0.0/8")]
    forwarded = {"HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.5", "HTTP_X_FORWARDED_PROTO": "https"}
    for peer, client in (("10.1.2.3", "203.0.113.5"), ("::ffff:10.1.2.3", "203.0.113.5")):
        meta: dict[str, object] = {"REMOTE_ADDR": peer, **forwarded}
        resolve(meta)
        resolve(meta)  # once per request: a second pass changes nothing
        assert (meta["REMOTE_ADDR"], meta["FB_PEER_ADDR"]) == (client, peer)
        assert meta["HTTP_X_FORWARDED_PROTO"] == "https"
    meta = {"REMOTE_ADDR": "192.0.2.1", **forwarded}
    resolve(meta)
    assert meta == {"REMOTE_ADDR": "192.0.2.1", "FB_PEER_ADDR": "192.0.2.1"}


# --- look-alike usernames ----------------------------------------------------------------


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0430lice",  # Cyrillic a
        "AL\u0406CE",  # Cyrillic capital I (upper-cased alIce)
        "al\u0456ce",  # Cyrillic small i
        "\uff41lice",  # fullwidth a (NFKC)
        "a1ice",  # digit one for l
        "\u03bfscar",  # Greek omicron, against "oscar" below
    ],
)
def test_usernames_that_look_alike_are_taken(anon, lookalike) -> None:
    for name in ("alice", "oscar"):
        get_user_model().objects.create_user(username=name, password=PASSWORD)
    response = post(anon, "/auth/register", {"username": lookalike, "password": PASSWORD})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert "username" in response.json()["extra"]["fields"]


def test_usernames_that_only_differ_do_register(anon) -> None:
    get_user_model().objects.create_user(username="alice", password=PASSWORD)
    for name in ("alicia", "\u0436\u0435\u043d\u044f", "ian", "lan"):
        response = post(anon, "/auth/register", {"username": name, "password": PASSWORD})
        assert response.status_code == 201, (name, response.content)


# --- bodies too deep or too big ----------------------------------------------------------


def raw_post(client: APIClient, path: str, data: str | bytes, **extra):
    return client.post(f"{API}{path}", data=data, content_type="application/json", **extra)


@pytest.mark.parametrize("depth", [40, 947, 100_000])
def test_a_deeply_nested_body_is_a_400(anon, depth) -> None:
    body = '{"username": ' + "[" * depth + "]" * depth + ', "password": "x"}'
    response = raw_post(anon, "/auth/register", body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "json_too_deep"
    assert response.json()["extra"] == {"limit": 32}


def test_a_body_over_the_upload_limit_is_a_413(anon, alice) -> None:
    big = json.dumps({"username": "x" * 3_000_000, "password": "y"})
    for client, path in ((anon, "/auth/register"), (alice.client, "/tables")):
        response = raw_post(client, path, big)
        assert response.status_code == 413, response.content
        assert response.json()["code"] == "body_too_large"


def test_a_command_body_over_its_limit_is_a_413_and_is_not_logged(settings, alice, bob) -> None:
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    junk = {"type": "play", "card": "c01", "targets": ["x" * 64] * 400}  # ~27 kB
    response = alice.command(table["id"], junk)
    assert response.status_code == 413, response.content
    assert response.json() == {
        "code": "body_too_large",
        "message": response.json()["message"],
        "extra": {"limit": settings.FB_MAX_COMMAND_BYTES},
    }
    assert not CommandRecord.objects.filter(stream_id=table["id"], outcome="refused").exists()


# --- numbers out of range ----------------------------------------------------------------


@pytest.mark.parametrize("version", [2**31, 2**63, 10**40, -1])
def test_an_expected_version_out_of_range_is_a_400(alice, bob, version) -> None:
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    response = alice.command(table["id"], {"type": "resign"}, expected_version=version)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert "expected_version" in response.json()["extra"]["fields"]
    # the largest version a game can reach is still a version (stale, not an error)
    response = alice.command(table["id"], {"type": "resign"}, expected_version=2**31 - 1)
    assert (response.status_code, response.json()["code"]) == (409, "stale_version")


# --- what the log keeps of a refused command ---------------------------------------------


def test_a_refused_command_is_logged_as_a_bounded_summary(alice, bob) -> None:
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    game = table["id"]
    junk = {"type": "play", "card": "c01", "targets": [f"{i:04d}" + "x" * 50 for i in range(250)]}
    assert len(json.dumps(junk)) > 14_000
    key = str(uuid.uuid4())
    first = alice.post(f"/games/{game}/commands", {"command": junk}, key=key)
    assert first.status_code in (400, 422), first.content
    record = CommandRecord.objects.get(stream_id=game, command_id=key)
    assert record.outcome == "refused"
    stored = json.dumps(
        {"command": record.command, "data": record.error_data, "message": record.error_message}
    )
    assert len(stored) < 5_000, len(stored)
    assert record.command["type"] == "play" and record.command["_summary"]["bytes"] > 14_000
    # the retry with its key is recognised by the digest: the same refusal, replayed
    again = alice.post(f"/games/{game}/commands", {"command": junk}, key=key)
    assert (again.status_code, again.json()["code"]) == (first.status_code, first.json()["code"])
    # and other junk under the same key is another command
    other = dict(junk, targets=junk["targets"][:-1])
    reused = alice.post(f"/games/{game}/commands", {"command": other}, key=key)
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    assert CommandRecord.objects.filter(stream_id=game, outcome="refused").count() == 1


# --- table options that could never work -------------------------------------------------


@pytest.mark.parametrize("mode", ["ranked", "sandbox"])
def test_undo_on_a_table_that_never_allows_it_is_bad_options(alice, staff, mode) -> None:
    creator = staff if mode == "sandbox" else alice
    response = creator.post("/tables", {"mode": mode, "undo": "own_last"})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "bad_options"
    assert response.json()["extra"]["field"] == "undo"
    assert creator.post("/tables", {"mode": mode, "undo": "off"}).status_code == 201
    assert creator.post("/tables", {"mode": mode}).status_code == 201  # off by default


# --- a guessable sandbox seed ------------------------------------------------------------


def test_a_guessable_seed_is_not_given_away_by_its_hash_and_still_verifies(staff, alice, bob):
    table = create_table(staff, mode="sandbox", seats=2, join=False, seed="test")
    seat_all(table["id"], alice, bob)
    start(staff, table["id"])
    shown = alice.state(table["id"])["state"]["seed_hash"]
    assert shown != hashlib.sha256(b"test").hexdigest()  # hashing guesses finds nothing
    feed = alice.get(f"/games/{table['id']}/events").json()["events"]
    assert "salt" not in feed[0]["data"] and "seed" not in feed[0]["data"]
    # the same seed deals the same cards (sandboxes are for reproducing games)...
    again = create_table(staff, mode="sandbox", seats=2, join=False, seed="test")
    seat_all(again["id"], alice, bob)
    start(staff, again["id"])
    hand = alice.state(table["id"])["state"]["players"][0]["hand"]
    assert alice.state(again["id"])["state"]["players"][0]["hand"] == hand
    assert alice.state(again["id"])["state"]["seed_hash"] != shown  # ...under another salt
    # once over, the record reveals seed and salt, and verifies offline
    bob.post(f"/games/{table['id']}/resign", key=str(uuid.uuid4()))
    record = alice.get(f"/games/{table['id']}/export").json()
    assert verify_record(json.loads(json.dumps(record))).ok
    started = record["events"][0]["payload"]
    assert started["seed_hash"] == seed_hash("test", started["salt"]) == shown


# --- reads have a limit too --------------------------------------------------------------


def test_reads_are_rate_limited_per_user_but_not_the_feed(settings, alice, bob) -> None:
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    game = table["id"]
    settings.FB_READ_RATE = "3/min"
    codes = [alice.get(path).status_code for path in ("/tables", f"/games/{game}", "/auth/me")]
    assert codes == [200, 200, 200]
    limited = alice.get(f"/games/{game}/replay")
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
    assert limited.json()["extra"]["retry_after"] > 0 and int(limited["Retry-After"]) > 0
    # the event feed is not counted (it has limits of its own), nor are commands
    assert alice.get(f"/games/{game}/events").status_code == 200
    assert alice.post(f"/games/{game}/resign", key=str(uuid.uuid4())).status_code == 201
    # another user has their own allowance
    assert bob.get(f"/games/{game}").status_code == 200


# --- errors Django answers before or outside DRF -----------------------------------------


def assert_envelope(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json"), response.content
    assert set(response.json()) == {"code", "message", "extra"}
    assert response.json()["code"] == code


@pytest.mark.parametrize("path", [f"{API}/tables", "/healthz"])
def test_a_host_not_allowed_is_a_400_in_the_envelope(anon, path) -> None:
    assert_envelope(anon.get(path, HTTP_HOST="evil.example"), 400, "bad_request")


def test_a_nul_in_the_token_is_a_401_not_a_500(anon) -> None:
    response = anon.get(f"{API}/tables", HTTP_AUTHORIZATION="Token abc\x00def")
    assert_envelope(response, 401, "authentication_failed")


def test_too_many_query_fields_is_a_400(alice) -> None:
    assert_envelope(alice.client.get(f"{API}/tables?" + "a=1&" * 2000), 400, "bad_request")


def test_an_unknown_api_version_is_a_404_in_the_envelope(anon) -> None:
    assert_envelope(anon.get("/api/v2/tables"), 404, "not_found")


def test_pages_keep_djangos_own_error_pages(anon) -> None:
    response = anon.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")
