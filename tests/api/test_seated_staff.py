"""Staff who sit at a table are players there. A security campaign found a staff user seated
at a table reading, during play, a director's note that named an opponent's hand, then
awarding themselves the win by a ruling. Seated staff read their game as their seat until
it ends (documents, events, replays, reviews, the audit and the export), and never rule on
it, nor annotate it while it runs: ``403 seated_at_table``, nothing recorded. Directors who
do not play in the game keep every right they had."""

from __future__ import annotations

import uuid

import pytest

from games.models import Annotation, Ruling, Table
from tests.api.conftest import _player
from tests.api.helpers import Player, card_ids, event_count, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(db) -> Player:
    """Staff who play in no game here: the tournament director."""
    return _player("director", staff=True)


@pytest.fixture
def game(staff, alice, bob) -> str:
    """staff (seat 0), alice (seat 1) and bob (seat 2), running: staff discarded a card."""
    return started_game(staff, alice, bob, discard=True)


def code(response) -> str:
    return response.json()["code"]


def hand(player: Player, game: str, seat: int) -> set[str]:
    return {c["id"] for c in player.state(game)["state"]["players"][seat]["hand"]}


def finish(game: str, *players: Player) -> None:
    for player in players:
        response = player.post(f"/games/{game}/resign", key=str(uuid.uuid4()))
        assert response.status_code == 201, response.content


def test_seated_staff_read_their_game_as_their_seat_until_it_ends(
    staff, alice, director, game
) -> None:
    secret = hand(director, game, 1)  # the director sees every hand
    assert secret and not secret & hand(director, game, 0)
    note = director.post(
        f"/games/{game}/rulings",
        {"kind": "note", "reason": "alice holds " + ", ".join(sorted(secret)) + "; watch her."},
    )
    assert note.status_code == 201, note.content
    annotation = director.post(
        f"/games/{game}/annotations", {"seq": 2, "text": "alice: " + " ".join(sorted(secret))}
    )
    assert annotation.status_code == 201, annotation.content

    # the seated staff user: the reviews are refused as to any player...
    response = staff.get(f"/games/{game}/rulings")
    assert (response.status_code, code(response)) == (403, "ruling_not_allowed")
    response = staff.get(f"/games/{game}/annotations")
    assert (response.status_code, code(response)) == (403, "annotation_not_allowed")
    # ... and so are the audit and the export; the game, its replay and its events are
    # their seat's
    for path in ("audit", "export"):
        response = staff.get(f"/games/{game}/{path}")
        assert (response.status_code, code(response)) == (403, "forbidden")
    doc = staff.state(game)
    assert doc["viewer"] == 0 and doc["state"]["players"][1].get("hand") is None
    replay = staff.get(f"/games/{game}/replay").json()
    assert replay["viewer"] == 0 and replay["hash"] is None
    assert staff.get(f"/games/{game}/events", after=0).status_code == 200
    shown = card_ids(staff.bodies)
    assert not shown & secret, f"alice's hand shown to a seated staff user: {shown & secret}"

    # a director who does not play in it reads everything, as before
    assert [r["id"] for r in director.get(f"/games/{game}/rulings").json()["rulings"]] == [
        note.json()["id"]
    ]
    assert len(director.get(f"/games/{game}/annotations").json()["annotations"]) == 1
    assert director.get(f"/games/{game}/export").status_code == 200

    # once it is over the reviews are everyone's, as documented: the seated staff's too
    finish(game, alice, staff)
    assert staff.get(f"/games/{game}/rulings").json()["rulings"][0]["id"] == note.json()["id"]
    assert len(staff.get(f"/games/{game}/annotations").json()["annotations"]) == 1
    assert staff.get(f"/games/{game}/export").status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "award", "winners": [0], "reason": "Opponent stalled."},  # the campaign's
        {"kind": "award", "winners": [1], "reason": "To someone else."},
        {"kind": "void", "reason": "Void it."},
        {"kind": "note", "reason": "Just a note."},
    ],
)
def test_seated_staff_rule_on_nothing_at_their_table_before_or_after_the_end(
    staff, alice, bob, game, body
) -> None:
    version = event_count(game)
    response = staff.post(f"/games/{game}/rulings", body)
    assert (response.status_code, code(response)) == (403, "seated_at_table"), response.content
    assert response.json()["message"] and isinstance(response.json()["extra"], dict)
    assert Ruling.objects.count() == 0 and event_count(game) == version
    table = alice.state(game)["table"]
    assert table["status"] == "started" and table["result"] is None

    # their own game's result stays out of their hands once it is over, too
    finish(game, alice, bob)
    response = staff.post(f"/games/{game}/rulings", body)
    assert (response.status_code, code(response)) == (403, "seated_at_table"), response.content
    assert Ruling.objects.count() == 0
    assert alice.get(f"/tables/{game}").json()["result"]["decided_by"] == "play"


def test_seated_staff_annotate_only_as_players_once_it_is_over(staff, alice, bob, game) -> None:
    response = staff.post(f"/games/{game}/annotations", {"seq": 2, "text": "Mine, in private."})
    assert (response.status_code, code(response)) == (403, "seated_at_table"), response.content
    assert Annotation.objects.count() == 0

    finish(game, alice, bob)
    response = staff.post(f"/games/{game}/annotations", {"seq": 2, "text": "Well played."})
    assert response.status_code == 201, response.content
    assert response.json()["role"] == "player"


def test_staff_seated_elsewhere_still_direct_this_game(staff, alice, bob, director) -> None:
    """Being a player at one table takes nothing away at another."""
    started_game(director, alice)  # the director plays a game of their own
    game = started_game(staff, bob, discard=True)
    response = director.post(f"/games/{game}/rulings", {"kind": "note", "reason": "Watching."})
    assert response.status_code == 201, response.content
    assert director.get(f"/games/{game}/rulings").status_code == 200
    response = director.post(
        f"/games/{game}/rulings", {"kind": "award", "winners": [1], "reason": "staff left."}
    )
    assert response.status_code == 201, response.content
    assert Table.objects.get(id=game).status == Table.Status.FINISHED
    assert bob.get(f"/tables/{game}").json()["winners"] == [1]
