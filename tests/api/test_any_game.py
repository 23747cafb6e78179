"""The API for every registered game (parametrized): a table of any game is created with
its options, joined, started and played; commands are idempotent; a refusal is the game's
code with the status the game gives it. Then Goofspiel's sealed bids: hidden from the
other seat until every bid is in, then revealed together."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.models import Table
from games.registry import STANDING, game_names, get_game
from games.service import game_load
from tests.api.helpers import API, Player, create_table, seat_all, start

GAMES = list(game_names())


def a_move(game_id: str, seat: int) -> dict[str, Any]:
    """A legal command for ``seat``, chosen by the game's own bot (the test's client)."""
    loaded = game_load(game_id=uuid.UUID(game_id))
    command = loaded.definition.bot_command(loaded.state, seat, "heuristic", "api-test")
    assert command is not None
    return command


def seats_of(game: str) -> int:
    """Two seats, or the fewest the game is for (Infamy: three)."""
    return max(2, get_game(game).min_players)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_any_game_is_created_started_and_played(alice, bob, carol, game) -> None:
    seats = seats_of(game)
    table = create_table(alice, game=game, seats=seats)
    assert table["game"] == game
    assert table["options"] == get_game(game).public_options(
        get_game(game).validate_options({}, seats, sandbox=False)
    )
    seat_all(table["id"], *[bob, carol][: seats - 1])
    document = start(alice, table["id"])
    assert document["table"]["status"] == "started"
    seat = document["state"]["awaiting"][0]
    player = (alice, bob, carol)[seat]
    key = str(uuid.uuid4())
    body = {"command": a_move(table["id"], seat)}
    first = player.post(f"/games/{table['id']}/commands", body, key=key)
    assert first.status_code == 201, first.json()
    assert first.json()["events"] and first.json()["last_seq"] == first.json()["version"]
    again = player.post(f"/games/{table['id']}/commands", body, key=key)
    assert (again.status_code, again["Idempotent-Replayed"]) == (201, "true")
    assert again.json()["first_seq"] == first.json()["first_seq"]


@pytest.mark.parametrize("game", GAMES)
def test_a_malformed_command_is_the_games_400(alice, bob, carol, game) -> None:
    seats = seats_of(game)
    table = create_table(alice, game=game, seats=seats)
    seat_all(table["id"], *[bob, carol][: seats - 1])
    start(alice, table["id"])
    response = alice.command(table["id"], {"type": "no-such-command"})
    assert (response.status_code, response.json()["code"]) == (400, "bad_command")


@pytest.mark.parametrize("game", GAMES)
def test_options_the_game_does_not_know_are_refused(alice, game) -> None:
    response = alice.post("/tables", {"game": game, "options": {"no_such_option": 1}})
    assert response.status_code == 400
    assert "no_such_option" in response.json()["extra"]["fields"]


@pytest.mark.parametrize("game", GAMES)
def test_standing_reactions_exist_where_the_game_says_it_has_reaction_windows(
    alice, bob, carol, staff, game
) -> None:
    """One rule for every route of it, before, during and after a game: a game without
    reaction windows answers 409 no_standing_reactions (it was an undeclared 400
    bad_options, and 200 with another game's counters before the start and after the
    end); one with them has the game routes' 409 not_started, and after the end is read,
    not changed."""
    has = get_game(game).reaction_windows
    assert has == (game in STANDING)  # its standing rules are registered with it
    seats = seats_of(game)
    game_id = create_table(alice, game=game, seats=seats)["id"]

    def answers() -> list[tuple[int, str | None]]:
        read = alice.get(f"/games/{game_id}/standing")
        changed = alice.client.patch(
            f"{API}/games/{game_id}/standing", {"auto_pass": False}, format="json"
        )
        return [(r.status_code, r.json().get("code")) for r in (read, changed)]

    refused = [(409, "no_standing_reactions")] * 2
    assert answers() == (refused if not has else [(409, "not_started")] * 2)
    seat_all(game_id, *[bob, carol][: seats - 1])
    start(alice, game_id)
    assert answers() == (refused if not has else [(200, None)] * 2)
    if has:
        assert alice.get(f"/games/{game_id}/standing").json()["answers"]
    ruling = staff.post(f"/games/{game_id}/rulings", {"kind": "void", "reason": "ends it"})
    assert ruling.status_code == 201, ruling.content
    assert answers() == (refused if not has else [(200, None), (409, "game_over")])


def test_an_unknown_game_is_refused(alice) -> None:
    response = alice.post("/tables", {"game": "chess"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "game" in response.json()["extra"]["fields"]


@pytest.mark.parametrize("game", ["family_business", "goofspiel"])
@pytest.mark.parametrize("field", ["reaction_seconds", "advanced", "stacked_deck"])
def test_a_games_options_come_in_options_only(alice, game, field) -> None:
    # the fields Family Business's options once had of their own are refused, for it too
    value = {"reaction_seconds": 20, "advanced": True, "stacked_deck": []}[field]
    response = alice.post("/tables", {"game": game, field: value})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert field in response.json()["extra"]["fields"]
    assert not Table.objects.filter(created_by=alice.user).exists()


# --- Goofspiel: sealed simultaneous bids --------------------------------------------------


def goofspiel(alice: Player, bob: Player, **options: Any) -> str:
    table = create_table(alice, game="goofspiel", seats=2, options=options or {"cards": 3})
    seat_all(table["id"], bob)
    start(alice, table["id"])
    return str(table["id"])


def test_a_sealed_bid_is_hidden_from_the_other_seat_until_both_are_in(alice, bob, mallory) -> None:
    game_id = goofspiel(alice, bob)
    state = alice.state(game_id)["state"]
    assert state["awaiting"] == [0, 1] and state["round"] == 1
    card = state["players"][0]["hand"][-1]
    bid = alice.command(game_id, {"type": "bid", "round": 1, "card": card})
    assert bid.status_code == 201
    assert bid.json()["events"][0]["data"]["card"] == card  # the bidder sees its own bid
    assert bid.json()["state"]["players"][0]["hand"] == [1, 2]  # and its hand without it
    seen_by_bob = bob.state(game_id)["state"]
    assert seen_by_bob["players"][0]["has_bid"] and seen_by_bob["players"][0]["bid"] is None
    assert seen_by_bob["awaiting"] == [1]
    # the hand less the bid would give the bid away: others see it as of the last reveal
    replay = bob.get(f"/games/{game_id}/replay").json()["state"]
    for seen in (seen_by_bob, mallory.state(game_id)["state"], replay):
        assert seen["players"][0]["hand"] == [1, 2, 3]
    feed = bob.get(f"/games/{game_id}/events", after=0, wait=0).json()["events"]
    placed = [e for e in feed if e["type"] == "goofspiel.BidPlaced"]
    assert placed and placed[0]["data"]["card"] is None  # sealed in the feed too
    answer = bob.command(game_id, {"type": "bid", "round": 1, "card": 1})
    assert answer.status_code == 201
    revealed = [e for e in answer.json()["events"] if e["type"] == "goofspiel.BidsRevealed"]
    assert revealed and revealed[0]["data"]["bids"] == [card, 1]
    assert bob.state(game_id)["state"]["history"][0]["bids"] == [card, 1]


def test_a_bid_for_a_round_that_is_over_is_409_round_over(alice, bob) -> None:
    game_id = goofspiel(alice, bob)
    assert alice.command(game_id, {"type": "bid", "round": 1, "card": 1}).status_code == 201
    assert bob.command(game_id, {"type": "bid", "round": 1, "card": 2}).status_code == 201
    late = alice.command(game_id, {"type": "bid", "round": 1, "card": 3}, expected_version=1)
    assert (late.status_code, late.json()["code"]) == (409, "round_over")


def test_the_last_bid_reveals_all_and_cannot_be_undone(alice, bob) -> None:
    game_id = goofspiel(alice, bob)
    assert alice.command(game_id, {"type": "bid", "round": 1, "card": 1}).status_code == 201
    assert bob.command(game_id, {"type": "bid", "round": 1, "card": 2}).status_code == 201
    undo = bob.post(f"/games/{game_id}/undo", key=str(uuid.uuid4()))
    assert (undo.status_code, undo.json()["code"]) == (422, "undo_after_reveal")


def test_a_first_bid_can_be_taken_back(alice, bob) -> None:
    game_id = goofspiel(alice, bob)
    assert alice.command(game_id, {"type": "bid", "round": 1, "card": 3}).status_code == 201
    assert alice.state(game_id)["undo_available"] is True
    undo = alice.post(f"/games/{game_id}/undo", key=str(uuid.uuid4()))
    assert undo.status_code == 201
    assert alice.state(game_id)["state"]["awaiting"] == [0, 1]


def test_goofspiel_is_played_to_its_end_over_the_api(alice, bob) -> None:
    game_id = goofspiel(alice, bob)
    for _ in range(3):
        for player, seat in ((alice, 0), (bob, 1)):
            assert player.command(game_id, a_move(game_id, seat)).status_code == 201
    final = alice.state(game_id)
    assert final["state"]["over"] and final["table"]["winners"]
    assert final["table"]["status"] == "finished"
    export = alice.get(f"/games/{game_id}/export")
    assert export.status_code == 200 and export.json()["seed"]


def test_resigning_at_a_game_without_a_resign_command_is_409_no_resign(alice, bob) -> None:
    """Found by schemathesis: POST /resign at a Goofspiel table was a 400 bad_command."""
    game_id = goofspiel(alice, bob)
    version = alice.state(game_id)["version"]
    answer = alice.post(f"/games/{game_id}/resign", key=str(uuid.uuid4()))
    assert (answer.status_code, answer.json()["code"]) == (409, "no_resign")
    assert alice.state(game_id)["version"] == version  # nothing appended
