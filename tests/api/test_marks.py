"""A replay's marks (GET /games/{id}/marks) for every registered game (parametrized): a
finished game has turns and moments, in order, labelled, each of a kind the game declares;
during a game a seat's marks are those of any history it cannot tell from its own (the
game's hidden twin), so they name nothing hidden from it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import pytest

from games import registry
from games.core import Moment, ReviewMarks, RuleViolation, Seen
from games.goofspiel.game import Goofspiel
from games.loading import from_row
from games.lobby import seat_add_bot, table_create, table_start
from games.marks import marks_document
from games.reads import access_for
from games.registry import game_names, get_game
from games.selectors import events_between
from games.service import game_command_execute, game_load
from tests.api.helpers import create_table, seat_all, start

GAMES = list(game_names())
CHECK_AFTER = {2, 5, 40, 100, 159}  # commands (Goofspiel's 3rd and 6th: a bid sealed)


def finished(game: str) -> uuid.UUID:
    """A game of bots, played to its end as it starts."""
    definition = get_game(game)
    table = table_create(created_by=None, game=game, seats=definition.min_players)
    for _ in range(definition.min_players):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id)
    assert definition.status(game_load(game_id=table.id).state).over
    return table.id


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_games_turns_and_moments(alice, game) -> None:
    definition = get_game(game)
    game_id = finished(game)
    response = alice.get(f"/games/{game_id}/marks")
    assert response.status_code == 200, response.content
    marks = response.json()
    assert marks["game"] == game and marks["turn_name"] == definition.turn_name
    assert [k["kind"] for k in marks["kinds"]] == list(definition.moment_kinds)
    assert all(k["name"] for k in marks["kinds"])
    turns, moments = marks["turns"], marks["moments"]
    assert len(turns) >= 2 and moments
    numbers = [t["number"] for t in turns]
    seqs = [t["seq"] for t in turns]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1, "turns count up from 1"
    assert seqs == sorted(set(seqs)) and seqs[0] >= 1 and seqs[-1] <= marks["version"]
    assert [m["seq"] for m in moments] == sorted(m["seq"] for m in moments)
    assert {m["kind"] for m in moments} <= set(definition.moment_kinds)
    for mark in (*turns, *moments):
        assert mark["label"].strip(), mark
    for moment in moments:
        before = [t["number"] for t in turns if t["seq"] <= moment["seq"]]
        assert moment["turn"] == (before[-1] if before else None), moment
    # a mark is a position the replay opens
    at = alice.get(f"/games/{game_id}/replay", at=moments[len(moments) // 2]["seq"])
    assert at.status_code == 200 and at.json()["at"] == moments[len(moments) // 2]["seq"]


def move(game_id: uuid.UUID, definition: Any, state: Any, awaiting: Any, n: int) -> None:
    """One awaited seat's bot move (in turn; a seat that passed on a window by hand is
    still awaited until it closes: the next one then, or the window's close)."""
    seats = list(awaiting)
    for seat in seats[n % len(seats) :] + seats[: n % len(seats)]:
        command = definition.bot_command(state, seat, "heuristic", f"marks:{n}")
        if command is None:
            continue
        try:
            game_command_execute(
                game_id=game_id,
                seat=seat,
                actor=f"user:{seat}",
                command=command,
                command_id=uuid.uuid4(),
            )
            return
        except RuleViolation:
            continue
    window = definition.status(state).window
    assert window is not None, "no awaited seat could move"
    game_command_execute(  # every seat left has passed: the window runs out
        game_id=game_id,
        seat=None,
        actor="system",
        command=definition.close_command(window),
        command_id=uuid.uuid4(),
        now=window.deadline,
    )


def twin_marks(game_id: uuid.UUID, viewer: int, seed: str) -> dict[str, Any]:
    """The marks of the game's hidden twin for ``viewer``: what it would be told had what
    it may not know been dealt otherwise."""
    loaded = game_load(game_id=game_id)
    definition = loaded.definition
    rows = events_between(game_id, after=0, upto=None)
    twin = definition.hidden_twin([from_row(definition, r) for r in rows], viewer, seed)
    seen = [
        Seen(row.seq, definition.redact_event(event, viewer))
        for row, event in zip(rows, twin, strict=True)
    ]
    marks = definition.review_marks(seen)
    return {
        "turns": [{"seq": t.seq, "number": t.number, "label": t.label} for t in marks.turns],
        "moments": [(m.seq, m.kind, m.label) for m in marks.moments],
    }


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_marks_during_a_game_name_nothing_hidden_from_it(alice, bob, carol, game) -> None:
    definition = get_game(game)
    players = (alice, bob, carol)[: max(2, definition.min_players)]
    table = create_table(alice, game=game, seats=len(players))
    seat_all(table["id"], *players[1:])
    start(alice, table["id"])
    game_id = uuid.UUID(table["id"])
    checked = 0
    for n in range(160):
        state = game_load(game_id=game_id).state
        status = definition.status(state)
        if status.over:
            break
        move(game_id, definition, state, status.awaiting, n)
        if n not in CHECK_AFTER:
            continue
        for viewer, player in enumerate(players):
            served = player.get(f"/games/{game_id}/marks").json()
            twin = twin_marks(game_id, viewer, f"twin:{n}")
            assert served["turns"] == twin["turns"]
            assert [(m["seq"], m["kind"], m["label"]) for m in served["moments"]] == twin["moments"]
            checked += 1
    assert checked, "the game ended before any check"


def test_a_spectator_of_a_delayed_table_gets_the_marks_it_may_see(alice, bob, carol) -> None:
    table = create_table(alice, game="goofspiel", seats=2, spectator_delay=3)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    game_id = uuid.UUID(table["id"])
    for n in range(6):
        state = game_load(game_id=game_id).state
        seat = get_game("goofspiel").status(state).awaiting[0]
        game_command_execute(
            game_id=game_id,
            seat=seat,
            actor=f"user:{seat}",
            command=get_game("goofspiel").bot_command(state, seat, "heuristic", f"d:{n}"),
            command_id=uuid.uuid4(),
        )
    seen = carol.get(f"/games/{game_id}/marks").json()
    version = game_load(game_id=game_id).version
    assert seen["version"] == version - 3
    assert all(m["seq"] <= version - 3 for m in (*seen["turns"], *seen["moments"]))
    mine = alice.get(f"/games/{game_id}/marks").json()
    assert mine["version"] == version
    assert len(mine["moments"]) > len(seen["moments"])  # a reveal it has not seen yet


def test_marks_of_no_game_and_of_a_table_not_started(alice) -> None:
    missing = alice.get(f"/games/{uuid.uuid4()}/marks")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")
    table = create_table(alice, game="infamy", seats=3)
    early = alice.get(f"/games/{table['id']}/marks")
    assert (early.status_code, early.json()["code"]) == (409, "not_started")


def test_marks_document_is_the_served_one(alice, bob) -> None:
    table = create_table(alice, game="goofspiel", seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    access = access_for(uuid.UUID(table["id"]), bob.user)
    assert bob.get(f"/games/{table['id']}/marks").json() == marks_document(access)


class NamesEveryBid(Goofspiel):
    """A game whose marks would name a sealed bid, had they been given it."""

    def review_marks(self, events: Sequence[Seen]) -> ReviewMarks:
        marks = super().review_marks(events)
        bids = tuple(
            Moment(e.seq, "reveal", f"bid {e.data.get('card')}")
            for e in events
            if e.data.get("type") == "BidPlaced"
        )
        return ReviewMarks(marks.turns, marks.moments + bids)


def test_marks_are_computed_from_what_the_viewer_sees(alice, bob, monkeypatch) -> None:
    """Even a game whose marks would name a sealed bid names none to a seat that may not see
    it (the service gives the game the events redacted for the viewer), though the same
    marks of the events unredacted name it."""
    monkeypatch.setitem(registry.GAMES, "goofspiel", NamesEveryBid())
    table = create_table(alice, game="goofspiel", seats=2)
    seat_all(table["id"], bob)
    start(alice, table["id"])
    game_id = uuid.UUID(table["id"])
    state = game_load(game_id=game_id).state
    move(game_id, get_game("goofspiel"), state, (1,), 0)  # bob's bid, sealed
    served = alice.get(f"/games/{game_id}/marks").json()
    twin = twin_marks(game_id, 0, "twin")
    assert [(m["seq"], m["kind"], m["label"]) for m in served["moments"]] == twin["moments"]
    assert "bid None" in [m["label"] for m in served["moments"]]
    definition = get_game("goofspiel")
    rows = events_between(game_id, after=0, upto=None)
    raw = definition.review_marks(
        [
            Seen(r.seq, definition.redact_event(from_row(definition, r), 0, revealed=True))
            for r in rows
        ]  # fmt: skip
    )
    assert "bid None" not in [m.label for m in raw.moments]  # bob's card, named
