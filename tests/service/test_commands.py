"""The game service on real PostgreSQL: commands are decided, appended, logged, idempotent."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from events.models import CommandRecord, StoredEvent
from games.errors import ServiceError
from games.family_business import RuleViolation
from games.service import close_window, game_read
from tests.service.helpers import cards_of, hand_stack, human_table, run, state

pytestmark = pytest.mark.django_db


def _count(table) -> int:
    return StoredEvent.objects.filter(stream_id=table.id).count()


def test_a_command_appends_its_events_and_logs_who_did_what() -> None:
    table = human_table(3)
    before = state(table)
    card = before.state.players[0].hand[0]
    outcome = run(
        table, 0, {"type": "play", "card": card, "discard": True}, metadata={"request_id": "r-1"}
    )
    rows = outcome.events()
    assert rows[0].seq == before.version + 1 and rows[0].type == "family_business.CardPlayed"
    assert {r.actor for r in rows} == {"user:alice"}
    record = CommandRecord.objects.get(command_id=outcome.command_id)
    assert (record.outcome, record.seat, record.first_seq, record.last_seq) == (
        "accepted",
        0,
        rows[0].seq,
        rows[-1].seq,
    )
    assert record.metadata == {"request_id": "r-1"}
    assert state(table).state.turn_seat == 1


def test_a_refused_command_appends_nothing_and_is_logged_with_its_code() -> None:
    table = human_table(3)
    before = _count(table)
    card = state(table).state.players[1].hand[0]
    command_id = uuid.uuid4()
    with pytest.raises(RuleViolation) as refused:
        run(table, 1, {"type": "play", "card": card, "discard": True}, command_id=command_id)
    assert refused.value.code == "not_your_turn"
    assert _count(table) == before
    record = CommandRecord.objects.get(command_id=command_id)
    assert (record.outcome, record.error_code, record.first_seq) == (
        "refused",
        "not_your_turn",
        None,
    )


@pytest.mark.parametrize(
    "command",
    [
        {"type": "fly"},
        {"type": "play", "card": 7},
        "nonsense",
        {"type": "play", "card": "c01", "bogus": 1},
    ],
)
def test_malformed_commands_are_refused_as_bad_command(command: object) -> None:
    table = human_table(2)
    before = _count(table)
    with pytest.raises(RuleViolation) as refused:
        run(table, 0, command if isinstance(command, dict) else {"type": command})
    assert refused.value.code == "bad_command"
    assert _count(table) == before


def test_a_retried_command_returns_its_first_outcome_and_appends_nothing() -> None:
    table = human_table(3)
    card = state(table).state.players[0].hand[0]
    command = {"type": "play", "card": card, "discard": True}
    command_id = uuid.uuid4()
    first = run(table, 0, command, command_id=command_id)
    count = _count(table)
    again = run(table, 0, command, command_id=command_id)
    assert (again.first_seq, again.last_seq, again.replayed) == (
        first.first_seq,
        first.last_seq,
        True,
    )
    assert _count(table) == count
    assert CommandRecord.objects.filter(command_id=command_id).count() == 1


def test_a_retried_refusal_is_refused_the_same_way() -> None:
    table = human_table(3)
    command_id = uuid.uuid4()
    for _ in range(2):
        with pytest.raises(RuleViolation) as refused:
            run(table, 0, {"type": "play", "card": "c99"}, command_id=command_id)
        assert refused.value.code == "card_not_in_hand"
    assert CommandRecord.objects.filter(command_id=command_id).count() == 1


def test_reusing_a_key_for_another_command_is_refused() -> None:
    table = human_table(3)
    hand = state(table).state.players[0].hand
    command_id = uuid.uuid4()
    run(table, 0, {"type": "play", "card": hand[0], "discard": True}, command_id=command_id)
    with pytest.raises(ServiceError) as refused:
        run(table, 0, {"type": "play", "card": hand[1], "discard": True}, command_id=command_id)
    assert refused.value.code == "idempotency_key_reused"


def test_a_stale_expected_version_is_refused_with_the_current_version() -> None:
    table = human_table(3)
    loaded = state(table)
    card = loaded.state.players[0].hand[0]
    with pytest.raises(ServiceError) as refused:
        run(
            table,
            0,
            {"type": "play", "card": card, "discard": True},
            expected_version=loaded.version - 1,
        )
    assert refused.value.code == "stale_version"
    assert refused.value.data["current_version"] == loaded.version
    run(table, 0, {"type": "play", "card": card, "discard": True}, expected_version=loaded.version)


def _contract_window(players: int, counterers: int, reaction_seconds: int = 10):
    hands = [["CONTRACT"]] + [["FAMILY_INFLUENCE"]] * counterers + [[]] * (players - 1 - counterers)
    table = human_table(players, stacked=hand_stack(*hands), reaction_seconds=reaction_seconds)
    loaded = state(table)
    contract = cards_of("CONTRACT")[0]
    target = loaded.state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": contract, "targets": [target]}, now=1_000)
    window = state(table).state.window
    assert window is not None
    return table, window


@pytest.mark.django_db(transaction=True)
def test_players_countering_at_the_same_instant_exactly_one_counter_is_appended() -> None:
    table, window = _contract_window(players=5, counterers=4)
    fi = cards_of("FAMILY_INFLUENCE")
    barrier = threading.Barrier(4)
    results: dict[int, object] = {}

    def counter(seat: int) -> None:
        try:
            barrier.wait()
            run(
                table,
                seat,
                {"type": "counter", "window": window.id, "card": fi[seat - 1]},
                now=2_000,
            )
            results[seat] = "won"
        except (RuleViolation, ServiceError) as exc:
            results[seat] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=counter, args=(s,)) for s in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [s for s, r in results.items() if r == "won"]
    assert len(winners) == 1
    counters = StoredEvent.objects.filter(stream_id=table.id, type="family_business.CounterPlayed")
    assert counters.count() == 1
    winning_seq = counters.get().seq
    for seat, result in results.items():
        if seat not in winners:
            assert isinstance(result, RuleViolation) and result.code == "window_closed"
            assert result.data["winning_seq"] == winning_seq
    seqs = list(StoredEvent.objects.filter(stream_id=table.id).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # nothing lost, nothing doubled
    assert state(table).state.turn_seat == winners[0]  # the counter's player goes next


def test_a_read_after_the_deadline_closes_the_window_as_the_system() -> None:
    table, window = _contract_window(players=3, counterers=1, reaction_seconds=2)
    assert game_read(game_id=table.id, now=window.deadline - 1).state.window is not None
    loaded = game_read(game_id=table.id, now=window.deadline)
    assert loaded.state.window is None
    closed = StoredEvent.objects.get(stream_id=table.id, type="family_business.WindowClosed")
    assert (closed.actor, closed.payload["reason"]) == ("system", "deadline")


def test_a_late_counter_finds_the_window_closed_by_its_deadline() -> None:
    table, window = _contract_window(players=3, counterers=1, reaction_seconds=2)
    with pytest.raises(RuleViolation) as refused:
        run(
            table,
            1,
            {"type": "counter", "window": window.id, "card": cards_of("FAMILY_INFLUENCE")[0]},
            now=window.deadline + 5,
        )
    assert refused.value.code == "window_closed"
    assert "closed_seq" in refused.value.data
    assert not StoredEvent.objects.filter(
        stream_id=table.id, type="family_business.CounterPlayed"
    ).exists()


def test_closing_a_window_twice_appends_one_close() -> None:
    table, window = _contract_window(players=3, counterers=1, reaction_seconds=2)
    first = close_window(
        game_id=table.id, window_id=window.id, deadline=window.deadline, now=window.deadline
    )
    second = close_window(
        game_id=table.id, window_id=window.id, deadline=window.deadline, now=window.deadline + 10
    )
    assert first is not None and second is not None and second.replayed
    assert (
        StoredEvent.objects.filter(stream_id=table.id, type="family_business.WindowClosed").count()
        == 1
    )


def test_a_window_is_not_closed_before_its_deadline() -> None:
    table, window = _contract_window(players=3, counterers=1, reaction_seconds=5)
    assert (
        close_window(
            game_id=table.id, window_id=window.id, deadline=window.deadline, now=window.deadline - 1
        )
        is None
    )
    assert state(table).state.window is not None
    assert (
        close_window(
            game_id=table.id, window_id=window.id, deadline=window.deadline, now=window.deadline
        )
        is not None
    )
    assert state(table).state.window is None
