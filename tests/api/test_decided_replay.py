"""Issue 29, directors: the replay of a game a ruling decided reads as decided at its last
event (over, the ruling's winners, no turn and no window), never as if it ran on; earlier
positions are the game as it was."""

from __future__ import annotations

import pytest

from tests.api.helpers import started_game

pytestmark = pytest.mark.django_db


def test_the_replay_of_a_ruled_game_ends_decided(alice, bob, carol, staff) -> None:
    game = started_game(alice, bob, carol, discard=True)  # bob's turn
    before = alice.get(f"/games/{game}/replay").json()
    assert before["decided"] is None and not before["state"]["over"]
    award = staff.post(
        f"/games/{game}/rulings", {"kind": "award", "winners": [2], "reason": "bob left."}
    )
    assert award.status_code == 201, award.content
    for reader in (alice, carol, staff):
        last = reader.get(f"/games/{game}/replay").json()
        state = last["state"]
        assert state["over"] is True and state["winners"] == [2]
        assert state["window"] is None and state["outcome"]["reason"] == "ruling"
        assert last["decided"] == {
            "decided_by": "ruling",
            "ruling": award.json()["id"],
            "kind": "award",
            "winners": [2],
        }
        first = reader.get(f"/games/{game}/replay", at=1).json()
        assert first["decided"] is None and first["state"]["over"] is False
