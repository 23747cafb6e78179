"""Commands over HTTP: seats bound to users, idempotency keys, versions, races, refusals,
rate limits. A refused command never appends an event."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection
from rest_framework.test import APIClient

from events.models import CommandRecord, StoredEvent
from tests.api.helpers import (
    API,
    Player,
    create_table,
    event_count,
    play_contract,
    seat_all,
    start,
    started_game,
    undoable_game,
)
from tests.service.helpers import cards_of, hand_stack

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol) -> str:
    """A started casual table: alice (seat 0, to play), bob (1), carol (2)."""
    return started_game(alice, bob, carol)


def hand(player: Player, game_id: str, seat: int) -> list[str]:
    return [c["id"] for c in player.state(game_id)["state"]["players"][seat]["hand"]]


def test_a_play_answers_201_with_the_events_and_the_new_state(alice, game) -> None:
    before = alice.state(game)
    card = hand(alice, game, 0)[0]
    response = alice.command(game, {"type": "play", "card": card, "discard": True})
    assert response.status_code == 201
    body = response.json()
    assert body["first_seq"] == before["version"] + 1
    assert body["version"] >= body["last_seq"]
    assert body["events"][0]["data"] == {
        "type": "CardPlayed",
        "seat": 0,
        "card": card,
        "kind": body["events"][0]["data"]["kind"],
        "discard": True,
        "targets": [],
        "player": None,
        "own": None,
    }
    assert body["events"][0]["actor"] == f"user:{alice.user.pk}"
    assert body["state"]["turn_seat"] == 1 and body["state"]["viewer"] == 0
    assert card not in [c["id"] for c in body["state"]["players"][0]["hand"]]


def test_the_same_idempotency_key_appends_once_and_answers_the_same(alice, game) -> None:
    card = hand(alice, game, 0)[0]
    key = str(uuid.uuid4())
    body = {"command": {"type": "play", "card": card, "discard": True}}
    first = alice.post(f"/games/{game}/commands", body, key=key)
    count = event_count(game)
    again = alice.post(f"/games/{game}/commands", body, key=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    one, two = first.json(), again.json()
    one.pop("server_time"), two.pop("server_time")
    assert one == two
    assert event_count(game) == count
    assert CommandRecord.objects.filter(command_id=key).count() == 1


def test_a_retried_refusal_is_refused_the_same_way(alice, bob, game) -> None:
    card = hand(bob, game, 1)[0]
    key = str(uuid.uuid4())
    body = {"command": {"type": "play", "card": card, "discard": True}}
    answers = [bob.post(f"/games/{game}/commands", body, key=key) for _ in range(2)]
    assert [a.status_code for a in answers] == [422, 422]
    assert answers[0].json() == answers[1].json()
    assert answers[0].json()["code"] == "not_your_turn"
    # the retry says it is the first answer again, as an accepted command's retry does
    assert answers[1]["Idempotent-Replayed"] == "true"
    assert not answers[0].has_header("Idempotent-Replayed")


def test_a_key_reused_for_another_command_is_refused(alice, game) -> None:
    cards = hand(alice, game, 0)
    key = str(uuid.uuid4())
    ok = alice.post(
        f"/games/{game}/commands",
        {"command": {"type": "play", "card": cards[0], "discard": True}},
        key=key,
    )
    assert ok.status_code == 201
    count = event_count(game)
    reused = alice.post(
        f"/games/{game}/commands",
        {"command": {"type": "play", "card": cards[1], "discard": True}},
        key=key,
    )
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    assert event_count(game) == count


def test_a_stale_version_is_409_with_the_current_version(alice, game) -> None:
    version = alice.state(game)["version"]
    card = hand(alice, game, 0)[0]
    count = event_count(game)
    stale = alice.command(
        game, {"type": "play", "card": card, "discard": True}, expected_version=version - 1
    )
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale_version"
    assert stale.json()["extra"]["current_version"] == version
    assert event_count(game) == count
    fresh = alice.command(
        game, {"type": "play", "card": card, "discard": True}, expected_version=version
    )
    assert fresh.status_code == 201


def test_a_stale_version_after_the_turn_passed_is_stale_not_your_turn(alice, game) -> None:
    """alice plays at version v (the turn passes to bob), then sends another play made
    from v, as a client that double-clicked: 409 stale_version (refetch), not 422
    not_your_turn."""
    version = alice.state(game)["version"]
    first, second = hand(alice, game, 0)[:2]
    played = alice.command(
        game, {"type": "play", "card": first, "discard": True}, expected_version=version
    )
    assert played.status_code == 201 and played.json()["state"]["turn_seat"] == 1
    late = alice.command(
        game, {"type": "play", "card": second, "discard": True}, expected_version=version
    )
    assert (late.status_code, late.json()["code"]) == (409, "stale_version")
    assert late.json()["extra"]["current_version"] == played.json()["version"]


def test_the_seat_comes_from_the_user_never_from_the_body(alice, bob, mallory, game) -> None:
    count = event_count(game)
    bobs = hand(bob, game, 1)[0]
    # bob claims alice's seat, in the body or in the command
    for body in (
        {"command": {"type": "play", "card": bobs, "discard": True}, "seat": 0},
        {"command": {"type": "play", "card": bobs, "discard": True, "seat": 0}},
    ):
        response = bob.post(f"/games/{game}/commands", body, key=str(uuid.uuid4()))
        assert (response.status_code, response.json()["code"]) == (403, "not_your_seat")
    # mallory holds no seat at all
    response = mallory.command(game, {"type": "resign"})
    assert (response.status_code, response.json()["code"]) == (403, "not_your_seat")
    assert mallory.post(f"/games/{game}/resign", key=str(uuid.uuid4())).status_code == 403
    assert mallory.post(f"/games/{game}/undo", key=str(uuid.uuid4())).status_code == 403
    # naming one's own seat is allowed
    own = alice.command(
        game, {"type": "play", "card": hand(alice, game, 0)[0], "discard": True}, seat=0
    )
    assert own.status_code == 201
    assert event_count(game) > count
    assert not StoredEvent.objects.filter(stream_id=game, actor=f"user:{bob.user.pk}").exists()


@pytest.mark.parametrize(
    ("command", "status", "code"),
    [
        ({"type": "fly"}, 400, "bad_command"),
        ({"type": "play", "card": 7}, 400, "bad_command"),
        ({"type": "play", "card": "c01", "bogus": 1}, 400, "bad_command"),
        ({"type": "play"}, 400, "bad_command"),
        ({"type": "play", "card": "c99"}, 422, "card_not_in_hand"),
        ({"type": "pass", "window": "w9"}, 422, "no_window"),
        ({"type": "close_window", "window": "w1"}, 403, "system_only"),
    ],
)
def test_refused_commands_carry_the_engine_code_and_append_nothing(
    alice, game, command, status, code
) -> None:
    count = event_count(game)
    response = alice.command(game, command)
    assert (response.status_code, response.json()["code"]) == (status, code), response.json()
    assert set(response.json()) == {"code", "message", "extra"}
    assert event_count(game) == count


def test_a_play_needing_targets_says_so(alice, staff, bob) -> None:
    table = create_table(
        staff, mode="sandbox", seats=2, join=False, stacked_deck=hand_stack(["CONTRACT"])
    )
    seat_all(table["id"], alice, bob)
    start(staff, table["id"])
    contract = cards_of("CONTRACT")[0]
    count = event_count(table["id"])
    response = alice.command(table["id"], {"type": "play", "card": contract})
    assert (response.status_code, response.json()["code"]) == (422, "missing_target")
    wrong = alice.command(table["id"], {"type": "play", "card": contract, "targets": ["al-capone"]})
    assert (wrong.status_code, wrong.json()["code"]) == (422, "illegal_target")
    assert event_count(table["id"]) == count


def test_resign_and_game_over(alice, bob) -> None:
    table = create_table(alice, seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    response = bob.post(f"/games/{table['id']}/resign", key=str(uuid.uuid4()))
    assert response.status_code == 201
    body = response.json()
    assert body["state"]["over"] and body["state"]["winners"] == [0]
    assert body["events"][-1]["data"]["type"] == "GameEnded"
    assert body["events"][-1]["data"]["seed"]  # revealed with the end
    count = event_count(table["id"])
    late = alice.command(table["id"], {"type": "resign"})
    assert (late.status_code, late.json()["code"]) == (409, "game_over")
    assert event_count(table["id"]) == count


def test_undo_takes_back_your_last_move_on_a_casual_table(alice, bob, staff) -> None:
    game = undoable_game(staff, [alice, bob], [["CONTRACT"], []])
    before = alice.state(game)
    played = play_contract(alice, game, 0)
    assert played.status_code == 201 and played.json()["state"]["window"]
    card = played.json()["events"][0]["data"]["card"]
    undone = alice.post(f"/games/{game}/undo", key=str(uuid.uuid4()))
    assert undone.status_code == 201, undone.json()
    body = undone.json()
    assert body["events"][0]["type"] == "stream.Undone"
    assert body["state"]["turn_seat"] == 0 and body["state"]["window"] is None
    assert card in [c["id"] for c in body["state"]["players"][0]["hand"]]
    assert body["state"]["deck_size"] == before["state"]["deck_size"]
    nothing = bob.post(f"/games/{game}/undo", key=str(uuid.uuid4()))
    assert (nothing.status_code, nothing.json()["code"]) == (422, "nothing_to_undo")


def test_undo_is_refused_on_ranked_tables(alice, bob) -> None:
    table = create_table(alice, seats=2, mode="ranked")
    seat_all(table["id"], bob)
    start(alice, table["id"])
    card = hand(alice, table["id"], 0)[0]
    alice.command(table["id"], {"type": "play", "card": card, "discard": True})
    response = alice.post(f"/games/{table['id']}/undo", key=str(uuid.uuid4()))
    assert (response.status_code, response.json()["code"]) == (422, "undo_not_allowed")


def test_commands_are_rate_limited_per_user(settings, alice, bob, game) -> None:
    settings.FB_COMMAND_RATE = "3/min"
    codes = [alice.command(game, {"type": "pass", "window": "w9"}).status_code for _ in range(4)]
    assert codes == [422, 422, 422, 429]
    limited = alice.command(game, {"type": "pass", "window": "w9"})
    assert limited.json()["code"] == "rate_limited"
    assert limited.json()["extra"]["retry_after"] > 0
    assert int(limited["Retry-After"]) > 0
    # another user has their own allowance; reads are not limited
    assert bob.command(game, {"type": "pass", "window": "w9"}).status_code == 422
    assert alice.get(f"/games/{game}").status_code == 200


def test_the_request_id_is_echoed_and_stored(alice, game) -> None:
    card = hand(alice, game, 0)[0]
    response = alice.post(
        f"/games/{game}/commands",
        {"command": {"type": "play", "card": card, "discard": True}},
        key=str(uuid.uuid4()),
        HTTP_X_REQUEST_ID="req-42",
    )
    assert response["X-Request-ID"] == "req-42"
    record = CommandRecord.objects.get(stream_id=game, seat=0)
    assert record.metadata["request_id"] == "req-42" and record.metadata["ip"]
    event = StoredEvent.objects.get(stream_id=game, seq=response.json()["first_seq"])
    assert event.metadata["request_id"] == "req-42"
    generated = alice.get(f"/games/{game}")
    assert len(generated["X-Request-ID"]) == 32
    refused = alice.get("/games/not-a-uuid", HTTP_X_REQUEST_ID="bad id with spaces")
    assert refused.status_code == 404 and refused["X-Request-ID"] != "bad id with spaces"


# --- racing counters ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_counters_racing_over_http_exactly_one_wins(alice, bob, carol, dave, staff) -> None:
    stack = hand_stack(
        ["CONTRACT"], ["FAMILY_INFLUENCE"], ["FAMILY_INFLUENCE"], ["FAMILY_INFLUENCE"]
    )
    table = create_table(
        staff, mode="sandbox", seats=4, join=False, stacked_deck=stack, reaction_seconds=120
    )
    game_id = table["id"]
    seat_all(game_id, alice, bob, carol, dave)
    start(staff, game_id)
    target = alice.state(game_id)["state"]["players"][1]["crew"][0]["id"]
    played = alice.command(
        game_id, {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]}
    )
    assert played.status_code == 201
    window = played.json()["state"]["window"]
    assert window and sorted(window["waiting_on"]) == [1, 2, 3]
    fi = cards_of("FAMILY_INFLUENCE")
    counterers = {1: bob, 2: carol, 3: dave}
    barrier = threading.Barrier(len(counterers))
    answers: dict[int, tuple[int, dict]] = {}

    def counter(seat: int) -> None:
        client = APIClient()
        client.force_authenticate(user=counterers[seat].user)
        try:
            barrier.wait()
            response = client.post(
                f"{API}/games/{game_id}/commands",
                {"command": {"type": "counter", "window": window["id"], "card": fi[seat - 1]}},
                format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            answers[seat] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=counter, args=(seat,)) for seat in counterers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(status for status, _ in answers.values())
    assert statuses == [201, 409, 409], answers
    counters = StoredEvent.objects.filter(stream_id=game_id, type="family_business.CounterPlayed")
    assert counters.count() == 1
    winning_seq = counters.get().seq
    for status, body in answers.values():
        if status == 409:
            assert body["code"] == "window_closed"
            assert body["extra"]["winning_seq"] == winning_seq
    seqs = list(
        StoredEvent.objects.filter(stream_id=game_id).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1))
