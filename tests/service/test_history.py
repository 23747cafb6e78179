"""Snapshots, replay at any point, undo, export and offline verification."""

from __future__ import annotations

import copy
import json
import uuid
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from events.models import Snapshot, StoredEvent
from events.store import read, undone_seqs
from games.errors import ServiceError
from games.family_business import replay
from games.lobby import seat_add_bot, table_create, table_start
from games.models import Table
from games.record import game_export
from games.rng import seed_hash
from games.service import clock_ms, from_row, game_load, game_undo
from games.verify import verify_record
from tests.service.helpers import contract_first, hand_stack, human_table, run, state

pytestmark = pytest.mark.django_db


def bot_game(players: int = 4, seed: str = "s") -> Table:
    table = table_create(created_by=None, seats=players, mode="sandbox", seed=seed)
    for i in range(players):
        seat_add_bot(table_id=table.id, bot="heuristic" if i % 2 else "random")
    table_start(table_id=table.id)
    table.refresh_from_db()
    return table


def full_replay(table: Table, upto: int | None = None):
    rows = read(table.id, upto=upto)
    skipped = undone_seqs(rows)
    definition = game_load(game_id=table.id).definition
    return replay(from_row(definition, r) for r in rows if r.seq not in skipped)


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_snapshot_plus_tail_equals_a_full_replay(settings, seed: str) -> None:
    settings.FB_SNAPSHOT_EVERY = 7
    table = bot_game(seed=seed)
    assert table.status == Table.Status.FINISHED
    snapshots = Snapshot.objects.filter(stream_id=table.id)
    assert snapshots.count() > 10
    version = game_load(game_id=table.id).version
    for upto in (1, 7, 8, 50, version // 2, version - 1, version):
        with_snapshots = game_load(game_id=table.id, upto=upto).state
        assert with_snapshots == game_load(game_id=table.id, upto=upto, use_snapshots=False).state
        assert with_snapshots == full_replay(table, upto)


def test_snapshots_can_be_deleted_at_any_time_without_harm(settings) -> None:
    settings.FB_SNAPSHOT_EVERY = 5
    table = bot_game(seed="del")
    before = game_load(game_id=table.id).state
    Snapshot.objects.filter(stream_id=table.id).delete()
    assert game_load(game_id=table.id).state == before


def test_the_state_at_any_sequence_number_is_the_replay_of_the_events_up_to_it() -> None:
    table = bot_game(players=3, seed="at")
    for upto in (5, 20, 60):
        assert game_load(game_id=table.id, upto=upto).state == full_replay(table, upto)


# --- undo ---------------------------------------------------------------------------------


def test_a_seat_may_undo_its_own_latest_command_and_replay_skips_it() -> None:
    table = human_table(3, stacked=hand_stack(["CONTRACT"]), undoable=True)
    before = state(table)
    now = clock_ms()
    played = contract_first(table, now=now)
    after_play = state(table).state
    assert after_play.window is not None
    undo = game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4())
    undone = state(table)
    assert undone.state == before.state
    assert undone.version == played.last_seq + 1  # the undo is an event: nothing deleted
    marker = StoredEvent.objects.get(stream_id=table.id, seq=undo.first_seq)
    assert marker.payload["from_seq"] == played.first_seq
    assert marker.prev_hash == StoredEvent.objects.get(stream_id=table.id, seq=played.last_seq).hash
    # The same play at the same time leads to the same game.
    contract_first(table, now=now)
    assert state(table).state == after_play


def test_a_discard_that_drew_another_seat_cards_is_undone_only_with_its_consent() -> None:
    """Alice discards; her command starts bob's turn and draws him a card. Bob (a person)
    must agree (``takeback_needed`` without it); agreed, his card goes back and the deck
    is reshuffled from a fresh seed, committed by its hash in the undo marker."""
    table = human_table(3)
    before = state(table).state
    run(table, 0, {"type": "play", "card": before.players[0].hand[0], "discard": True})
    version = state(table).version
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4())
    assert refused.value.code == "takeback_needed"
    assert refused.value.data == {"seats": [1]}
    assert state(table).version == version
    game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4(), consented=True)
    after = state(table).state
    assert after.players == before.players and after.discard == before.discard
    assert sorted(after.deck) == sorted(before.deck) and after.deck != before.deck
    assert after.shuffles == before.shuffles + 1  # later reshuffles take a new label
    (reseed,) = Table.objects.get(id=table.id).reseeds
    marker = StoredEvent.objects.get(stream_id=table.id, type="stream.Undone")
    assert marker.payload["reshuffle_seed_hash"] == seed_hash(reseed)


def test_ranked_tables_refuse_undo() -> None:
    table = human_table(3, mode="ranked")
    card = state(table).state.players[0].hand[0]
    run(table, 0, {"type": "play", "card": card, "discard": True})
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4())
    assert refused.value.code == "undo_not_allowed"


def test_undo_is_refused_once_another_seat_has_acted_or_for_someone_else() -> None:
    table = human_table(3)
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4())
    assert refused.value.code == "nothing_to_undo"
    run(table, 0, {"type": "play", "card": state(table).state.players[0].hand[0], "discard": True})
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=1, actor="user:bob", command_id=uuid.uuid4())
    assert refused.value.code == "other_seat_acted"
    run(table, 1, {"type": "play", "card": state(table).state.players[1].hand[0], "discard": True})
    with pytest.raises(ServiceError) as refused:
        game_undo(game_id=table.id, seat=0, actor="user:alice", command_id=uuid.uuid4())
    assert refused.value.code == "other_seat_acted"


# --- export and verify -------------------------------------------------------------------


def test_an_exported_bot_game_verifies_offline() -> None:
    table = bot_game(players=5, seed="verify")
    record = json.loads(json.dumps(game_export(table)))
    report = verify_record(record)
    assert report.ok, report.problems
    assert report.events_checked == len(record["events"])


def test_a_record_with_one_byte_changed_fails_verification() -> None:
    table = bot_game(players=3, seed="tamper")
    text = json.dumps(game_export(table))
    assert verify_record(json.loads(text)).ok
    for needle, forged in (
        ('"reason": "setup"', '"reason": "setuP"'),  # a value
        ('"type": "family_business.CardsDealt"', '"tyPe": "family_business.CardsDealt"'),  # a key
        ('"seq": 7,', '"seq": 8,'),  # a sequence number
        ('"type": "CardsDealt"', '"type": "CardsDrawn"'),  # the unhashed data: checked too
    ):
        tampered = text.replace(needle, forged, 1)
        assert tampered != text and len(tampered) == len(text)
        report = verify_record(json.loads(tampered))
        assert not report.ok and report.problems


def test_a_forged_record_with_a_consistent_hash_chain_fails_re_derivation() -> None:
    from events.chain import GENESIS, chain_hash
    from games.verify import record_event_body

    table = bot_game(players=3, seed="forge")
    record = copy.deepcopy(game_export(table))
    drawn = next(e for e in record["events"] if e["type"] == "family_business.CardsDrawn")
    drawn["payload"]["cards"] = list(reversed(drawn["payload"]["cards"])) + []
    if len(drawn["payload"]["cards"]) == 1:
        drawn["payload"]["cards"] = ["c01"]
    prev = GENESIS
    for e in record["events"]:  # re-hash everything so the chain itself looks intact
        e["prev_hash"] = prev
        e["hash"] = prev = chain_hash(prev, record_event_body(record["stream_id"], e))
    report = verify_record(record)
    assert not report.ok
    assert f"seq {drawn['seq']}" in report.problems[0]


def test_export_and_verify_commands_round_trip(tmp_path) -> None:
    table = bot_game(players=3, seed="cli")
    path = tmp_path / "game.json"
    call_command("export_game", str(table.id), "-o", str(path), stdout=StringIO())
    out = StringIO()
    call_command("verify_game", str(path), stdout=out)
    assert out.getvalue().startswith("OK:")
    data = json.loads(path.read_text())
    data["events"][3]["payload"]["seat"] = 2
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError):
        call_command("verify_game", str(path), stdout=StringIO())


def test_export_refuses_an_unfinished_game() -> None:
    table = human_table(2)
    with pytest.raises(CommandError):
        call_command("export_game", str(table.id), stdout=StringIO())


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "3", "--seed", "cmd"],
        ["--game", "goofspiel", "--players", "2", "--options", '{"cards": 4}'],
        ["--players", "2", "--options", '{"advanced": true}'],
    ],
)
def test_play_bot_game_plays_a_whole_game_through_the_service(args) -> None:
    out = StringIO()
    call_command("play_bot_game", *args, stdout=out)
    text = out.getvalue()
    assert "winners:" in text and "verified: OK" in text
    table = Table.objects.get()
    assert table.status == Table.Status.FINISHED
    assert game_load(game_id=table.id).state.over


def test_an_advanced_bot_game_plays_through_the_service_and_verifies() -> None:
    table = table_create(created_by=None, seats=4, mode="sandbox", seed="adv", advanced=True)
    for i in range(4):
        seat_add_bot(table_id=table.id, bot="heuristic" if i % 2 else "random")
    table_start(table_id=table.id, run_bots=True)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    record = json.loads(json.dumps(game_export(table)))
    assert any(e["type"] == "family_business.AbilityAssigned" for e in record["events"])
    report = verify_record(record)
    assert report.ok, report.problems


def test_exports_keep_client_addresses_only_when_asked(settings) -> None:
    table = human_table(2)
    run(table, 0, {"type": "resign"}, metadata={"request_id": "r", "ip": "203.0.113.9"})
    table.refresh_from_db()
    public = json.dumps(game_export(table))
    assert "203.0.113.9" not in public and '"request_id": "r"' in public
    assert "203.0.113.9" in json.dumps(game_export(table, private=True))
    assert verify_record(json.loads(public)).ok


def test_unknown_or_malformed_game_ids_are_game_not_found() -> None:
    for bad in ("not-a-uuid", str(uuid.uuid4()), 12):
        with pytest.raises(ServiceError) as refused:
            game_load(game_id=bad)  # type: ignore[arg-type]
        assert refused.value.code == "game_not_found"


def test_a_user_who_holds_a_seat_cannot_be_deleted() -> None:
    from django.db.models import ProtectedError

    table = human_table(2)
    user = table.seat_set.get(position=0).user
    with pytest.raises(ProtectedError):
        user.delete()
