"""A game keeps the rules version it started under, in the store too: loaded, snapshotted
and shown under its own version, while new tables get the newest. Snapshots are keyed by
the code's newest version (``games.loading.snapshot_key``), never the game's."""

from __future__ import annotations

import json
from dataclasses import replace as replaced
from pathlib import Path

import pytest

from events.models import Snapshot
from events.store import snapshot_save
from games.family_business import game as fb_game
from games.family_business import revisions as fb_revisions
from games.loading import snapshot_key
from games.lobby import bots_play, seat_add_bot, table_create, table_start
from games.models import Table
from games.record import game_export
from games.registry import get_game
from games.restore import restore_record
from games.service import game_load
from games.verify import verify_record

pytestmark = pytest.mark.django_db

RECORDS = Path(__file__).resolve().parents[1] / "games" / "records"
RULES_1 = RECORDS / "family_business-rules1-war-at-game-end.json"


def test_a_new_table_is_played_under_the_newest_rules() -> None:
    table = table_create(created_by=None, seats=2, mode="sandbox", seed="new")
    for _ in range(2):
        seat_add_bot(table_id=table.id, bot="heuristic")
    table_start(table_id=table.id)
    loaded = game_load(game_id=table.id)
    assert loaded.definition.played_under(loaded.state).rules == loaded.definition.rules_version


def test_an_old_game_loads_under_its_own_version_with_snapshots_of_this_code(settings) -> None:
    table = restore_record(json.loads(RULES_1.read_text()))
    definition = get_game(table.game)
    assert definition.rules_version == 2 and snapshot_key(definition) == 2
    full = game_load(game_id=table.id, use_snapshots=False)
    assert definition.played_under(full.state).rules == 1  # the first event's, not the newest
    # a snapshot this code writes for the rules-1 game is keyed by the code's version...
    at_60 = game_load(game_id=table.id, upto=60, use_snapshots=False).state
    snapshot_save(
        table.id,
        version=60,
        rules_version=snapshot_key(definition),
        state=definition.encode_state(at_60),
    )
    used = game_load(game_id=table.id, upto=120)
    assert used.state == game_load(game_id=table.id, upto=120, use_snapshots=False).state
    assert definition.played_under(used.state).rules == 1  # ...and its state keeps rules 1
    # one written by code of another newest version (here: a wrong fold) is never used
    Snapshot.objects.filter(stream_id=table.id).delete()
    at_10 = game_load(game_id=table.id, upto=10, use_snapshots=False).state
    snapshot_save(table.id, version=100, rules_version=1, state=definition.encode_state(at_10))
    assert (
        game_load(game_id=table.id, upto=120).state
        == game_load(game_id=table.id, upto=120, use_snapshots=False).state
    )


def _dealt_under_rules_1_then_played_on(monkeypatch: pytest.MonkeyPatch, seed: str) -> Table:
    """A table dealt by the code of rules 1 (its setup forced to version 1, as before an
    update), then played to its end by today's code."""
    dealt_by_old_code = fb_game.setup_events

    def setup_events(players, options=None, seed="", salt=""):  # type: ignore[no-untyped-def]
        return dealt_by_old_code(players, replaced(options, rules_version=1), seed, salt)

    table = table_create(created_by=None, seats=2, mode="sandbox", seed=seed)
    seat_add_bot(table_id=table.id, bot="heuristic")
    seat_add_bot(table_id=table.id, bot="random")
    with monkeypatch.context() as patched:
        patched.setattr(fb_game, "setup_events", setup_events)
        table_start(table_id=table.id, run_bots=False)
    bots_play(game_id=table.id)  # the update: today's code from here on
    table.refresh_from_db()
    return table


def test_a_game_started_before_an_update_plays_to_its_end_under_its_own_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every move decided by rules 1: the export verifies under rules 1, and, for a game
    # that met a case the versions decide differently (most do: a war running at the end),
    # it would not have under rules 2. (Bots draw from the game's random id: a few games.)
    met_a_changed_case = 0
    for n in range(12):
        table = _dealt_under_rules_1_then_played_on(monkeypatch, f"rules1-base-{n}")
        loaded = game_load(game_id=table.id)
        assert loaded.definition.status(loaded.state).over
        assert loaded.definition.played_under(loaded.state).rules == 1
        record = game_export(table)
        assert verify_record(record).ok
        with monkeypatch.context() as patched:
            patched.setitem(fb_revisions.REVISIONS, 1, fb_revisions.REVISIONS[2])
            met_a_changed_case += not verify_record(record).ok
        if met_a_changed_case >= 2:
            break
    assert met_a_changed_case >= 2
