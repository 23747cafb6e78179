"""Undo casual players can use (issue 29): a seat takes back a discard that made the next
seat draw. At a table of people the next seat is asked first (a takeback request); against
bots nobody is. The cards shown go back and the deck is put in a new order from a fresh
seed committed in the undo marker, which the exported record reveals and games.verify
replays. Ranked tables keep no undo (tests/api/test_commands.py)."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

from events.chain import GENESIS, chain_hash
from events.models import StoredEvent
from games.models import Table, TakebackRequest
from games.record import game_export
from games.service import game_load
from games.tasks import sweep_once
from games.verify import record_event_body, verify_record
from tests.api.helpers import Player, create_table, event_count, start, started_game

pytestmark = pytest.mark.django_db

UNDONE = "stream.Undone"


def hand(player: Player, game_id: str, seat: int) -> list[str]:
    return [c["id"] for c in player.state(game_id)["state"]["players"][seat]["hand"]]


def discard(player: Player, game_id: str, seat: int) -> Any:
    played = player.command(
        game_id, {"type": "play", "card": hand(player, game_id, seat)[0], "discard": True}
    )
    assert played.status_code == 201, played.json()
    assert played.json()["events"][-1]["data"]["type"] == "CardsDrawn"  # the next seat drew
    return played


def undo(player: Player, game_id: str) -> Any:
    return player.post(f"/games/{game_id}/undo", key=str(uuid.uuid4()))


def answer(player: Player, game_id: str, request_id: str, accept: bool) -> Any:
    return player.post(f"/games/{game_id}/takeback/{request_id}", {"accept": accept})


def deck(game_id: str) -> tuple[str, ...]:
    return tuple(game_load(game_id=uuid.UUID(game_id)).state.deck)


def rechain(record: dict[str, Any]) -> None:
    """Re-hash a tampered record's chain, as a forger would: only the engine can tell."""
    prev = GENESIS
    for e in record["events"]:
        e["prev_hash"] = prev
        e["hash"] = chain_hash(prev, record_event_body(record["stream_id"], e))
        e.pop("data", None)
        prev = e["hash"]


def test_a_discard_that_made_the_next_seat_draw_is_taken_back_with_its_consent(
    alice, bob, carol
) -> None:
    game = started_game(alice, bob, carol)
    before = alice.state(game)
    deck_before = deck(game)
    bob_hand = hand(bob, game, 1)
    played = discard(alice, game, 0)
    assert played.json()["undo_available"] is True
    count = event_count(game)

    asked = undo(alice, game)
    assert asked.status_code == 202, asked.json()
    request = asked.json()["takeback"]
    assert (request["seat"], request["responders"], request["state"]) == (0, [1], "open")
    assert event_count(game) == count  # asking appends nothing
    assert bob.state(game)["takeback"]["id"] == request["id"]
    assert carol.state(game)["takeback"]["responders"] == [1]

    not_asked = answer(carol, game, request["id"], True)
    assert (not_asked.status_code, not_asked.json()["code"]) == (403, "not_a_responder")
    again = undo(alice, game)
    assert (again.status_code, again.json()["code"]) == (409, "takeback_pending")

    accepted = answer(bob, game, request["id"], True)
    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["undone"] is True
    assert accepted.json()["takeback"]["state"] == "accepted"
    rows = list(StoredEvent.objects.filter(stream_id=game, seq__gt=count).order_by("seq"))
    assert [r.type for r in rows] == [UNDONE, "family_business.DeckShuffled"]
    assert len(rows[0].payload["reshuffle_seed_hash"]) == 64
    assert rows[1].payload["reason"] == "undo" and rows[1].actor == f"user:{alice.user.pk}"

    after = alice.state(game)
    assert after["state"]["turn_seat"] == 0 and after["takeback"] is None
    assert after["state"]["players"][0]["hand"] == before["state"]["players"][0]["hand"]
    assert hand(bob, game, 1) == bob_hand  # bob's drawn cards went back
    assert after["state"]["deck_size"] == before["state"]["deck_size"]
    assert sorted(deck(game)) == sorted(deck_before)  # the same cards ...
    assert deck(game) != deck_before  # ... in a new order, so bob learnt nothing of it
    # nobody sees the new order in the feed
    feed = bob.get(f"/games/{game}/events", after=count)
    shuffled = [e for e in feed.json()["events"] if e["type"].endswith("DeckShuffled")]
    assert shuffled and shuffled[0]["data"]["cards"] is None


def test_a_declined_or_overtaken_request_changes_nothing(alice, bob, carol) -> None:
    game = started_game(alice, bob, carol)
    discard(alice, game, 0)
    count = event_count(game)
    request = undo(alice, game).json()["takeback"]
    declined = answer(bob, game, request["id"], False)
    assert declined.status_code == 200 and declined.json()["takeback"]["state"] == "declined"
    assert declined.json()["undone"] is False
    assert event_count(game) == count and bob.state(game)["takeback"] is None
    late = answer(bob, game, request["id"], True)
    assert (late.status_code, late.json()["code"]) == (409, "takeback_closed")

    # asked again, then bob plays instead of answering: the request is void
    request = undo(alice, game).json()["takeback"]
    discard(bob, game, 1)
    assert alice.state(game)["takeback"] is None
    void = answer(bob, game, request["id"], True)
    assert (void.status_code, void.json()["code"]) == (409, "takeback_closed")
    assert TakebackRequest.objects.get(id=request["id"]).state == "void"
    gone = undo(alice, game)
    assert (gone.status_code, gone.json()["code"]) == (409, "other_seat_acted")


def test_an_expired_request_changes_nothing_and_the_sweeper_closes_it(alice, bob) -> None:
    game = started_game(alice, bob)
    discard(alice, game, 0)
    count = event_count(game)
    request = undo(alice, game).json()["takeback"]
    TakebackRequest.objects.filter(id=request["id"]).update(deadline_ms=1)
    assert bob.state(game)["takeback"] is None
    assert sweep_once()["takebacks"] == 1
    assert TakebackRequest.objects.get(id=request["id"]).state == "expired"
    late = answer(bob, game, request["id"], True)
    assert (late.status_code, late.json()["code"]) == (409, "takeback_closed")
    assert event_count(game) == count


def test_against_a_bot_the_undo_needs_nobodys_consent(alice, settings) -> None:
    settings.FB_BOTS_INLINE = False  # the bot waits for its timer, which tests never send
    table = create_table(alice, seats=2)
    assert alice.post(f"/tables/{table['id']}/bots", {"kind": "heuristic"}).status_code == 201
    start(alice, table["id"])
    game = table["id"]
    deck_before = deck(game)
    played = discard(alice, game, 0)
    assert played.json()["state"]["turn_seat"] == 1  # the bot's turn: it drew
    undone = undo(alice, game)
    assert undone.status_code == 201, undone.json()
    types = [e["type"] for e in undone.json()["events"]]
    assert types == [UNDONE, "family_business.DeckShuffled"]
    assert undone.json()["state"]["turn_seat"] == 0
    assert sorted(deck(game)) == sorted(deck_before) and deck(game) != deck_before


def test_the_record_of_an_undo_with_its_reshuffle_verifies_offline_and_tampering_fails(
    alice, bob
) -> None:
    game = started_game(alice, bob)
    discard(alice, game, 0)
    request = undo(alice, game).json()["takeback"]
    assert answer(bob, game, request["id"], True).json()["undone"] is True
    discard(alice, game, 0)  # the game goes on from the new deck
    discard(bob, game, 1)
    table = Table.objects.get(id=game)
    assert len(table.reseeds) == 1
    record = game_export(table)
    assert record["reseeds"] == table.reseeds
    report = verify_record(record)
    assert report.ok, report.problems

    hidden = game_export(table, reveal_seed=False)  # a running game's: no seeds
    assert hidden["reseeds"] is None

    wrong_seed = copy.deepcopy(record)
    wrong_seed["reseeds"] = ["0" * 32]
    assert "reshuffle_seed_hash" in " ".join(verify_record(wrong_seed).problems)

    missing = copy.deepcopy(record)
    missing["reseeds"] = []
    assert not verify_record(missing).ok

    # a deck order not drawn from the committed seed, the chain re-hashed by a forger
    forged = copy.deepcopy(record)
    shuffle = next(e for e in forged["events"] if e["payload"].get("reason") == "undo")
    shuffle["payload"]["cards"] = list(reversed(shuffle["payload"]["cards"]))
    rechain(forged)
    problems = verify_record(forged).problems
    assert problems and f"seq {shuffle['seq']}" in problems[0]

    extra = copy.deepcopy(record)
    extra["reseeds"] = [*record["reseeds"], "1" * 32]
    assert not verify_record(extra).ok


def test_the_answers_conform_to_the_published_schema(alice, bob) -> None:
    """The 202 takeback, the answer, the game document's ``takeback`` and the undo's
    result (marker with its seed hash, then the reshuffle) as the OpenAPI schema says."""
    import jsonschema
    import yaml
    from rest_framework.test import APIClient

    from tests.api.helpers import API

    schema = yaml.safe_load(APIClient().get(f"{API}/schema").content)

    def check(component: str, body: Any) -> None:
        ref = {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
        jsonschema.Draft202012Validator(ref).validate(body)

    game = started_game(alice, bob)
    discard(alice, game, 0)
    asked = undo(alice, game).json()
    check("TakebackAsked", asked)
    check("Game", bob.state(game))
    answered = answer(bob, game, asked["takeback"]["id"], True).json()
    check("TakebackAnswered", answered)
    feed = alice.get(f"/games/{game}/events", after=0).json()
    check("Feed", feed)
    assert any("reshuffle_seed_hash" in e["data"] for e in feed["events"])
