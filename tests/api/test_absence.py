"""Absent players (docs/rules.md, "Absent players"; ``games.absence``): a table's turn
clock puts a seat out after ``abandon_after`` consecutive timeouts, through the game's own
resign; at a two-person table the other person claims the win; results say abandonment.
The timeouts are the turn clock's own (``games.timeouts.turn_timeout``) at their
deadlines; tests/timers/test_absence.py runs the same path on a real worker."""

from __future__ import annotations

import uuid
from typing import Any

from events.models import CommandRecord
from games.models import GameClock, Table
from games.timeouts import turn_timeout
from tests.api.helpers import Player, create_table, event_count, seat_all, start


def time_out(game_id: str) -> None:
    """The running turn's clock runs out (the worker's task, at its deadline)."""
    row = GameClock.objects.get(game_id=game_id)
    assert row.turn_deadline_ms is not None
    outcome = turn_timeout(
        game_id=uuid.UUID(game_id),
        key=row.turn_key,
        deadline=row.turn_deadline_ms,
        now=row.turn_deadline_ms,
    )
    assert outcome is not None


def discard(player: Player, game_id: str, seat: int) -> None:
    """``seat`` plays by hand: discards its first card."""
    card = player.state(game_id)["state"]["players"][seat]["hand"][0]["id"]
    answer = player.command(game_id, {"type": "play", "card": card, "discard": True})
    assert answer.status_code == 201, answer.content


def table_of(creator: Player, *others: Player, **fields: Any) -> str:
    table = create_table(creator, seats=1 + len(others), turn_seconds=30, **fields)
    seat_all(table["id"], *others)
    start(creator, table["id"])
    return str(table["id"])


def abandonments(game_id: str) -> list[CommandRecord]:
    return list(
        CommandRecord.objects.filter(
            stream_id=game_id, metadata__origin="abandon", outcome="accepted"
        ).order_by("id")
    )


def test_the_rule_is_a_table_option_with_a_documented_default(alice) -> None:
    assert create_table(alice, seats=2)["abandon_after"] == 3
    assert create_table(alice, seats=2, abandon_after=5)["abandon_after"] == 5
    assert create_table(alice, seats=2, abandon_after=0)["abandon_after"] == 0
    # a game without a resign command has no abandonment rule
    assert create_table(alice, game="goofspiel", seats=2)["abandon_after"] == 0
    before = Table.objects.count()
    for body, code in (
        ({"seats": 2, "abandon_after": 21}, "invalid"),
        ({"seats": 2, "abandon_after": -1}, "invalid"),
        ({"seats": 2, "abandon_after": "3"}, "invalid"),
        ({"game": "goofspiel", "seats": 2, "abandon_after": 2}, "bad_options"),
    ):
        answer = alice.post("/tables", body)
        assert answer.status_code == 400, body
        assert answer.json()["code"] == code, answer.json()
    assert Table.objects.count() == before


def test_at_a_two_person_table_the_present_person_claims_the_win(alice, bob) -> None:
    game_id = table_of(alice, bob, mode="ranked", abandon_after=2)
    time_out(game_id)  # alice's turn runs out
    discard(bob, game_id, 1)
    assert bob.state(game_id)["absent"] == []
    # one timeout is not absence: no claim, nothing appended
    version = event_count(game_id)
    early = bob.post(f"/games/{game_id}/claim")
    assert (early.status_code, early.json()["code"]) == (409, "no_claim")
    assert early.json()["extra"] == {"timeouts": 1, "abandon_after": 2}
    assert event_count(game_id) == version
    time_out(game_id)  # alice's second in a row: absent
    state = bob.state(game_id)
    assert state["absent"] == [0] and state["claim_available"] is True
    assert state["table"]["status"] == "started"  # not out by itself at two people
    assert alice.state(game_id)["claim_available"] is False  # the absent seat claims nothing
    refused = alice.post(f"/games/{game_id}/claim")
    assert (refused.status_code, refused.json()["code"]) == (409, "no_claim")
    claimed = bob.post(f"/games/{game_id}/claim")
    assert claimed.status_code == 201, claimed.content
    final = bob.state(game_id)
    assert final["table"]["status"] == "finished"
    assert final["table"]["winners"] == [1]
    assert final["table"]["result"] == {
        "decided_by": "abandonment",
        "ruling": None,
        "kind": "abandonment",
        "abandoned": [0],
    }
    assert final["state"]["outcome"]["reason"] == "abandonment"
    (record,) = abandonments(game_id)
    assert record.seat == 0 and record.actor == "system"
    assert record.metadata["claimed_by"] == 1 and record.command == {"type": "resign"}
    events = bob.get(f"/games/{game_id}/events").json()["events"]
    assert events[-1]["origin"] == "abandon"  # public, as timeouts are
    again = bob.post(f"/games/{game_id}/claim")
    assert again.status_code == 409


def test_a_move_by_hand_resets_the_count(alice, bob) -> None:
    game_id = table_of(alice, bob, abandon_after=2)
    time_out(game_id)
    discard(bob, game_id, 1)
    discard(alice, game_id, 0)  # alice is back
    discard(bob, game_id, 1)
    time_out(game_id)
    assert bob.state(game_id)["absent"] == []
    assert bob.post(f"/games/{game_id}/claim").status_code == 409


def test_when_both_people_are_away_the_first_absent_is_out(alice, bob) -> None:
    """The issue's ranked game where both discarded for 35 turns: now it ends."""
    game_id = table_of(alice, bob, mode="ranked", abandon_after=3)
    turns = 0
    while Table.objects.get(id=game_id).status == Table.Status.STARTED:
        time_out(game_id)
        turns += 1
        assert turns <= 6
    assert turns == 6  # alice's third timeout came first; bob's third ended the game
    (record,) = abandonments(game_id)
    assert record.seat == 0 and "claimed_by" not in record.metadata
    final = bob.state(game_id)
    assert final["table"]["result"]["kind"] == "abandonment"
    assert final["table"]["result"]["abandoned"] == [0]
    assert final["table"]["winners"] == [1]


def test_at_a_larger_table_the_absent_seat_is_out_and_the_others_play_on(alice, bob, carol) -> None:
    game_id = table_of(alice, bob, carol, abandon_after=2)
    time_out(game_id)  # alice
    discard(bob, game_id, 1)
    discard(carol, game_id, 2)
    time_out(game_id)  # alice again: out, as if she resigned
    (record,) = abandonments(game_id)
    assert record.seat == 0 and record.command == {"type": "resign"}
    state = bob.state(game_id)
    assert state["table"]["status"] == "started"
    assert state["state"]["players"][0]["resigned"] is True
    assert state["absent"] == [] and state["claim_available"] is False
    claim = bob.post(f"/games/{game_id}/claim")
    assert (claim.status_code, claim.json()["code"]) == (409, "no_claim")
    discard(bob, game_id, 1)  # the others play on
    assert state["table"]["result"] is None


def test_without_a_turn_clock_or_with_the_rule_off_nobody_is_out(alice, bob) -> None:
    game_id = table_of(alice, bob, abandon_after=0)
    for _ in range(4):
        time_out(game_id)
    assert abandonments(game_id) == []
    assert bob.state(game_id)["absent"] == []
    assert bob.post(f"/games/{game_id}/claim").status_code == 409


def test_standing_reactions_neither_count_nor_stop_the_count(alice, bob) -> None:
    """What a seat's standing reactions answer for it (origin: standing) is not the seat
    playing: two timeouts around an automatic pass are still two in a row."""
    from games.absence import consecutive_timeouts

    game_id = table_of(alice, bob, abandon_after=2)
    time_out(game_id)
    discard(bob, game_id, 1)
    assert consecutive_timeouts(uuid.UUID(game_id), 0, 5) == 1
    CommandRecord.objects.create(  # an automatic pass recorded for alice's seat
        stream_id=game_id,
        command_id=uuid.uuid4(),
        actor="system",
        seat=0,
        command={"type": "pass", "window": "w"},
        now_ms=0,
        outcome="accepted",
        metadata={"origin": "standing", "seat": 0},
    )
    assert consecutive_timeouts(uuid.UUID(game_id), 0, 5) == 1
    time_out(game_id)
    assert consecutive_timeouts(uuid.UUID(game_id), 0, 5) == 2
    assert bob.state(game_id)["absent"] == [0]
