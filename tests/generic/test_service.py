"""The service's generic behaviour, for every registered game (parametrized): commands,
idempotency, refusals, bots, the turn clock over simultaneous steps, undo, the record.

Each test asks the game only through ``games.core.Game``; no test knows a game's cards."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from events.models import CommandRecord, StoredEvent
from games import takeback
from games.core import ALL, RuleViolation
from games.errors import ServiceError
from games.models import GameClock, Table, TakebackRequest
from games.record import game_export
from games.registry import get_game
from games.service import game_undo, turn_timeout
from games.verify import verify_record
from tests.generic.helpers import GAMES, a_move, awaited, find_move, loaded, play, started

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", GAMES)
def test_a_command_is_appended_once_and_a_retry_gets_its_first_answer(game) -> None:
    table = started(game)
    seat = awaited(table)[0]
    command = a_move(table, seat)
    key = uuid.uuid4()
    first = play(table, seat, command, command_id=key)
    assert first.first_seq > 0 and not first.replayed
    again = play(table, seat, command, command_id=key)
    assert (again.first_seq, again.last_seq, again.replayed) == (
        first.first_seq,
        first.last_seq,
        True,
    )
    assert loaded(table).version == first.last_seq


@pytest.mark.parametrize("game", GAMES)
def test_a_malformed_command_is_refused_logged_and_refused_again(game) -> None:
    table = started(game)
    seat = awaited(table)[0]
    key = uuid.uuid4()
    with pytest.raises(RuleViolation) as refused:
        play(table, seat, {"type": "no-such-command"}, command_id=key)
    assert refused.value.code == "bad_command"
    with pytest.raises(RuleViolation) as again:
        play(table, seat, {"type": "no-such-command"}, command_id=key)
    assert again.value.code == "bad_command" and getattr(again.value, "replayed", False)
    record = CommandRecord.objects.get(stream_id=table.id, command_id=key)
    assert record.outcome == CommandRecord.REFUSED
    assert loaded(table).version == loaded(table).version  # nothing appended
    assert not CommandRecord.objects.filter(stream_id=table.id, outcome="accepted").exclude(
        command__type="start"
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_command_with_a_nul_character_is_refused_and_logged_as_a_summary(game) -> None:
    """PostgreSQL's JSON holds no NUL: such a command is no game's, and logging it whole
    failed (a 500 over the API)."""
    table = started(game)
    seat = awaited(table)[0]
    move = a_move(table, seat)
    version = loaded(table).version
    nul_typed = {**move, "type": f"{move['type']}\x00"}
    for command in ({**move, "x\x00": 1}, {**move, "x": "\x00"}, nul_typed):
        key = uuid.uuid4()
        with pytest.raises(ServiceError) as refused:
            play(table, seat, command, command_id=key)
        assert refused.value.code == "bad_command", command
        record = CommandRecord.objects.get(stream_id=table.id, command_id=key)
        assert record.outcome == CommandRecord.REFUSED and "_summary" in record.command
        with pytest.raises(ServiceError) as again:
            play(table, seat, command, command_id=key)
        assert again.value.code == "bad_command" and getattr(again.value, "replayed", False)
    assert loaded(table).version == version


@pytest.mark.parametrize("game", GAMES)
def test_bots_play_a_game_to_its_end_and_the_record_verifies(game) -> None:
    table = started(game, humans=0, bots=2, seed=f"bots-{game}")
    table.refresh_from_db()
    game_now = loaded(table)
    status = game_now.definition.status(game_now.state)
    assert table.status == Table.Status.FINISHED and status.over and status.winners
    report = verify_record(game_export(table))
    assert report.ok, report.problems


@pytest.mark.parametrize("game", GAMES)
def test_a_turn_timeout_plays_for_every_human_seat_the_step_awaits(game) -> None:
    table = started(game, humans=2, turn_seconds=30)
    waiting = awaited(table)
    clock = GameClock.objects.get(game=table)
    assert clock.turn_key and clock.turn_deadline_ms
    assert turn_timeout(game_id=table.id, key=clock.turn_key, deadline=clock.turn_deadline_ms, now=clock.turn_deadline_ms - 1) is None  # fmt: skip
    outcome = turn_timeout(
        game_id=table.id, key=clock.turn_key, deadline=clock.turn_deadline_ms, now=clock.turn_deadline_ms
    )  # fmt: skip
    assert outcome is not None
    timed_out = CommandRecord.objects.filter(
        stream_id=table.id, actor="system", metadata__timeout=True, outcome="accepted"
    )
    assert sorted(r.seat for r in timed_out) == sorted(waiting)  # each awaited seat, once
    game_now = loaded(table)
    assert game_now.definition.status(game_now.state).step_key != clock.turn_key
    # a duplicate timer plays nothing more
    turn_timeout(game_id=table.id, key=clock.turn_key, deadline=clock.turn_deadline_ms, now=clock.turn_deadline_ms)  # fmt: skip
    assert timed_out.count() == len(waiting)


@pytest.mark.parametrize("game", GAMES)
def test_one_seat_of_a_step_acting_keeps_the_steps_turn_deadline(game) -> None:
    table = started(game, humans=2, turn_seconds=30)
    before = GameClock.objects.get(game=table)
    waiting = awaited(table)
    play(table, waiting[0], a_move(table, waiting[0]))
    after = GameClock.objects.get(game=table)
    if len(waiting) > 1:  # a simultaneous step: the same step, the same deadline
        assert (after.turn_key, after.turn_deadline_ms) == (
            before.turn_key,
            before.turn_deadline_ms,
        )
    else:  # a step of one seat: the next step has its own clock
        assert after.turn_key != before.turn_key


def take_back(table: Table, seat: int) -> None:
    """``seat``'s undo as a person asks for it: at once, or a takeback request that every
    seat it asks accepts (games.takeback)."""
    outcome = takeback.undo_or_request(
        game_id=table.id, seat=seat, actor=f"user:{seat}", command_id=uuid.uuid4()
    )
    if isinstance(outcome, TakebackRequest):
        for responder in outcome.responders:
            takeback.answer(game_id=table.id, request_id=outcome.id, seat=responder, accept=True)
        assert TakebackRequest.objects.get(id=outcome.id).state == "accepted"


def quiet_first_move(game: str) -> tuple[Table, int, dict[str, Any]]:
    """A new table of two people, its first awaited seat and a move of that seat that
    reveals nothing. Whether the deal offers one is chance (a Family Business hand may
    hold only cards whose play makes the next seat draw), so a few deals are tried; a
    game whose first move always shows something (a plan laid out face up) offers its
    quiet one a move or two later, so the first revealing moves are played."""
    for _ in range(10):
        table = started(game, humans=2)
        for _ in range(3):
            seat = awaited(table)[0]
            try:
                return table, seat, find_move(table, seat, revealing=False)
            except AssertionError:
                play(table, seat, find_move(table, seat, revealing=True))
    pytest.fail("no deal in ten offered a quiet move among its first moves")


@pytest.mark.parametrize("game", GAMES)
def test_a_command_that_revealed_nothing_can_be_undone(game) -> None:
    table, seat, move = quiet_first_move(game)
    before = loaded(table)
    play(table, seat, move)
    take_back(table, seat)
    assert loaded(table).state == before.state


@pytest.mark.parametrize("game", GAMES)
def test_an_undo_that_concerns_another_person_needs_their_consent(game) -> None:
    table, seat, move = quiet_first_move(game)
    simultaneous = len(awaited(table)) > 1
    before = loaded(table)
    play(table, seat, move)
    if not takeback.responders(table, seat):
        # one seat's part of a simultaneous step, or a move that opened a reaction window
        # (the turn stays), passes the turn to nobody and shows nothing: taken back at
        # once, nobody asked
        # or a move inside the seat's own turn (it is still the one awaited)
        after = loaded(table)
        status = after.definition.status(after.state)
        still = status.awaiting == (seat,)
        assert simultaneous or status.window is not None or still, (
            "a move that passed the turn asked nobody"
        )
        game_undo(game_id=table.id, seat=seat, actor=f"user:{seat}", command_id=uuid.uuid4())
        assert loaded(table).state == before.state
        return
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=seat, actor=f"user:{seat}", command_id=uuid.uuid4())
    assert refused.value.code == "takeback_needed"


@pytest.mark.parametrize("game", GAMES)
def test_a_command_that_revealed_hidden_information_is_undone_only_by_a_reshuffle(game) -> None:
    """A command that showed another seat cards is taken back only in a game that puts
    them back in a new order from a fresh seed (``Game.undo_across_reveals``); never one
    that showed the seat itself or every seat something."""
    table = started(game, humans=2)
    definition = get_game(game)
    for _ in range(60):  # Infamy reveals nothing before its first sealed step is complete
        seat = awaited(table)[0]
        try:
            command = find_move(table, seat, revealing=True, tries=40)
        except AssertionError:
            play(table, seat, find_move(table, seat, revealing=False))
            continue
        play(table, seat, command)
        last = loaded(table).last_command
        assert last is not None
        others_only = last.revealed_to != ALL and seat not in last.revealed_to
        if definition.undo_across_reveals and others_only:
            take_back(table, seat)
            marker = StoredEvent.objects.filter(stream_id=table.id, type="stream.Undone").get()
            assert marker.payload["reshuffle_seed_hash"]
            assert len(Table.objects.get(id=table.id).reseeds) == 1
            report = verify_record(game_export(Table.objects.get(id=table.id)))
            assert report.ok, report.problems
            return
        with pytest.raises(ServiceError) as refused:
            game_undo(game_id=table.id, seat=seat, actor=f"user:{seat}", command_id=uuid.uuid4())
        assert refused.value.code in ("undo_reveals_cards", "undo_after_reveal")
        return
    pytest.fail("no revealing command came up in sixty steps")


@pytest.mark.parametrize("game", GAMES)
def test_table_options_are_the_games_to_validate(game) -> None:
    with pytest.raises(ServiceError) as refused:
        started(game, options={"no_such_option": 1})
    assert (refused.value.code, refused.value.data["field"]) == ("bad_options", "no_such_option")
