"""The per-process caches (``games.cache``) and the command path built on them, on real
PostgreSQL: a cached fold is only ever a shortcut to the answer a full replay gives; a
cached table's status follows the database until it is finished; and the undo check that
reads the loaded events answers as the one that reads the command log."""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import CommandRecord, Snapshot, StoredEvent
from events.store import UNDONE, read, undone_seqs
from games import cache
from games.errors import ServiceError
from games.family_business import replay
from games.family_business.bots import RandomBot
from games.family_business.errors import RuleViolation
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import GameClock, Table
from games.record import game_export
from games.registry import get_game
from games.selectors import table_detail, undo_check
from games.service import (
    LoadedGame,
    bot_move,
    bot_seats,
    close_window,
    from_row,
    game_command_execute,
    game_load,
    game_undo,
    table_get,
    turn_timeout,
)
from games.verify import verify_record
from tests.factories import UserFactory
from tests.service.helpers import CAST, contract_first, hand_stack, human_table, state
from tests.windows import run_out, to_answer

pytestmark = pytest.mark.django_db


def full_replay(table: Table) -> Any:
    """The state from every stored event, skipping undone ranges: no cache, no snapshot."""
    rows = read(table.id)
    skipped = undone_seqs(rows)
    definition = get_game(table.game)
    return replay(from_row(definition, r) for r in rows if r.seq not in skipped)


def assert_true_state(loaded: LoadedGame, table: Table) -> None:
    """``loaded`` is the stream as stored now: its state, version and last hash."""
    full = game_load(game_id=table.id, use_snapshots=False)
    last = StoredEvent.objects.filter(stream_id=table.id).order_by("-seq").first()
    assert last is not None
    assert (loaded.version, loaded.last_hash) == (last.seq, last.hash)
    assert (full.version, full.last_hash) == (last.seq, last.hash)
    assert loaded.state == full.state == full_replay(table)


def play(game: Table, seat: int | None, command: dict[str, Any], **kw: Any) -> Any:
    """``tests.service.helpers.run``, but ``table=`` (with its seats) may be passed on."""
    return game_command_execute(
        game_id=game.id,
        seat=seat,
        actor="system" if seat is None else f"user:{CAST[seat]}",
        command=command,
        command_id=kw.pop("command_id", uuid.uuid4()),
        **kw,
    )


def discard_first(game: Table, loaded: LoadedGame | None = None, **kw: Any) -> Any:
    """The seat whose turn it is discards its first card (a command that opens no window)."""
    loaded = loaded or state(game)
    seat = loaded.state.turn_seat
    card = loaded.state.players[seat].hand[0]
    return play(game, seat, {"type": "play", "card": card, "discard": True}, **kw)


# --- the game cache -----------------------------------------------------------------------


def test_lru_keeps_the_most_recently_used_and_size_zero_keeps_nothing() -> None:
    lru: cache.Lru[str] = cache.Lru(2)
    lru.put("a", "A")
    lru.put("b", "B")
    assert lru.get("a") == "A"  # now "b" is the least recently used
    lru.put("c", "C")
    assert (lru.get("a"), lru.get("b"), lru.get("c"), len(lru)) == ("A", None, "C", 2)
    lru.discard("a")
    lru.discard("nothing")
    assert (lru.get("a"), len(lru)) == (None, 1)
    off: cache.Lru[str] = cache.Lru(0)
    off.put("a", "A")
    assert (off.get("a"), len(off)) == (None, 0)


def test_a_cached_game_costs_one_query_and_is_the_true_state() -> None:
    table = human_table(3)
    discard_first(table)
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        first = game_load(game_id=table.id, table=table)
    assert len(cold) >= 1
    assert cache.games.get(table.id) is not None
    with CaptureQueriesContext(connection) as warm:
        again = game_load(game_id=table.id, table=table)
    assert len(warm) == 1 <= len(cold)  # warm: only the tail after the cached version
    assert again.state is first.state  # from the cache, not re-folded
    assert_true_state(again, table)


@pytest.mark.parametrize("forgery", ["wrong_hash", "ahead_of_the_stream", "older_wrong_hash"])
def test_a_cached_game_whose_stream_differs_is_dropped_and_reloaded(forgery: str) -> None:
    table = human_table(3)
    early = state(table)
    for _ in range(3):
        discard_first(table)
    true = game_load(game_id=table.id, use_snapshots=False)
    assert true.state != early.state
    forged = {
        # the right version but another stream's hash (and another state)
        "wrong_hash": replace(true, state=early.state, last_hash="f" * 64),
        # a version the stream never reached (a rolled-back transaction cached it)
        "ahead_of_the_stream": replace(true, state=early.state, version=true.version + 4),
        # an older version whose event is not the one it folded
        "older_wrong_hash": replace(early, last_hash="e" * 64),
    }[forgery]
    cache.games.put(table.id, forged)
    loaded = game_load(game_id=table.id)
    assert loaded.state == true.state and loaded.version == true.version
    assert_true_state(loaded, table)
    kept = cache.games.get(table.id)
    assert kept is not None and kept.last_hash == true.last_hash  # the forgery is gone
    # and the game plays on from the true state
    discard_first(table)
    assert_true_state(game_load(game_id=table.id), table)


def test_the_cache_is_what_answers_a_load_when_the_hash_matches() -> None:
    """The control for the test above: the cache really is what answers (so a wrong hash is
    the only thing that could have made those loads re-read the stream)."""
    table = human_table(2)
    true = state(table)
    marked = replace(true, state=replace(true.state, turn=true.state.turn + 1000))
    cache.games.put(table.id, marked)
    assert game_load(game_id=table.id).state.turn == true.state.turn + 1000
    assert game_load(game_id=table.id, use_snapshots=False).state == true.state
    cache.games.discard(table.id)


def test_a_cached_game_is_extended_by_events_another_process_appended(settings) -> None:
    settings.FB_SNAPSHOT_EVERY = 4
    table = human_table(3)
    discard_first(table)
    ours = state(table)  # what this process folded and cached
    # "another process" plays on: its commands update its own cache, not ours
    for _ in range(5):
        discard_first(table)
    cache.games.put(table.id, ours)
    with CaptureQueriesContext(connection) as queries:
        loaded = game_load(game_id=table.id, table=table)
    assert len(queries) == 1  # extended from ours by one read of the tail
    assert loaded.version > ours.version
    assert_true_state(loaded, table)
    full = game_load(game_id=table.id, use_snapshots=False)
    assert loaded.last_command == full.last_command is not None
    assert cache.games.get(table.id).version == loaded.version


def test_an_undo_after_caching_gives_the_state_of_a_full_replay() -> None:
    table = human_table(3, stacked=hand_stack(["CONTRACT"], ["CONTRACT"]), undoable=True)
    discard_first(table)
    before = state(table)
    played = contract_first(table)  # bob's: a window opens, nobody draws
    after_play = state(table)
    assert after_play.version == played.last_seq
    game_undo(
        game_id=table.id, seat=before.state.turn_seat, actor="user:x", command_id=uuid.uuid4()
    )
    for stale in (before, after_play):  # either fold this process may still hold
        cache.games.put(table.id, stale)
        loaded = game_load(game_id=table.id)
        assert loaded.state == before.state
        assert StoredEvent.objects.get(stream_id=table.id, seq=loaded.version).type == UNDONE
        assert loaded.last_command is not None and loaded.last_command.undo
        assert_true_state(loaded, table)
    # the game goes on from the undone state; a command after the undo extends the cache
    cache.games.put(table.id, after_play)
    contract_first(table)
    assert_true_state(game_load(game_id=table.id), table)


def test_with_the_caches_off_nothing_is_kept_and_every_answer_is_the_same(monkeypatch) -> None:
    monkeypatch.setattr(cache, "games", cache.Lru(0))
    monkeypatch.setattr(cache, "tables", cache.Lru(0))
    table = human_table(
        3, stacked=hand_stack(["CONTRACT"], ["CONTRACT", "CONTRACT"]), undoable=True
    )
    for _ in range(4):
        discard_first(table, table=table_detail(table.id))
        assert_true_state(state(table), table)
    contract_first(table)  # bob's: it may be undone
    last = CommandRecord.objects.filter(stream_id=table.id).order_by("-last_seq").first()
    game_undo(game_id=table.id, seat=last.seat, actor="user:x", command_id=uuid.uuid4())
    assert StoredEvent.objects.filter(stream_id=table.id, type=UNDONE).count() == 1
    assert_true_state(state(table), table)
    assert len(cache.games) == 0 and len(cache.tables) == 0


@pytest.mark.django_db(transaction=True)
def test_loads_racing_commands_in_other_threads_are_always_a_true_prefix(settings) -> None:
    """Commands on one thread, cached loads on others (separate connections, one cache):
    every load is exactly the replay of the stream up to the version it reports."""
    settings.FB_SNAPSHOT_EVERY = 5
    table = human_table(2)
    stop = threading.Event()
    problems: list[str] = []
    seen: list[int] = []

    def reader() -> None:
        try:
            while not stop.is_set():
                loaded = game_load(game_id=table.id)
                seen.append(loaded.version)
                at = game_load(game_id=table.id, upto=loaded.version, use_snapshots=False)
                if at.state != loaded.state:
                    problems.append(f"state at {loaded.version} differs")
        except Exception as exc:  # pragma: no cover - reported below
            problems.append(repr(exc))
        finally:
            connection.close()

    readers = [threading.Thread(target=reader) for _ in range(3)]
    for t in readers:
        t.start()
    try:
        for _ in range(30):
            loaded = state(table)
            if loaded.state.over:
                break
            discard_first(table, loaded)
    finally:
        stop.set()
        for t in readers:
            t.join()
    assert not problems, problems[:5]
    assert len(set(seen)) > 3  # the readers saw the game move
    assert_true_state(game_load(game_id=table.id), table)


# --- the one-statement command path under races -----------------------------------------


def _race(workers: int, work) -> dict[int, Any]:
    barrier = threading.Barrier(workers)
    results: dict[int, Any] = {}

    def worker(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_one_seat_sending_different_commands_at_once_gets_exactly_one_in() -> None:
    table = human_table(3)
    loaded = state(table)
    seat = loaded.state.turn_seat
    hand = loaded.state.players[seat].hand
    results = _race(
        4,
        lambda i: play(table, seat, {"type": "play", "card": hand[i], "discard": True}),
    )
    won = [r for r in results.values() if not isinstance(r, Exception)]
    lost = [r for r in results.values() if isinstance(r, Exception)]
    assert len(won) == 1, results
    assert all(isinstance(e, RuleViolation) and e.code == "not_your_turn" for e in lost), lost
    assert won[0].first_seq == loaded.version + 1
    seqs = list(StoredEvent.objects.filter(stream_id=table.id).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, won[0].last_seq + 1))
    assert GameClock.objects.get(game_id=table.id).version == won[0].last_seq
    assert CommandRecord.objects.filter(stream_id=table.id, outcome="accepted").count() == 2
    assert_true_state(game_load(game_id=table.id), table)


@pytest.mark.django_db(transaction=True)
def test_one_command_sent_several_times_at_once_lands_once_and_all_hear_the_same() -> None:
    table = human_table(3)
    loaded = state(table)
    seat = loaded.state.turn_seat
    command = {"type": "play", "card": loaded.state.players[seat].hand[0], "discard": True}
    command_id = uuid.uuid4()
    results = _race(5, lambda i: play(table, seat, command, command_id=command_id))
    assert not [r for r in results.values() if isinstance(r, Exception)], results
    assert {(r.first_seq, r.last_seq) for r in results.values()} == {
        (loaded.version + 1, results[0].last_seq)
    }
    assert sorted(r.replayed for r in results.values()) == [False] + [True] * 4
    assert CommandRecord.objects.filter(stream_id=table.id, command_id=command_id).count() == 1
    assert (
        StoredEvent.objects.filter(stream_id=table.id, command_id=command_id).count()
        == results[0].last_seq - loaded.version
    )
    assert GameClock.objects.get(game_id=table.id).version == results[0].last_seq
    assert_true_state(game_load(game_id=table.id), table)


# --- the table cache ----------------------------------------------------------------------


def test_open_tables_are_not_cached_and_show_who_joins() -> None:
    table = table_create(created_by=None, seats=2)
    assert [s.position for s in table_detail(table.id).seat_set.all()] == []
    assert cache.tables.get(table.id) is None
    seat_join(table_id=table.id, user=UserFactory(username="alice"))
    assert [s.position for s in table_detail(table.id).seat_set.all()] == [0]
    assert cache.tables.get(table.id) is None
    seat_join(table_id=table.id, user=UserFactory(username="bob"))
    table_start(table_id=table.id)
    started = table_detail(table.id)
    assert started.status == Table.Status.STARTED
    assert cache.tables.get(table.id) is started
    assert [s.user.username for s in started.seat_set.all()] == ["alice", "bob"]


def test_a_cached_table_is_the_table_and_seats_the_orm_reads() -> None:
    for table in (human_table(2, stacked=hand_stack(["CONTRACT"])), human_table(2, bots=1)):
        cached = table_detail(table.id)
        assert cache.tables.get(table.id) is cached
        fresh = Table.objects.get(id=table.id)
        for field in Table._meta.concrete_fields:
            assert getattr(cached, field.attname) == getattr(fresh, field.attname), field.name
        seats = list(fresh.seat_set.select_related("user").order_by("position"))
        assert len(cached.seat_set.all()) == len(seats) == table.seats
        for mine, theirs in zip(cached.seat_set.all(), seats, strict=True):
            for field in type(theirs)._meta.concrete_fields:
                assert getattr(mine, field.attname) == getattr(theirs, field.attname), field.name
            assert mine.display_name == theirs.display_name
        assert bot_seats(cached) == bot_seats(fresh)


def test_a_cached_started_table_is_seen_finished_once_the_row_says_so() -> None:
    table = human_table(2)
    cached = table_detail(table.id)
    assert cached.status == Table.Status.STARTED
    with CaptureQueriesContext(connection) as queries:
        assert table_detail(str(table.id)) is cached  # by its id as text too
    assert len(queries) == 1  # only the status
    Table.objects.filter(id=table.id).update(status=Table.Status.FINISHED)
    # documented: without the re-check the cached table is answered as it is
    assert table_detail(table.id, recheck=False).status == Table.Status.STARTED
    finished = table_detail(table.id)
    assert finished.status == Table.Status.FINISHED
    assert table_detail(table.id, recheck=False).status == Table.Status.FINISHED
    with CaptureQueriesContext(connection) as queries:
        assert table_detail(table.id) is finished
    assert len(queries) == 0  # finished is final: not re-read
    assert [s.position for s in finished.seat_set.all()] == [0, 1]


def test_a_game_that_ends_finishes_its_table_in_the_same_statement() -> None:
    table = human_table(2)
    cached = table_detail(table.id)
    clock_before = GameClock.objects.get(game_id=table.id)
    outcome = play(table, 1, {"type": "resign"}, table=cached)
    assert outcome.loaded is not None and outcome.loaded.state.over
    assert Table.objects.get(id=table.id).status == Table.Status.FINISHED
    assert cached.status == Table.Status.STARTED  # the cached instance is never mutated
    assert table_detail(table.id).status == Table.Status.FINISHED
    clock = GameClock.objects.get(game_id=table.id)
    assert clock.version == outcome.last_seq > clock_before.version
    assert (clock.turn_key, clock.turn_deadline_ms, clock.bot_due_ms) == ("", None, None)
    assert (clock.window_id, clock.window_deadline_ms) == ("", None)


def test_a_refused_command_writes_no_events_no_record_no_clock_no_status() -> None:
    table = human_table(2)
    loaded = state(table)
    clock = GameClock.objects.values().get(game_id=table.id)
    count = StoredEvent.objects.filter(stream_id=table.id).count()
    other = 1 - loaded.state.turn_seat
    card = loaded.state.players[other].hand[0]
    command_id = uuid.uuid4()
    with pytest.raises(RuleViolation) as refused:
        play(table, other, {"type": "play", "card": card, "discard": True}, command_id=command_id)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(ServiceError) as stale:
        discard_first(table, expected_version=loaded.version - 1)
    assert stale.value.code == "stale_version"
    assert StoredEvent.objects.filter(stream_id=table.id).count() == count
    assert GameClock.objects.values().get(game_id=table.id) == clock
    assert Table.objects.get(id=table.id).status == Table.Status.STARTED
    record = CommandRecord.objects.get(command_id=command_id)
    assert (record.outcome, record.first_seq) == ("refused", None)
    assert_true_state(game_load(game_id=table.id), table)


# --- undo: from the loaded events as from the command log ---------------------------------


def _verdict(check: tuple[Any, ServiceError | None]) -> tuple[Any, ...]:
    last, error = check
    if error is not None:
        return ("refused", error.code, json.dumps(error.data, sort_keys=True, default=str))
    return ("ok", last.command_id, last.actor, last.seat, last.first_seq, last.last_seq)


class Audit:
    """After every command: the game as each kind of load gives it, checked against a full
    replay; and for every seat, the undo check on each load's ``last_command`` against the
    one that reads the command log."""

    def __init__(self, table: Table) -> None:
        self.table = table_get(table.id, seats=True)
        self.previous: LoadedGame | None = None
        self.states: dict[int, Any] = {}  # version -> state, to check what an undo restores
        self.verdicts: Counter[str] = Counter()
        self.loads_without_last = 0
        self.extended_over_commands = 0
        self.steps = 0

    def __call__(self) -> LoadedGame:
        table = self.table
        self.steps += 1
        hot = game_load(game_id=table.id)
        full = game_load(game_id=table.id, use_snapshots=False)
        loads = {"hot": hot, "full": full}
        if self.previous is not None and self.previous.version != hot.version:
            cache.games.put(table.id, self.previous)  # a fold this process made earlier
            loads["extended"] = game_load(game_id=table.id)
            self.extended_over_commands += 1
        cache.clear()
        loads["cold"] = game_load(game_id=table.id)
        for name, loaded in loads.items():
            assert (loaded.version, loaded.last_hash) == (full.version, full.last_hash), name
            assert loaded.state == full.state, name
            if loaded.last_command is not None:
                assert loaded.last_command == full.last_command, name
        assert full.last_command is not None
        if loads["cold"].last_command is None:
            self.loads_without_last += 1
        over = bool(getattr(full.state, "over", False))
        for seat in range(table.seats):
            logged = _verdict(
                undo_check(table, seat=seat, version=full.version, over=over, last=None)
            )
            self.verdicts[logged[1] if logged[0] == "refused" else "available"] += 1
            for name, loaded in loads.items():
                from_events = _verdict(
                    undo_check(
                        table,
                        seat=seat,
                        version=loaded.version,
                        over=over,
                        last=loaded.last_command,
                    )
                )
                assert from_events == logged, (name, seat, full.version)
        assert GameClock.objects.get(game_id=table.id).version == full.version
        self.states[full.version] = full.state
        self.previous = hot
        return game_load(game_id=table.id)

    def available(self, seat: int, loaded: LoadedGame) -> tuple[Any, ServiceError | None]:
        return undo_check(
            self.table,
            seat=seat,
            version=loaded.version,
            over=bool(loaded.state.over),
            last=None,
        )


def casual_table(
    *,
    humans: int,
    bots: list[str] = (),  # type: ignore[assignment]
    seed: str,
    turn_seconds: int = 0,
    advanced: bool = False,
) -> Table:
    """A started casual table (undo allowed) with a fixed seed; nobody has moved yet."""
    table = table_create(
        created_by=None,
        seats=humans + len(bots),
        mode=Table.Mode.CASUAL,
        turn_seconds=turn_seconds,
        advanced=advanced,
        reaction_seconds=30,
    )
    Table.objects.filter(id=table.id).update(seed=seed)
    for name in CAST[:humans]:
        seat_join(table_id=table.id, user=UserFactory(username=name))
    for bot in bots:
        seat_add_bot(table_id=table.id, bot=bot)
    table_start(table_id=table.id, run_bots=False)
    return table_get(table.id, seats=True)


def close_at_deadline(table: Table, window: Any) -> None:
    """Nobody answers: the system closes ``window`` at its deadline."""
    assert window is not None
    close_window(
        game_id=table.id,
        window_id=window.id,
        deadline=window.deadline,
        now=window.deadline,
        run_bots=False,
    )


def play_out(
    table: Table,
    audit: Audit,
    *,
    rng: random.Random,
    undo_rate: float = 0.0,
    timeout_rate: float = 0.0,
    silence: float = 0.2,
    max_steps: int = 2000,
) -> Counter[str]:
    """Play the game to its end, one command at a time, auditing after each: bots through
    ``bot_move``, humans as a random player that sometimes undoes, lets a window run out
    (the system closes it) or its turn time out (the system plays for it)."""
    definition = get_game(table.game)
    bots = bot_seats(table)
    humans = [s for s in range(table.seats) if s not in bots]
    done: Counter[str] = Counter()
    loaded = audit()
    for _ in range(max_steps):
        st = loaded.state
        if st.over:
            return done
        # an undo attempt by a random human seat: it lands exactly when the log says so
        if humans and rng.random() < undo_rate:
            # the seat whose command is last when it is a human's (the one that may undo:
            # passes at a table of people are sealed and leave nothing to undo), else any
            last = loaded.last_command
            mover = last.seat if last is not None else None
            seat = mover if mover in humans else rng.choice(humans)
            last, refusal = audit.available(seat, loaded)
            try:
                outcome = game_undo(  # consent: asked and given (tests/api/test_takeback.py)
                    game_id=table.id,
                    seat=seat,
                    actor=f"user:{CAST[seat]}",
                    command_id=uuid.uuid4(),
                    consented=True,
                )
            except ServiceError as error:
                assert refusal is not None and error.code == refusal.code, (seat, error.code)
                done[f"undo refused: {error.code}"] += 1
            else:
                assert refusal is None and last is not None, refusal and refusal.code
                marker = StoredEvent.objects.get(stream_id=table.id, seq=outcome.first_seq)
                assert (marker.payload["from_seq"], marker.payload["to_seq"]) == (
                    last.first_seq,
                    last.last_seq,
                )
                loaded = audit()
                expected = audit.states[last.first_seq - 1]
                if "reshuffle_seed_hash" in marker.payload:  # an undo across a draw
                    assert sorted(loaded.state.deck) == sorted(expected.deck)
                    expected = replace(
                        expected, deck=loaded.state.deck, shuffles=expected.shuffles + 1
                    )
                    done["undo with a reshuffle"] += 1
                assert loaded.state == expected
                done["undo"] += 1
                continue
        window = st.window
        if run_out(table.id, st):
            done["closed by the system"] += 1  # every seat passed (sealed)
            loaded = audit()
            continue
        seat = to_answer(table.id, st)[0]
        if seat in bots:
            if bot_move(game_id=table.id, table=table) is None:
                close_at_deadline(table, window)
                done["closed by the system"] += 1
            else:
                done["bot"] += 1
        elif (
            window is None
            and table.turn_seconds
            and timeout_rate
            # the first human turn that can time out does, so every game asked for
            # timeouts has one whatever path its table's id gives the bots
            and (not done["turn timeout"] or rng.random() < timeout_rate)
        ):
            clock = GameClock.objects.get(game_id=table.id)
            assert clock.turn_key == definition.status(st).step_key and clock.turn_deadline_ms
            timed_out = turn_timeout(
                game_id=table.id,
                key=clock.turn_key,
                deadline=clock.turn_deadline_ms,
                now=clock.turn_deadline_ms,
            )
            assert timed_out is not None
            done["turn timeout"] += 1
        else:
            choice = RandomBot(silence=silence, resign=0.002).choose(st, seat, rng)
            if silence and window is not None and not done["closed by the system"]:
                choice = None  # the first window a human may answer runs out, for certain
            if choice is None:
                close_at_deadline(table, window)
                done["closed by the system"] += 1
            else:
                play(table, seat, definition.encode_command(choice), run_bots=False, table=table)
                done["human"] += 1
        loaded = audit()
    raise AssertionError(f"no end after {max_steps} steps: {done}")


def _finished_and_verified(table: Table) -> None:
    table = Table.objects.get(id=table.id)
    assert table.status == Table.Status.FINISHED
    report = verify_record(json.loads(json.dumps(game_export(table))))
    assert report.ok, report.problems


@pytest.mark.parametrize(("players", "seed"), [(2, "u2"), (4, "u4"), (6, "u6")])
def test_undo_checks_agree_over_whole_bot_games(settings, players: int, seed: str) -> None:
    settings.FB_BOTS_INLINE = False
    settings.FB_SNAPSHOT_EVERY = 7
    table = casual_table(humans=0, bots=["random", "heuristic"] * (players // 2), seed=seed)
    audit = Audit(table)
    done = play_out(table, audit, rng=random.Random(seed))
    _finished_and_verified(table)
    # what the audit went through (the bots' choices depend on the table's id)
    assert done["bot"] == audit.steps - 1 >= 10
    assert audit.extended_over_commands == audit.steps - 1
    assert audit.verdicts["game_over"] == players  # the last audit only
    assert audit.verdicts["available"] and audit.verdicts["other_seat_acted"]
    assert audit.verdicts["undo_reveals_cards"], audit.verdicts
    # a draw shown to another seat no longer stops an undo: Family Business reshuffles
    # from a fresh seed (games.undo), and none of its events shows every seat cards
    assert not audit.verdicts["undo_after_reveal"], audit.verdicts
    assert audit.loads_without_last > 0  # a snapshot with nothing after: the log decided


@pytest.mark.parametrize(
    ("humans", "bots", "seed", "advanced"),
    [
        (3, [], "h3", False),
        (2, ["heuristic", "random"], "h2b2", False),
        (3, ["heuristic"], "h3b1a", True),
    ],
)
def test_undo_checks_agree_over_human_games_with_undos_timeouts_and_closes(
    settings, humans: int, bots: list[str], seed: str, advanced: bool
) -> None:
    settings.FB_BOTS_INLINE = False
    settings.FB_SNAPSHOT_EVERY = 5
    table = casual_table(humans=humans, bots=bots, seed=seed, turn_seconds=60, advanced=advanced)
    audit = Audit(table)
    done = play_out(
        table, audit, rng=random.Random(seed), undo_rate=0.3, timeout_rate=0.1, silence=0.3
    )
    _finished_and_verified(table)
    # what the game went through (seeded, but the bots' choices depend on the table's id)
    assert done["undo"] >= 2, done
    assert done["turn timeout"] >= 1, done
    assert done["closed by the system"] >= 1, done
    assert sum(n for k, n in done.items() if k.startswith("undo refused")) >= 2, done
    assert audit.verdicts["available"] and audit.verdicts["nothing_to_undo"], audit.verdicts
    assert audit.loads_without_last > 0
    undone = StoredEvent.objects.filter(stream_id=table.id, type=UNDONE).count()
    assert undone == done["undo"]
    timeouts = CommandRecord.objects.filter(
        stream_id=table.id, actor="system", metadata__timeout=True, outcome="accepted"
    )
    assert timeouts.count() == done["turn timeout"]


def test_a_game_loaded_from_a_snapshot_with_nothing_after_falls_back_to_the_log(
    settings,
) -> None:
    settings.FB_SNAPSHOT_EVERY = 1  # a snapshot after every command
    table = human_table(3, stacked=hand_stack(["CONTRACT"]), undoable=True)
    played = contract_first(table)
    cache.clear()
    loaded = game_load(game_id=table.id)
    assert Snapshot.objects.filter(stream_id=table.id, version=loaded.version).exists()
    assert loaded.last_command is None  # it saw no event of the last command
    seat = CommandRecord.objects.get(command_id=played.command_id).seat
    last, refusal = undo_check(
        table, seat=seat, version=loaded.version, over=False, last=loaded.last_command
    )
    assert refusal is None and last is not None
    assert (last.command_id, last.first_seq, last.last_seq) == (
        played.command_id,
        played.first_seq,
        played.last_seq,
    )
    # and the undo itself, decided from that load, takes back that command
    game_undo(game_id=table.id, seat=seat, actor="user:x", command_id=uuid.uuid4())
    assert_true_state(game_load(game_id=table.id), table)
