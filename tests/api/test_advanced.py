"""An advanced-rules game over HTTP (issue 8): a sandbox table with the ability cards, humans
driven from their `legal` options (assigning an ability, answering pending decisions) and a
bot, every body scanned for hidden cards (ability cards included), and the export verified."""

from __future__ import annotations

from random import Random

import pytest

from games.family_business.bots import HeuristicBot
from games.family_business.codec import encode_command
from games.family_business.legal import Option, concretize
from games.service import game_load
from games.verify import verify_record
from tests.api.helpers import create_table, seat_all, start
from tests.api.test_play import Watch
from tests.service.helpers import hand_stack
from tests.windows import run_out, to_answer

pytestmark = pytest.mark.django_db

DECISION_COMMANDS = {"draw", "use_butcher", "unforgiving", "end_turn"}


def from_legal(state, seat: int, legal: list[dict], rng: Random) -> dict | None:
    """A command built from one of the HTTP `legal` options: an ability play first, then any
    decision option (BUTCHER before a plain draw); None: let the heuristic bot choose."""
    plays = [o for o in legal if o["command"] == "play" and o["card"].startswith("a")]
    decisions = [o for o in legal if o["command"] in DECISION_COMMANDS]
    decisions.sort(key=lambda o: o["command"] != "use_butcher")
    chosen = (plays or decisions or [None])[0]
    if chosen is None:
        return None
    if chosen["ready"] and chosen["command"] != "draw":
        return chosen["send"]  # ready to send as it is
    option = Option(**{k: v for k, v in chosen.items() if k not in ("send", "ready", "label")})
    return encode_command(concretize(state, seat, option, rng))


def test_an_advanced_game_over_http_with_abilities_and_decisions(alice, bob, carol, mallory, staff):
    stacked = hand_stack(["BUTCHER", "SHORT_TEMPERED", "CONTRACT"], ["UNFORGIVING"], [], [])
    table = create_table(
        staff,
        mode="sandbox",
        seats=4,
        advanced=True,
        seed="api-advanced",
        stacked_deck=stacked,
        reaction_seconds=300,
        join=False,
    )
    assert table["options"]["advanced"] is True
    game_id = table["id"]
    cast = [alice, bob, carol]
    seat_all(game_id, *cast)
    assert staff.post(f"/tables/{game_id}/bots", {"kind": "heuristic"}).status_code == 201
    first = start(alice, game_id)
    assert first["table"]["options"]["advanced"] is True and first["state"]["advanced"] is True
    assert first["state"]["abilities"] == []
    hand = {c["id"]: c for c in first["state"]["players"][0]["hand"]}
    butcher = next(c for c in hand.values() if c["kind"] == "BUTCHER")
    assert butcher["category"] == "ability" and butcher["reconstructed"] is True
    assert butcher["text"]
    # the ability play's choices name alice's own mobsters
    option = next(o for o in first["state"]["legal"] if o.get("card") == butcher["id"])
    assert option["command"] == "play"
    assert set(option["choices"]["targets"]["mobsters"]) == {
        m["id"] for m in first["state"]["players"][0]["crew"]
    }

    seats = {p.name: i for i, p in enumerate(cast)}
    by_seat = dict(enumerate(cast))
    watch = Watch(game_id, seats)
    viewers = [*cast, mallory]
    seen = {"assigned": 0, "decisions": set(), "butcher": 0}
    step = 0
    while not (loaded := game_load(game_id=game_id)).state.over:
        step += 1
        assert step < 3000, "the game should have ended"
        if run_out(game_id, loaded.state):
            continue  # every seat passed (sealed): the window ran its time
        seat = to_answer(game_id, loaded.state)[0]
        player = by_seat[seat]
        mine = player.state(game_id)
        legal = mine["state"]["legal"]
        window = mine["state"]["window"]
        if window and window.get("decision"):
            assert window["seat"] == seat and window["card"]["category"] == "ability"
            assert {o["command"] for o in legal} - {"resign", "play"} <= DECISION_COMMANDS
            seen["decisions"].add(window["decision"])
        rng = Random(f"{game_id}:{step}")
        command = from_legal(loaded.state, seat, legal, rng)
        if command is None:
            choice = HeuristicBot().choose(loaded.state, seat, rng)
            assert choice is not None
            command = encode_command(choice)
        kind = "discard" if command["type"] == "play" and command.get("discard") else None
        assert any(
            o["command"] == (kind or command["type"])
            and o.get("card") in (None, command.get("card"))
            for o in legal
        ), (command, legal)
        guard = {} if "window" in command else {"expected_version": mine["version"]}
        response = player.command(game_id, command, **guard)
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["table"]["id"] == game_id and isinstance(body["undo_available"], bool)
        types = {e["data"]["type"] for e in body["events"]}
        if "AbilityAssigned" in types:
            seen["assigned"] += 1
        if "ButcherUsed" in types:
            seen["butcher"] += 1
        if step % 7 == 0:
            for viewer in viewers:
                doc = viewer.state(game_id)
                shown = {a["card"]["id"]: a["mobster"]["id"] for a in doc["state"]["abilities"]}
                for entry in doc["state"]["abilities"]:
                    assert entry["card"]["reconstructed"] is True
                for p in doc["state"]["players"]:
                    for m in p["crew"] + p["listed"]:
                        if "ability" in m:
                            assert shown[m["ability"]["id"]] == m["id"]
        watch.check(viewers)
    assert seen["assigned"] >= 1 and seen["butcher"] >= 1
    assert "draw" in seen["decisions"]
    assert watch.checked > 50

    # a decision command on a finished game, and a base-game refusal of the new commands
    final = alice.state(game_id)
    assert final["state"]["over"] and final["table"]["status"] == "finished"
    over = alice.command(game_id, {"type": "end_turn"})
    assert over.status_code == 409 and over.json()["code"] == "game_over"
    record = alice.get(f"/games/{game_id}/export").json()
    assert verify_record(record).ok
    assert any(e["type"].endswith(".AbilityAssigned") for e in record["events"])
    replay = mallory.get(f"/games/{game_id}/replay", at=5).json()
    audit = staff.get(f"/games/{game_id}/audit").json()
    assert replay["hash"] == audit["events"][4]["hash"]
    assert replay["prev_hash"] == audit["events"][3]["hash"]


def test_advanced_commands_refused_with_their_codes(alice, bob):
    base = create_table(alice, seats=2)
    seat_all(base["id"], bob)
    assert base["options"]["advanced"] is False
    start(alice, base["id"])
    refused = alice.command(base["id"], {"type": "end_turn"})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_command"

    table = create_table(alice, seats=2, advanced=True)
    seat_all(table["id"], bob)
    doc = start(alice, table["id"])
    assert doc["table"]["options"]["advanced"] is True and doc["state"]["turn_seat"] == 0
    no_decision = alice.command(table["id"], {"type": "draw", "source": "deck"})
    assert no_decision.status_code == 422, no_decision.json()
    assert no_decision.json()["code"] in ("no_decision", "no_ability")
    for body in (
        alice.command(table["id"], {"type": "use_butcher", "cards": ["c01"]}),
        alice.command(table["id"], {"type": "end_turn"}),
    ):
        assert body.status_code == 422, body.json()
        assert body.json()["code"] in (
            "no_ability",
            "no_decision",
            "not_allowed_now",
            "card_not_in_hand",
        )


def test_ability_cards_in_a_stacked_deck_need_an_advanced_table(staff):
    response = staff.post("/tables", {"mode": "sandbox", "options": {"stacked_deck": ["a01"]}})
    assert response.status_code == 400
    assert "stacked_deck" in response.json()["extra"]["fields"]
