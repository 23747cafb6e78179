"""Standing reactions over HTTP: reading and changing your own, the errors, and what the
server's standing commands look like to you and to everyone else. The window that opens
is answered in-process here (``standing_react``, what the task runs); tests/timers has it
with a real worker, and the leak test."""

from __future__ import annotations

import uuid

import pytest
from django.db import DatabaseError, transaction

from events.models import CommandRecord
from games.models import StandingPreference, Table
from games.standing import standing_react
from tests.api.helpers import (
    create_table,
    event_count,
    play_contract,
    seat_all,
    start,
    undoable_game,
)

pytestmark = pytest.mark.django_db

FI = "FAMILY_INFLUENCE"


def standing(player, game_id) -> dict:
    response = player.get(f"/games/{game_id}/standing")
    assert response.status_code == 200, response.content
    return response.json()


def change(player, game_id, body):
    return player.client.patch(f"/api/v1/games/{game_id}/standing", data=body, format="json")


@pytest.fixture
def game(staff, alice, bob, carol) -> str:
    """alice holds a CONTRACT, bob a FAMILY INFLUENCE, carol no counter at all."""
    return undoable_game(staff, [alice, bob, carol], [["CONTRACT"], [FI], []])


def test_the_defaults_until_you_change_them(bob, game) -> None:
    doc = standing(bob, game)
    assert (doc["seat"], doc["version"], doc["auto_pass"]) == (1, 0, True)
    assert doc["pass_all"] == {"active": False, "until": None, "until_ms": None, "turn": None}
    assert doc["counters"] == [] and doc["window_pass"] is None
    assert doc["answers"]["FINGER"] == ["TAKE_IT_ON_THE_LAM"]


def test_each_change_is_a_new_version_and_the_old_ones_stay(bob, game) -> None:
    declared = [{"counter": FI, "against": ["CONTRACT"]}]
    response = change(bob, game, {"counters": declared, "auto_pass": False})
    assert response.status_code == 200, response.content
    doc = response.json()
    assert doc["version"] == 1 and doc["auto_pass"] is False
    assert doc["counters"] == [{"counter": FI, "against": ["CONTRACT"], "mine_only": True}]
    doc = change(bob, game, {"pass_all": {"seconds": 60}, "expected_version": 1}).json()
    assert doc["version"] == 2 and doc["pass_all"]["active"] is True
    assert doc["pass_all"]["until_ms"] - doc["server_time"] <= 60_000
    assert doc["counters"] and doc["auto_pass"] is False  # left out: kept
    doc = change(bob, game, {"pass_all": {"end_of_turn": True}}).json()
    assert doc["pass_all"]["active"] is True and doc["pass_all"]["turn"] == 1
    assert doc["pass_all"]["until_ms"] is None
    doc = change(bob, game, {"pass_all": None, "counters": []}).json()
    assert doc["version"] == 4 and not doc["pass_all"]["active"] and doc["counters"] == []
    rows = StandingPreference.objects.filter(game_id=game, seat=1).order_by("version")
    assert [r.version for r in rows] == [1, 2, 3, 4] and rows[0].auto_pass is False
    assert rows[0].actor == f"user:{bob.user.pk}"


def test_the_record_is_append_only_in_the_database(bob, game) -> None:
    change(bob, game, {"auto_pass": False})
    for attempt in (
        lambda: StandingPreference.objects.filter(game_id=game).update(auto_pass=True),
        lambda: StandingPreference.objects.filter(game_id=game).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            attempt()
    assert StandingPreference.objects.get(game_id=game).auto_pass is False


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"counters": [{"counter": "FINGER", "against": ["CONTRACT"]}]}, "not_counterable", 422),
        ({"counters": [{"counter": "CONTRACT"}]}, "invalid", 400),
        ({"pass_all": {"seconds": 60, "end_of_turn": True}}, "invalid", 400),
        ({"pass_all": {"seconds": 0}}, "invalid", 400),
        ({"pass_all": {}}, "invalid", 400),
        ({"auto_pass": "yes"}, "invalid", 400),
        ({"everything": True}, "invalid", 400),
        ({"counters": [{"counter": FI}] * 9}, "invalid", 400),  # at most 8
        ({"counters": {"counter": FI}}, "invalid", 400),
        ({"auto_pass": True, "expected_version": 3}, "stale_version", 409),
    ],
)
def test_bad_changes_are_refused_and_change_nothing(bob, game, body, code, status) -> None:
    events = event_count(game)
    response = change(bob, game, body)
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    assert not StandingPreference.objects.filter(game_id=game).exists()
    assert event_count(game) == events


def test_only_your_own_seat(mallory, staff, game) -> None:
    for player in (mallory, staff):  # a spectator; staff, who hold no seat here
        assert player.get(f"/games/{game}/standing").json()["code"] == "not_your_seat"
        response = change(player, game, {"auto_pass": False})
        assert (response.status_code, response.json()["code"]) == (403, "not_your_seat")
    missing = mallory.get(f"/games/{uuid.uuid4()}/standing")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")


def test_standing_reactions_need_a_started_game_and_nothing_changes_after_the_end(
    alice, bob, carol
) -> None:
    table = create_table(alice, seats=2)
    for body in ({"pass_all": {"end_of_turn": True}}, {"auto_pass": False}):
        response = change(alice, table["id"], body)
        assert (response.status_code, response.json()["code"]) == (409, "not_started")
    read = alice.get(f"/games/{table['id']}/standing")  # like every game route (was 200)
    assert (read.status_code, read.json()["code"]) == (409, "not_started")
    assert not StandingPreference.objects.filter(game_id=table["id"]).exists()
    seat_all(table["id"], bob)
    start(alice, table["id"])
    bob.post(f"/games/{table['id']}/resign", key=str(uuid.uuid4()))
    assert Table.objects.get(id=table["id"]).status == "finished"
    response = change(alice, table["id"], {"auto_pass": True})
    assert (response.status_code, response.json()["code"]) == (409, "game_over")
    assert standing(alice, table["id"])["version"] == 0  # still read after the end


def test_a_standing_pass_is_private_and_appends_nothing(alice, bob, carol, game) -> None:
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    window = alice.state(game)["state"]["window"]["id"]
    done = standing_react(game_id=uuid.UUID(game))
    assert done == {2: "no_counter"}  # carol holds no counter; bob holds one: he decides
    assert alice.state(game)["version"] == version  # no event, nothing for others to see
    assert carol.state(game)["state"]["window"]["waiting_on"] == [1, 2]
    assert standing(carol, game)["window_pass"]["reason"] == "no_counter"
    assert standing(carol, game)["window_pass"]["window"] == window
    assert standing(bob, game)["window_pass"] is None
    record = CommandRecord.objects.get(stream_id=game, seat=2)
    assert record.actor == f"user:{carol.user.pk}" and record.first_seq is None
    assert record.command == {"type": "pass", "window": window}
    assert record.metadata == {
        "origin": "standing",
        "reason": "no_counter",
        "sealed": window,
        "deadline": record.metadata["deadline"],
        "seat": 2,
    }
    assert standing_react(game_id=uuid.UUID(game)) == {}  # once a window
    # carol may still answer herself: a pass by hand is public, and final
    response = carol.command(game, {"type": "pass", "window": window})
    assert response.status_code == 201, response.content
    assert [e["data"]["type"] for e in response.json()["events"]] == ["WindowPassed"]
    assert alice.state(game)["version"] == version + 1
    assert alice.state(game)["state"]["window"]["waiting_on"] == [1]
    again = carol.command(game, {"type": "pass", "window": window})
    assert again.status_code in (409, 422) and alice.state(game)["version"] == version + 1


def test_the_window_closes_once_every_seat_passed_by_hand(alice, bob, carol, game) -> None:
    """Hand passes count toward closing early: the second one closes the window at once,
    long before its deadline (docs/rules.md, "Hand passes are public")."""
    play_contract(alice, game, 0)
    state = alice.state(game)["state"]
    window = state["window"]["id"]
    assert bob.command(game, {"type": "pass", "window": window}).status_code == 201
    assert alice.state(game)["state"]["window"]["waiting_on"] == [2]
    response = carol.command(game, {"type": "pass", "window": window})
    assert response.status_code == 201, response.content
    types = [e["data"]["type"] for e in response.json()["events"]]
    assert types[:2] == ["WindowPassed", "WindowClosed"], types
    closed = response.json()["events"][1]["data"]
    assert closed["reason"] == "all_passed", closed
    assert alice.state(game)["state"]["window"] is None


def test_an_automatic_pass_never_closes_a_window_early(alice, bob, carol, game) -> None:
    """carol's standing pass (she holds no counter) and bob's pass by hand: the window
    still waits on carol, to everyone but carol, until its deadline."""
    play_contract(alice, game, 0)
    window = alice.state(game)["state"]["window"]["id"]
    assert standing_react(game_id=uuid.UUID(game)) == {2: "no_counter"}
    assert bob.command(game, {"type": "pass", "window": window}).status_code == 201
    for player in (alice, bob, carol):
        assert player.state(game)["state"]["window"]["waiting_on"] == [2]


def test_a_declared_counter_is_played_as_the_seats_own_command(alice, bob, carol, game) -> None:
    change(bob, game, {"counters": [{"counter": FI}]})
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    assert standing_react(game_id=uuid.UUID(game)) == {1: "declared"}
    shown = {
        name: player.get(f"/games/{game}/events", after=version).json()["events"]
        for name, player in (("alice", alice), ("bob", bob), ("carol", carol))
    }
    assert shown["bob"][0]["data"]["type"] == "CounterPlayed"
    assert shown["bob"][0]["actor"] == f"user:{bob.user.pk}"
    assert shown["bob"][0]["origin"] == "standing"  # to bob himself
    assert shown["alice"][0]["origin"] is None and shown["carol"][0]["origin"] is None
    assert shown["alice"][0]["actor"] == shown["bob"][0]["actor"]
    record = CommandRecord.objects.get(stream_id=game, seat=1)
    assert record.metadata["origin"] == "standing" and record.first_seq == version + 1


def test_a_change_while_a_window_is_open_applies_to_it_at_once(
    alice, bob, game, django_capture_on_commit_callbacks
) -> None:
    play_contract(alice, game, 0)
    assert standing(bob, game)["window_pass"] is None
    with django_capture_on_commit_callbacks(execute=True):
        doc = change(bob, game, {"pass_all": {"end_of_turn": True}}).json()
    assert doc["window_pass"] is None  # read before the commit...
    assert standing(bob, game)["window_pass"]["reason"] == "pass_all"  # ...applied after it


def test_a_timeout_says_the_system_played_for_the_seat(alice, bob) -> None:
    from games.models import GameClock
    from games.service import turn_timeout

    table = create_table(alice, seats=2, turn_seconds=30, turn_action="discard")
    seat_all(table["id"], bob)
    start(alice, table["id"])
    version = bob.state(table["id"])["version"]
    clock = GameClock.objects.get(game_id=table["id"])
    outcome = turn_timeout(
        game_id=uuid.UUID(table["id"]),
        key=clock.turn_key,
        deadline=clock.turn_deadline_ms,
        now=clock.turn_deadline_ms,
    )
    assert outcome is not None
    for player in (alice, bob):  # the turn clock is public: so is its timeout
        events = player.get(f"/games/{table['id']}/events", after=version).json()["events"]
        played = events[0]
        assert played["data"]["type"] == "CardPlayed" and played["data"]["discard"] is True
        assert (played["actor"], played["origin"]) == ("system", "timeout")
        assert events[1]["origin"] == "timeout"  # every event of that command
    record = CommandRecord.objects.get(stream_id=table["id"], metadata__timeout=True)
    assert record.metadata["origin"] == "timeout"


def test_changes_count_against_the_command_rate_reads_do_not(settings, bob, game) -> None:
    settings.FB_COMMAND_RATE = "2/min"
    for _ in range(3):
        assert bob.get(f"/games/{game}/standing").status_code == 200
    assert [change(bob, game, {"auto_pass": True}).status_code for _ in range(3)] == [
        200,
        200,
        429,
    ]
    assert StandingPreference.objects.filter(game_id=game).count() == 2


# --- passes are sealed at a table of people ----------------------------------------------


def _seen_by(player, game_id) -> dict:
    """What ``player`` sees of the game, less the clock's own fields."""
    doc = player.state(game_id)
    for key in ("server_time", "window_remaining_ms"):
        doc.pop(key)
    return doc


def test_a_hand_pass_is_public_and_final(alice, bob, carol, game) -> None:
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    window = alice.state(game)["state"]["window"]
    key = str(uuid.uuid4())
    body = {"command": {"type": "pass", "window": window["id"]}}
    response = carol.post(f"/games/{game}/commands", body, key=key)
    assert response.status_code == 201, response.content
    doc = response.json()
    assert doc["version"] == version + 1 and doc["window_pass"] is None
    assert [e["data"]["type"] for e in doc["events"]] == ["WindowPassed"]
    assert not [o for o in doc["state"]["legal"] if o.get("window") == window["id"]]
    for player in (alice, bob):  # the table sees it: a person's choice, not a hand
        seen = player.state(game)
        assert seen["version"] == version + 1
        assert seen["state"]["window"]["waiting_on"] == [1]
    # the same key again: the stored answer; a new pass: a pass is final
    again = carol.post(f"/games/{game}/commands", body, key=key)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    refused = carol.command(game, {"type": "pass", "window": window["id"]})
    assert refused.status_code == 422, refused.content
    assert alice.state(game)["version"] == version + 1


def test_automatic_passes_are_sealed_and_the_window_runs_to_its_deadline(
    alice, bob, carol, game
) -> None:
    from games.service import close_window

    change(bob, game, {"pass_all": {"end_of_turn": True}})
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    window = alice.state(game)["state"]["window"]
    assert standing_react(game_id=uuid.UUID(game)) == {1: "pass_all", 2: "no_counter"}
    # every seat has answered automatically, and still the window runs to its deadline
    assert alice.state(game)["state"]["window"]["waiting_on"] == [1, 2]
    assert event_count(game) == version
    close_window(
        game_id=uuid.UUID(game), window_id=window["id"], deadline=window["deadline"],
        now=window["deadline"],
    )  # fmt: skip
    types = [
        e["data"]["type"]
        for e in alice.get(f"/games/{game}/events", after=version).json()["events"]
    ]
    assert "WindowPassed" not in types and types[0] == "WindowClosed"
    records = CommandRecord.objects.filter(stream_id=game, metadata__sealed=window["id"])
    assert sorted(r.seat for r in records) == [1, 2]  # the audit keeps them


def test_a_counter_after_a_standing_pass_is_still_yours(alice, bob, carol, game) -> None:
    change(bob, game, {"pass_all": {"end_of_turn": True}})
    play_contract(alice, game, 0)
    window = alice.state(game)["state"]["window"]["id"]
    assert standing_react(game_id=uuid.UUID(game)) == {1: "pass_all", 2: "no_counter"}
    assert bob.state(game)["window_pass"]["origin"] == "standing"
    fi = next(o for o in bob.state(game)["state"]["legal"] if o["command"] == "counter")
    response = bob.command(game, fi["send"])
    assert response.status_code == 201, response.content
    assert response.json()["events"][0]["data"]["type"] == "CounterPlayed"
    assert alice.state(game)["state"]["window"] is None or (
        alice.state(game)["state"]["window"]["id"] != window
    )


def test_an_automatic_pass_and_a_held_counter_look_the_same_to_others(
    staff, alice, bob, carol
) -> None:
    """Two games alike but for carol's hand (no counter: auto-pass passes for her, sealed;
    a FAMILY INFLUENCE: nothing answers for her): alice and bob see the same."""
    seen = []
    for hand in ([], [FI]):
        game = undoable_game(staff, [alice, bob, carol], [["CONTRACT"], [FI], hand])
        play_contract(alice, game, 0)
        done = standing_react(game_id=uuid.UUID(game))
        assert done == ({2: "no_counter"} if not hand else {})
        views = {}
        for name, player in (("alice", alice), ("bob", bob)):
            doc = _seen_by(player, game)
            doc.pop("game_id"), doc["table"].pop("id"), doc["table"].pop("created_at", None)
            doc["events"] = [
                (e["seq"], e["type"], e["actor"], e["origin"])
                for e in player.get(f"/games/{game}/events").json()["events"]
            ]
            views[name] = doc
        seen.append(views)
    assert seen[0]["alice"]["version"] == seen[1]["alice"]["version"]
    assert seen[0]["alice"]["events"] == seen[1]["alice"]["events"]
    assert seen[0]["bob"]["events"] == seen[1]["bob"]["events"]
    assert seen[0]["alice"]["state"]["window"]["waiting_on"] == [1, 2]
    assert seen[1]["alice"]["state"]["window"]["waiting_on"] == [1, 2]


def test_at_a_table_of_one_person_a_pass_is_an_event_that_ends_the_window(
    settings, staff, alice
) -> None:
    """Nobody at the table could learn from it: the window ends once everyone answered."""
    from games.family_business import CARD_KIND
    from games.service import game_command_execute
    from tests.service.helpers import hand_stack

    settings.FB_BOTS_INLINE = False  # the bot's move is made here, by hand
    table = create_table(
        staff,
        mode="sandbox",
        seats=2,
        join=False,
        stacked_deck=hand_stack([], ["CONTRACT"]),
        reaction_seconds=300,
    )
    game = table["id"]
    seat_all(game, alice)
    assert staff.post(f"/tables/{game}/bots", {"kind": "heuristic"}).status_code == 201
    start(staff, game)
    state = alice.state(game)["state"]
    card = next(c["id"] for c in alice.state(game)["state"]["players"][0]["hand"])
    alice.command(game, {"type": "play", "card": card, "discard": True})
    state = staff.state(game)["state"]
    contract = next(
        c["id"] for c in state["players"][1]["hand"] if CARD_KIND[c["id"]] == "CONTRACT"
    )
    game_command_execute(
        game_id=uuid.UUID(game),
        seat=1,
        actor="bot:1",
        command={
            "type": "play",
            "card": contract,
            "targets": [state["players"][0]["crew"][0]["id"]],
        },
        command_id=uuid.uuid4(),
        run_bots=False,
    )
    window = alice.state(game)["state"]["window"]["id"]
    response = alice.command(game, {"type": "pass", "window": window})
    assert response.status_code == 201, response.content
    types = [e["data"]["type"] for e in response.json()["events"]]
    assert types[:2] == ["WindowPassed", "WindowClosed"], types
    assert response.json()["window_pass"] is None


def test_the_sweeper_applies_what_a_lost_task_left_undone(alice, bob, carol, game) -> None:
    """No task runs here (as if it were lost): the sweeper's next round answers for the
    seats, once, and a declared counter is played late rather than never."""
    from games import tasks

    change(bob, game, {"counters": [{"counter": FI}]})
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    assert bob.state(game)["window_pass"] is None and event_count(game) == version
    done = tasks.sweep_once()
    assert done["standing"] == 1 and done["windows"] == 0
    played = alice.get(f"/games/{game}/events", after=version).json()["events"]
    assert played[0]["data"]["type"] == "CounterPlayed" and played[0]["data"]["seat"] == 1
    assert tasks.sweep_once()["standing"] == 0  # the window is gone


def test_the_sweeper_answers_each_window_once(alice, bob, carol, game) -> None:
    from games import tasks

    play_contract(alice, game, 0)
    assert tasks.sweep_once()["standing"] == 1  # carol, who holds no counter
    assert carol.state(game)["window_pass"]["reason"] == "no_counter"
    assert tasks.sweep_once()["standing"] == 0
    assert CommandRecord.objects.filter(stream_id=game, seat=2).count() == 1


def test_an_undone_window_that_comes_back_is_a_new_window(alice, bob, carol, game) -> None:
    """Undo takes the window back and its id comes back with the next one; a pass made on
    the undone one does not count on the new one (a window is its id and deadline)."""
    play_contract(alice, game, 0)
    window = alice.state(game)["state"]["window"]
    assert standing_react(game_id=uuid.UUID(game)) == {2: "no_counter"}  # sealed
    assert carol.state(game)["window_pass"]["origin"] == "standing"
    undone = alice.post(f"/games/{game}/undo", key=str(uuid.uuid4()))
    assert undone.status_code == 201, undone.content
    play_contract(alice, game, 0)
    again = alice.state(game)["state"]["window"]
    assert again["id"] == window["id"] and again["deadline"] > window["deadline"]
    mine = carol.state(game)
    assert mine["window_pass"] is None
    assert any(o.get("window") == again["id"] for o in mine["state"]["legal"])
    assert carol.command(game, {"type": "pass", "window": again["id"]}).status_code == 201


def test_a_bots_pass_at_a_table_of_people_is_sealed_and_ends_nothing(staff, alice, bob) -> None:
    """Bots' passes follow the rule of people's automatic ones: bob passes by hand, the
    bot (no counter) passes sealed, and the window still waits on the bot, to everyone,
    until its deadline; the bot is not asked again."""
    from games.bots import bots_play
    from games.service import close_window
    from tests.service.helpers import hand_stack

    table = create_table(
        staff,
        mode="sandbox",
        seats=3,
        join=False,
        stacked_deck=hand_stack(["CONTRACT"], [], []),
        reaction_seconds=300,
    )
    game = table["id"]
    seat_all(game, alice, bob)
    assert staff.post(f"/tables/{game}/bots", {"kind": "heuristic"}).status_code == 201
    start(staff, game)
    play_contract(alice, game, 0)
    version = alice.state(game)["version"]
    window = alice.state(game)["state"]["window"]
    bots_play(game_id=uuid.UUID(game))  # (inline already: nothing more to do)
    sealed = CommandRecord.objects.get(stream_id=game, seat=2, metadata__sealed=window["id"])
    assert sealed.actor == "bot:2" and sealed.metadata["origin"] == "bot"
    assert sealed.first_seq is None
    assert bob.command(game, {"type": "pass", "window": window["id"]}).status_code == 201
    assert bots_play(game_id=uuid.UUID(game)) == 0
    for player in (alice, bob):
        seen = player.state(game)
        assert seen["version"] == version + 1  # bob's pass only
        assert seen["state"]["window"]["waiting_on"] == [2]
    close_window(
        game_id=uuid.UUID(game), window_id=window["id"], deadline=window["deadline"],
        now=window["deadline"],
    )  # fmt: skip
    assert alice.state(game)["state"]["window"] is None or (
        alice.state(game)["state"]["window"]["id"] != window["id"]
    )
