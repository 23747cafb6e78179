"""Out-of-turn play through the real REST endpoints (G-8, SR-69; docs/api.md): a seat the
game does not wait for sends a command the rules accept out of turn (a Scarface 1920 job,
rules 2); it is appended, the awaited seat and the turn clock's step stay, and the awaited
seat's next command sent with the older ``expected_version`` is refused
``stale_version`` with nothing appended. ``out_of_turn`` (the game document and the
command result) lists who may act unawaited; a seat's own view lists the jobs it may
complete, and no other viewer sees them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.registry import get_game
from tests.api.helpers import Player, create_table, event_count, seat_all, start
from tests.api.test_contract import schema as contract_schema
from tests.api.test_contract import validator
from tests.games.scarface.builders import dealt, give_jobs, player

schema = contract_schema  # the API schema, once for the module (a fixture)

GAME = get_game("scarface")


def position(rules_version: int) -> tuple[dict[str, Any], int]:
    """A two-seat position at the first plan step: the seat not awaited holds Cops on the
    Payroll (Spend $6) and Show of Force (a Plan job); the awaited seat other jobs."""
    state = dealt(2, rules_version=rules_version)
    active = state.seat
    state = give_jobs(state, 1 - active, ("j27", "j10"))
    state = give_jobs(state, active, ("j16", "j04"))
    state = player(player(state, 0, money=10), 1, money=10)
    return GAME.position_of(state), active


def table_at(
    staff: Player, alice: Player, bob: Player, rules_version: int = 2, **fields: Any
) -> tuple[str, int]:
    """A started sandbox table at ``position``: alice seat 0, bob seat 1; its id and the
    awaited seat. ``fields``: the table's own (``turn_seconds`` ...)."""
    doc, active = position(rules_version)
    table = create_table(
        staff,
        game="scarface",
        mode="sandbox",
        seats=2,
        join=False,
        options={"position": doc},
        **fields,
    )
    seat_all(table["id"], alice, bob)
    start(staff, table["id"])
    return table["id"], active


def sent(player: Player, game_id: str, command: dict[str, Any], version: int) -> Any:
    return player.command(game_id, command, expected_version=version)


def test_a_seat_not_awaited_completes_a_job_and_the_turn_stays(staff, alice, bob, schema):
    game_id, active = table_at(staff, alice, bob, turn_seconds=300)
    seats = {0: alice, 1: bob}
    mover, other = seats[active], seats[1 - active]
    document = validator(schema, "Game")
    result = validator(schema, "CommandResult")

    before = other.state(game_id)
    document.validate(before)
    assert before["out_of_turn"] == [1 - active] and before["state"]["awaiting"] == [active]
    assert before["state"]["may_complete"] == ["j27"]  # j10 needs a plan of its own
    options = {o["command"]: o for o in before["state"]["legal"]}
    assert options["complete_job"]["send"] == {"type": "complete_job", "job": "j27"}
    version = before["version"]
    count = event_count(game_id)

    answer = sent(other, game_id, {"type": "complete_job", "job": "j27"}, version)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    result.validate(body)
    assert [e["type"] for e in body["events"]] == ["scarface.JobCompleted", "scarface.MoneyChanged"]
    assert event_count(game_id) == count + 2 and body["version"] == version + 2
    assert body["state"]["awaiting"] == [active]
    assert body["state"]["step_key"] == before["state"]["step_key"]  # SR-69
    assert body["out_of_turn"] == [1 - active] and body["state"]["may_complete"] == []
    # the awaited seat's turn clock runs on: the same deadline (G-8 (a), SR-75)
    assert before["turn_deadline"] is not None
    assert body["turn_deadline"] == before["turn_deadline"]
    assert mover.state(game_id)["turn_deadline"] == before["turn_deadline"]

    # the awaited seat acted on the version it had: refused, nothing appended
    hand = mover.state(game_id)["state"]["players"][active]["hand"]
    stale = sent(mover, game_id, {"type": "plan", "cards": hand[:1]}, version)
    assert stale.status_code == 409, stale.content
    assert stale.json()["code"] == "stale_version"
    assert stale.json()["extra"]["current_version"] == version + 2
    assert event_count(game_id) == count + 2
    fresh = sent(mover, game_id, {"type": "plan", "cards": hand[:1]}, version + 2)
    assert fresh.status_code == 201, fresh.content

    # the audit marks the out-of-turn command as such
    commands = staff.get(f"/games/{game_id}/audit").json()["commands"]
    done = [c for c in commands if c["command"].get("type") == "complete_job"]
    assert done[0]["metadata"].get("out_of_turn") is True and done[0]["outcome"] == "accepted"
    assert not any(c["metadata"].get("out_of_turn") for c in commands if c is not done[0])


def test_a_seats_completable_jobs_are_shown_to_it_alone(staff, alice, bob, mallory, schema):
    game_id, active = table_at(staff, alice, bob)
    seats = {0: alice, 1: bob}
    mover, other = seats[active], seats[1 - active]
    document = validator(schema, "Game")
    for viewer in (mover, mallory):
        body = viewer.state(game_id)
        document.validate(body)
        assert body["out_of_turn"] == [1 - active]  # public: who may try, not what it holds
        assert "j27" not in json.dumps(body) and "j10" not in json.dumps(body)
        assert "jobs" not in body["state"]["players"][1 - active]
    assert "may_complete" not in mallory.state(game_id)["state"]
    assert "j27" not in json.dumps(mover.get(f"/games/{game_id}/events", after=0).json())
    # while its owner sees them
    assert other.state(game_id)["state"]["may_complete"] == ["j27"]


def test_under_rules_1_a_job_out_of_turn_is_refused_and_nobody_is_listed(staff, alice, bob):
    game_id, active = table_at(staff, alice, bob, rules_version=1)
    other = {0: alice, 1: bob}[1 - active]
    before = other.state(game_id)
    assert before["out_of_turn"] == [] and before["state"]["may_complete"] == []
    count = event_count(game_id)
    answer = sent(other, game_id, {"type": "complete_job", "job": "j27"}, before["version"])
    assert (answer.status_code, answer.json()["code"]) == (422, "not_allowed_now")
    assert event_count(game_id) == count


@pytest.mark.parametrize("job", ["j10", "j99"])
def test_a_plan_job_out_of_turn_is_refused_with_nothing_appended(staff, alice, bob, job):
    game_id, active = table_at(staff, alice, bob)
    other = {0: alice, 1: bob}[1 - active]
    count = event_count(game_id)
    answer = other.command(game_id, {"type": "complete_job", "job": job})
    assert answer.status_code == 422, answer.content
    assert answer.json()["code"] == ("not_allowed_now" if job == "j10" else "card_not_in_hand")
    assert event_count(game_id) == count
