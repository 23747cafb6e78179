"""Notices through the relay on real PostgreSQL for a game with no notices code of its own
(Goofspiel: the service derives them from its status), relayed move by move as a running
relay does: from this process's fold of the game at the cursor, or, when that is gone (a
relay that took over, a restart), from the state loaded at the cursor; and past an undo."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from typing import Any

import pytest

from events.models import StoredEvent
from events.store import UNDONE
from games.registry import get_game
from games.service import game_command_execute, game_undo
from tests.webhooks.helpers import move, started_table, subscribe, users
from webhooks import folds
from webhooks.models import Delivery, RelayCursor
from webhooks.relay import relay_stream

URL = "http://127.0.0.1:9/hooks"  # never called here
CARDS = 4
pytestmark = pytest.mark.django_db(transaction=True)


def told(sub: Any) -> list[tuple[int, str, list[dict[str, Any]]]]:
    rows = Delivery.objects.filter(subscription=sub).order_by("seq")
    return [(d.seq, d.kind, json.loads(d.body)["data"]["notices"]) for d in rows]


@pytest.mark.parametrize("fold", ["kept", "dropped", "stale"])
def test_a_game_without_notices_code_tells_each_round_the_filled_table_and_the_end(fold) -> None:
    """The fold at the cursor kept from the last pass, dropped before each (a relay that
    took over), or a stale one at the cursor's seq whose event hash is not the stream's
    (another stream's under this id, in a flushed database): the same notices."""
    alice, bob = players = users("alice", "bob")
    kinds = ["turn.started", "window.opened", "table.filled", "game.finished"]
    subs = [subscribe(user, URL, kinds) for user in players]
    table = started_table(players, game="goofspiel", options={"cards": CARDS})
    relay_stream(table.id)
    while move(table, players):
        if fold == "dropped":
            folds.folds.clear()
        if fold == "stale":
            at = RelayCursor.objects.get(stream_id=table.id).seq
            empty = get_game("goofspiel").empty_state()
            folds.folds.put(table.id, folds.Fold(at, "not-this-streams-hash", empty))
        relay_stream(table.id)
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    prizes = [r.seq for r in rows if r.type == "goofspiel.PrizeShown"]
    assert len(prizes) == CARDS
    both = [{"kind": "turn.started", "seats": [0, 1], "users": [alice.pk, bob.pk]}]
    for sub in subs:
        got = told(sub)
        assert [kind for _, kind, _ in got] == (
            ["table.filled"] + ["turn.started"] * CARDS + ["game.finished"]
        )
        assert got[0][0] == 1 and got[-1][0] == rows[-1].seq
        assert rows[-1].type == "goofspiel.GameEnded"
        assert [seq for seq, kind, _ in got if kind == "turn.started"] == prizes
        assert all(notices == both for _, kind, notices in got if kind == "turn.started")


def test_the_first_rounds_turn_is_told_to_a_subscription_for_turns() -> None:
    players = users("alice", "bob")
    sub = subscribe(players[1], URL, ["turn.started"])
    table = started_table(players, game="goofspiel", options={"cards": 3})
    relay_stream(table.id)
    first_prize = StoredEvent.objects.get(stream_id=table.id, type="goofspiel.PrizeShown")
    assert [(seq, kind) for seq, kind, _ in told(sub)] == [(first_prize.seq, "turn.started")]


def test_an_undo_tells_nothing_and_the_relay_goes_on_from_the_state_it_leaves() -> None:
    alice, bob = players = users("alice", "bob")
    sub = subscribe(alice, URL, ["all"])
    table = started_table(players, game="goofspiel", options={"cards": 3})
    relay_stream(table.id)

    def bid(seat: int, card: int) -> None:
        game_command_execute(
            game_id=table.id,
            seat=seat,
            actor=f"user:{players[seat].pk}",
            command={"type": "bid", "round": 1, "card": card},
            command_id=uuid.uuid4(),
        )
        relay_stream(table.id)

    bid(0, 1)
    game_undo(game_id=table.id, seat=0, actor=f"user:{alice.pk}", command_id=uuid.uuid4())
    relay_stream(table.id)
    bid(0, 2)
    bid(1, 3)  # the round is complete: round 2 starts for both
    rows = list(StoredEvent.objects.filter(stream_id=table.id).order_by("seq"))
    got = {seq: (kind, notices) for seq, kind, notices in told(sub)}
    assert sorted(got) == [r.seq for r in rows]  # ``all``: every event, the undo marker too
    undo = next(r.seq for r in rows if r.type == UNDONE)
    assert got[undo] == ("game.event", [])
    calls = Counter(kind for kind, _ in got.values())
    assert calls["turn.started"] == 2  # the first round and the second: none for the undo
    second = rows[-1]
    assert second.type == "goofspiel.PrizeShown"
    assert got[second.seq][0] == "turn.started"
