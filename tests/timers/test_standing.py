"""Standing reactions applied by a real Celery worker on a real broker, and the leak test:
what others see of a window, and when, does not depend on the hand of a seat whose
standing reactions answer it (docs/rules.md, "Standing reactions")."""

from __future__ import annotations

import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from events.models import CommandRecord, StoredEvent
from games.models import Table
from games.service import clock_ms
from games.standing import standing_set
from tests.factories import UserFactory
from tests.service.helpers import cards_of, hand_stack, human_table, run, state
from tests.timers.test_workers import closes, diagnose, lateness_ms, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

COUNTERED = "family_business.CounterPlayed"


def contract(table: Table) -> Any:
    """Seat 0 plays its CONTRACT on seat 1's first mobster: a window opens (real clock)."""
    target = state(table).state.players[1].crew[0]
    run(table, 0, {"type": "play", "card": cards_of("CONTRACT")[0], "targets": [target]})
    window = state(table).state.window
    assert window is not None
    return window


def standing_passes(table: Table) -> list[CommandRecord]:
    return list(CommandRecord.objects.filter(stream_id=table.id, metadata__origin="standing"))


def test_the_worker_passes_for_a_seat_with_no_counter_and_the_window_runs_on(workers) -> None:
    workers()
    # bob holds a FAMILY INFLUENCE (he decides); carol none (her default passes for her)
    table = human_table(3, stacked=hand_stack(["CONTRACT"], ["FAMILY_INFLUENCE"], []),
                        reaction_seconds=3)  # fmt: skip
    window = contract(table)
    (record,) = wait_until(lambda: standing_passes(table), 10, "carol's standing pass", table)
    assert (record.seat, record.metadata["reason"], record.first_seq) == (2, "no_counter", None)
    assert record.now_ms < window.deadline
    version = state(table).version
    run(table, 1, {"type": "pass", "window": window.id})  # bob passes himself
    time.sleep(0.5)
    # bob passed by hand (public), carol's preferences passed (sealed): the window still
    # waits on carol, to everyone, and runs to its deadline
    assert state(table).state.window is not None and clock_ms() < window.deadline
    assert state(table).version == version + 1  # bob's pass only, nothing for carol's
    assert state(table).state.window.waiting_on == (2,)
    (closed,) = wait_until(lambda: closes(table), 15, "the close at the deadline", table)
    assert closed.payload["reason"] == "deadline" and closed.metadata["by"] == "task"
    assert 0 <= lateness_ms(closed, window.deadline) <= 1500, diagnose(table)


def test_the_worker_plays_a_declared_counter_at_once(workers) -> None:
    workers()
    table = human_table(3, stacked=hand_stack(["CONTRACT"], ["FAMILY_INFLUENCE"], []),
                        reaction_seconds=10)  # fmt: skip
    standing_set(
        table=table,
        seat=1,
        actor="user:bob",
        changes={"counters": [{"counter": "FAMILY_INFLUENCE"}]},
    )
    window = contract(table)
    counter = wait_until(
        lambda: StoredEvent.objects.filter(stream_id=table.id, type=COUNTERED).first(),
        10,
        "bob's declared counter",
        table,
    )
    assert counter.payload["seat"] == 1 and counter.metadata["origin"] == "standing"
    assert counter.actor == f"user:{UserFactory(username='bob').pk}"
    assert int(counter.recorded_at.timestamp() * 1000) < window.deadline - 5_000
    assert state(table).state.window is None  # the counter won the window


def _public_story(table: Table, viewer: Any, after: int) -> list[tuple[Any, ...]]:
    """What ``viewer`` (alice) is shown of the stream after ``after``: each event's seq, type,
    actor, origin and redacted data (times apart)."""
    client = APIClient()
    client.force_authenticate(user=viewer)
    body = client.get(f"/api/v1/games/{table.id}/events", {"after": after}).json()
    story = []
    for e in body["events"]:
        data = {
            k: v for k, v in e["data"].items() if k != "deadline"
        }  # the clock's, compared apart
        story.append((e["seq"], e["type"], e["actor"], e["origin"], data))
    return story


def test_others_see_the_same_stream_and_timing_whatever_the_auto_passing_seat_holds(
    workers,
) -> None:
    """The leak test. Two games alike but for carol's hand: in one she holds no counter
    (her default standing pass answers for her, sealed), in the other a counter she does
    not use. Bob passes by hand at once in both (public: his own choice). Alice's stream,
    its sequence numbers, the game's version during the window and the close's reason and
    time are the same."""
    workers()
    worlds: dict[str, dict[str, Any]] = {}
    for name, carol in (("no counter", []), ("a counter", ["FAMILY_INFLUENCE"])):
        table = human_table(3, stacked=hand_stack(["CONTRACT"], [], carol), seed="leak",
                            reaction_seconds=3)  # fmt: skip
        worlds[name] = {"table": table}
    for world in worlds.values():  # both windows open within a moment of each other
        world["window"] = contract(world["table"])
        world["opened"] = state(world["table"]).version
    for world in worlds.values():
        run(world["table"], 1, {"type": "pass", "window": world["window"].id})
    quiet_table = worlds["no counter"]["table"]
    wait_until(lambda: 2 in [r.seat for r in standing_passes(quiet_table)], 10, "carol's auto pass")
    for world in worlds.values():  # mid-window: what anyone reading the game sees
        game = state(world["table"])
        world["mid"] = (game.version, game.state.window.waiting_on)
    for world in worlds.values():
        table = world["table"]
        (closed,) = wait_until(lambda t=table: closes(t), 15, "the close", table)
        world["closed"] = (closed.seq, closed.payload["reason"], closed.metadata["by"])
        world["late"] = lateness_ms(closed, world["window"].deadline)
        alice = UserFactory(username="alice")
        world["story"] = _public_story(table, alice, world["opened"] - 2)
    quiet, holding = worlds["no counter"], worlds["a counter"]
    # (bob holds no counter either: his preferences may pass for him before he does)
    assert 2 in [r.seat for r in standing_passes(quiet["table"])]  # it did pass for carol
    assert 2 not in [r.seat for r in standing_passes(holding["table"])]  # here she decides
    # bob's pass (by hand) shows in both; carol's (standing, in one world) is sealed
    assert quiet["mid"] == holding["mid"] == (quiet["opened"] + 1, (2,))
    assert quiet["closed"] == holding["closed"]
    assert quiet["closed"][1:] == ("deadline", "task")
    assert quiet["story"] == holding["story"]
    assert all(0 <= w["late"] <= 1500 for w in worlds.values()), worlds
