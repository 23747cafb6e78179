"""The clock projection, what the service schedules after commit, the tasks' early-run and
idempotency guards, and the sweeper: in-process, with no worker (sending is recorded)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from events.models import CommandRecord, StoredEvent
from games import clock, tasks
from games.errors import ServiceError
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import GameClock, Table
from games.service import game_undo, step_key
from tests.factories import UserFactory
from tests.service.helpers import cards_of, hand_stack, human_table, run, state

pytestmark = pytest.mark.django_db

CLOSED = "family_business.WindowClosed"


@pytest.fixture
def sent(monkeypatch, settings) -> list[tuple[str, list[Any], float]]:
    """Tasks the service schedules (after commit) and the tasks re-schedule, recorded
    instead of sent."""
    settings.FB_SCHEDULE_TASKS = True
    settings.FB_BOTS_INLINE = False
    settings.FB_BOT_THINK_SECONDS = 0.5
    calls: list[tuple[str, list[Any], float]] = []

    def record(name: str, args: list[Any], delay: float = 0.0) -> None:
        calls.append((name, args, delay))

    monkeypatch.setattr(clock, "_scheduler", record)  # what the service sends
    monkeypatch.setattr(tasks, "schedule", record)  # what a task re-sends itself
    return calls


def contract(table: Table, now: int) -> Any:
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]}, now=now)
    return state(table).state.window


def window_table(reaction_seconds: int = 2, people: int = 3) -> Table:
    """alice's CONTRACT, bob's FAMILY INFLUENCE; ``people`` < 3: the other seats are bots
    (whose passes are events that can end a window: the tests make their moves by hand)."""
    stacked = hand_stack(["CONTRACT"], ["FAMILY_INFLUENCE"], [])
    return human_table(people, bots=3 - people, stacked=stacked, reaction_seconds=reaction_seconds)


@pytest.fixture
def bots_by_hand(settings) -> None:
    settings.FB_BOTS_INLINE = False


@pytest.mark.usefixtures("bots_by_hand")
@pytest.mark.parametrize(("people", "by_hand"), [(3, True), (3, False), (1, True)])
def test_the_clock_follows_the_window_in_the_appending_transaction(
    people: int, by_hand: bool
) -> None:
    table = window_table(people=people)
    assert GameClock.objects.get(game=table).window_deadline_ms is None
    window = contract(table, now=1_000_000)
    clock = GameClock.objects.get(game=table)
    assert (clock.window_id, clock.window_deadline_ms) == (window.id, 1_002_000)
    assert clock.version == state(table).version
    # by hand: public passes that close the window; else as standing reactions make them
    meta = None if by_hand else {"origin": "standing", "reason": "pass_all"}
    run(table, 1, {"type": "pass", "window": window.id}, now=1_000_500, metadata=meta)
    run(table, 2, {"type": "pass", "window": window.id}, now=1_000_600, metadata=meta)
    clock.refresh_from_db()
    if not by_hand:  # sealed passes: the window runs to its deadline, and so does the clock
        assert (clock.window_id, clock.window_deadline_ms) == (window.id, 1_002_000)
        tasks.close_window(str(table.id), window.id, window.deadline)
        clock.refresh_from_db()
    assert (clock.window_id, clock.window_deadline_ms) == ("", None)  # all passed: closed
    if people > 1:  # bob's turn (a person's, untimed)
        assert clock.turn_key == step_key(state(table)) and clock.turn_deadline_ms is None
    else:  # the bot in bob's seat is due to move
        assert clock.bot_due_ms is not None and clock.turn_deadline_ms is None


def test_opening_a_window_schedules_its_close_after_commit(
    sent, django_capture_on_commit_callbacks
) -> None:
    table = window_table()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        window = contract(table, now=5_000)
    assert len(callbacks) == 1
    # and the seats' standing reactions: sent for every window, whatever the hands hold
    assert sent == [
        ("close_window", [str(table.id), window.id, 7_000], 0.0),
        ("standing_react", [str(table.id), window.id], 0.0),
    ]


def test_nothing_is_sent_before_the_commit(sent, django_capture_on_commit_callbacks) -> None:
    table = window_table()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        contract(table, now=5_000)
    assert sent == [] and len(callbacks) == 1


def test_a_bot_turn_schedules_one_bot_move_at_its_version(
    sent, django_capture_on_commit_callbacks
) -> None:
    table = table_create(created_by=None, seats=2)
    seat_add_bot(table_id=table.id, bot="heuristic")
    seat_add_bot(table_id=table.id, bot="random")
    with django_capture_on_commit_callbacks(execute=True):
        table_start(table_id=table.id)  # not inline: returns before any bot moved
    version = state(table).version
    assert sent == [("bot_move", [str(table.id), version], 0.5)]
    assert GameClock.objects.get(game=table).bot_due_ms is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_move(str(table.id), version - 1) == "no move"  # stale: ignored
        assert tasks.bot_move(str(table.id), version) == "moved"
        assert tasks.bot_move(str(table.id), version) == "no move"  # a duplicate
    assert state(table).version > version
    assert sent[-1] == ("bot_move", [str(table.id), state(table).version], 0.5)


def test_inline_bots_schedule_no_bot_moves(sent, settings) -> None:
    settings.FB_BOTS_INLINE = True
    table = table_create(created_by=None, seats=2, mode="sandbox", seed="inline")
    for _ in range(2):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert not [s for s in sent if s[0] == "bot_move"]


def test_a_close_task_that_runs_early_reschedules_itself(sent) -> None:
    table = window_table()
    window = contract(table, now=tasks.service.clock_ms())
    result = tasks.close_window(str(table.id), window.id, window.deadline)
    assert result == "early: re-scheduled"
    assert sent[-1] == ("close_window", [str(table.id), window.id, window.deadline], 0.0)
    assert state(table).state.window is not None


def test_a_close_task_closes_once_then_reports_it() -> None:
    table = window_table()
    window = contract(table, now=1_000)
    args = (str(table.id), window.id, window.deadline)
    assert tasks.close_window(*args) == "closed"
    assert tasks.close_window(*args) == "replayed"
    closed = StoredEvent.objects.get(stream_id=table.id, type=CLOSED)
    assert closed.metadata["by"] == "task"
    assert tasks.close_window(str(uuid.uuid4()), "w1", 1).startswith("failed")


@pytest.mark.usefixtures("bots_by_hand")
@pytest.mark.parametrize("ending", ["all passed", "countered"])
def test_a_close_for_a_window_that_ended_early_records_nothing(ending: str) -> None:
    # one person and bots: passes are events, and all passed ends the window early
    table = window_table(people=1)
    window = contract(table, now=1_000)
    if ending == "all passed":
        run(table, 1, {"type": "pass", "window": window.id}, now=1_500)
        run(table, 2, {"type": "pass", "window": window.id}, now=1_600)
    else:
        card = cards_of("FAMILY_INFLUENCE")[0]
        run(table, 1, {"type": "counter", "window": window.id, "card": card}, now=1_500)
    assert state(table).state.window is None or state(table).state.window.id != window.id
    records = CommandRecord.objects.filter(stream_id=table.id)
    before = (records.count(), state(table).version)
    args = (str(table.id), window.id, window.deadline)
    assert tasks.close_window(*args) == "already closed"
    assert tasks.close_window(*args) == "already closed"  # still idempotent
    assert (records.count(), state(table).version) == before
    assert not records.filter(outcome=CommandRecord.REFUSED).exists()


def test_a_retried_command_sends_again_what_the_game_waits_for(
    sent, settings, django_capture_on_commit_callbacks
) -> None:
    table = window_table()
    target = state(table).state.players[1].crew[0]
    play = {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]}
    key = uuid.uuid4()
    settings.FB_SCHEDULE_TASKS = False  # the web process dies after the commit, unsent
    run(table, 0, play, command_id=key, now=5_000)
    settings.FB_SCHEDULE_TASKS = True
    with django_capture_on_commit_callbacks(execute=True):
        retried = run(table, 0, play, command_id=key, now=5_300)  # the client's retry
    window = state(table).state.window
    assert retried.replayed and window is not None
    assert sent == [("close_window", [str(table.id), window.id, 7_000], 0.0)]
    # a timer's own replay sends nothing (a duplicate must not keep duplicates alive)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.close_window(str(table.id), window.id, 7_000) == "closed"
        assert tasks.close_window(str(table.id), window.id, 7_000) == "replayed"
    assert len(sent) == 1


def test_the_sweeper_waits_for_the_grace_then_closes(settings) -> None:
    settings.FB_SWEEP_GRACE_SECONDS = 1.0
    table = window_table()
    window = contract(table, now=10_000)
    assert tasks.sweep_once(now=window.deadline + 999)["windows"] == 0
    assert state(table).state.window is not None
    assert tasks.sweep_once(now=window.deadline + 1_001)["windows"] == 1
    closed = StoredEvent.objects.get(stream_id=table.id, type=CLOSED)
    assert (closed.payload["reason"], closed.metadata["by"]) == ("deadline", "sweeper")
    assert tasks.sweep_once(now=window.deadline + 5_000)["windows"] == 0


def test_the_sweeper_forgets_a_stale_row_instead_of_retrying_it(settings) -> None:
    table = window_table()
    window = contract(table, now=10_000)
    GameClock.objects.filter(game=table).update(window_id="w99")  # stale projection
    assert tasks.sweep_once(now=window.deadline + 5_000)["windows"] == 0
    assert GameClock.objects.get(game=table).window_deadline_ms is None


def timed_table(action: str, turn_seconds: int = 30) -> Table:
    table = table_create(
        created_by=None, seats=2, turn_seconds=turn_seconds, turn_action=action, undo="own_last"
    )
    for name in ("alice", "bob"):
        seat_join(table_id=table.id, user=UserFactory(username=name))
    return table_start(table_id=table.id)


@pytest.mark.parametrize("action", ["discard", "bot"])
def test_a_turn_past_its_deadline_is_played_by_the_system(action: str, sent) -> None:
    table = timed_table(action)
    clock = GameClock.objects.get(game=table)
    assert clock.turn_key == step_key(state(table))
    deadline = clock.turn_deadline_ms
    assert deadline is not None
    assert tasks.sweep_once(now=deadline + 500)["turns"] == 0  # within the grace
    assert tasks.turn_timeout(str(table.id), clock.turn_key, deadline + 10**9).startswith("early")
    assert tasks.sweep_once(now=deadline + 1_500)["turns"] == 1
    record = CommandRecord.objects.get(stream_id=table.id, metadata__timeout=True)
    assert (record.actor, record.seat, record.metadata["by"]) == ("system", 0, "sweeper")
    if action == "discard":
        assert record.command["discard"] is True
    # the same turn cannot time out twice
    again = tasks.service.turn_timeout(
        game_id=table.id, key=clock.turn_key, deadline=deadline, now=deadline + 2_000
    )
    assert again is None
    # and a timeout is not the seat's to take back
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4())
    assert refused.value.code == "nothing_to_undo"


def test_a_discarding_timeout_keeps_the_counters_when_another_card_could_go(sent) -> None:
    stacked = hand_stack(["FAMILY_INFLUENCE", "MOB_POWER", "TRUCE"], [])
    table = table_create(
        created_by=None,
        seats=2,
        mode="sandbox",
        seed="timeout-counters",
        stacked_deck=stacked,
        turn_seconds=30,
        turn_action="discard",
    )
    for name in ("alice", "bob"):
        seat_join(table_id=table.id, user=UserFactory(username=name))
    table = table_start(table_id=table.id)
    hand = state(table).state.players[0].hand
    assert hand[:2] == (cards_of("FAMILY_INFLUENCE")[0], cards_of("MOB_POWER")[0])
    clock = GameClock.objects.get(game=table)
    assert clock.turn_deadline_ms is not None
    tasks.service.turn_timeout(
        game_id=table.id,
        key=clock.turn_key,
        deadline=clock.turn_deadline_ms,
        now=clock.turn_deadline_ms,
    )
    record = CommandRecord.objects.get(stream_id=table.id, metadata__timeout=True)
    assert record.command == {"type": "play", "card": cards_of("TRUCE")[0], "discard": True}
    kept = state(table).state.players[0].hand
    assert cards_of("FAMILY_INFLUENCE")[0] in kept and cards_of("MOB_POWER")[0] in kept


def test_a_new_turn_gets_a_new_deadline_the_same_turn_keeps_its_own(sent) -> None:
    table = timed_table("discard", turn_seconds=30)
    first = GameClock.objects.get(game=table)
    hand = state(table).state.players[0].hand
    run(table, 0, {"type": "play", "card": hand[0], "discard": True}, now=first.turn_deadline_ms)
    second = GameClock.objects.get(game=table)
    assert second.turn_key != first.turn_key
    assert second.turn_deadline_ms == first.turn_deadline_ms + 30_000
    run(table, 0, {"type": "resign"}, now=second.turn_deadline_ms - 1)  # game over
    over = GameClock.objects.get(game=table)
    assert (over.turn_deadline_ms, over.window_deadline_ms, over.bot_due_ms) == (None, None, None)


def test_turn_deadlines_are_off_unless_asked_for() -> None:
    table = human_table(2)
    assert table.turn_seconds == 0
    assert GameClock.objects.get(game=table).turn_deadline_ms is None


@pytest.mark.parametrize(
    ("options", "field"),
    [({"turn_seconds": -1}, "turn_seconds"), ({"turn_seconds": 601}, "turn_seconds"),
     ({"turn_action": "sleep"}, "turn_action")],
)  # fmt: skip
def test_table_create_checks_the_turn_options(options: dict[str, Any], field: str) -> None:
    with pytest.raises(ServiceError) as refused:
        table_create(created_by=None, **options)
    assert (refused.value.code, refused.value.data["field"]) == ("bad_options", field)
