"""Infamy over HTTP, like any game: a table with the game's options, whole games whose
every answer is scanned for another seat's sealed sector or schemes, staff's audit and
export refused while a sector card is sealed, undo stopped at the reveal, the export
verified offline, and bad input answered with 4xx codes and nothing appended."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from events.models import StoredEvent
from games.infamy.game import GAME
from games.service import game_load
from games.verify import verify_record
from tests.api.helpers import Player, create_table, event_count, seat_all, start

SCHEME_ID = re.compile(r"^[htm](0[1-9]|1[0-9]|20)$")


def scheme_ids(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and SCHEME_ID.match(item):
            found.add(item)
    return found


def sealed_sectors(value: Any, viewer: int | None) -> list[Any]:
    """Every place in ``value`` that names another seat's sector choice: an object with a
    ``seat`` other than ``viewer`` and a non-null ``sector``,
    ``accomplice_sector`` or ``accomplice``, or a ``choose_sector`` command. The viewer's
    own ``legal`` options (whole commands it may send) name no other seat's choice."""
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            seat = item.get("seat")
            named = any(item.get(k) is not None for k in ("sector", "accomplice_sector"))
            named = named or isinstance(item.get("accomplice"), int)
            if seat is not None and seat != viewer and named:
                found.append(item)
            if item.get("type") == "choose_sector" and item.get("seat") != viewer:
                found.append(item)
            stack.extend(v for k, v in item.items() if k != "legal")
        elif isinstance(item, list):
            stack.extend(item)
    return found


def known_schemes(game_id: Any, seat: int | None) -> set[str]:
    """Schemes ``seat`` has seen: face up at some point (played, discarded), or drawn by
    it, or stolen from or by it (a scheme it saw may be in another hand now)."""
    seen: set[str] = set()
    for kind, payload in StoredEvent.objects.filter(stream_id=game_id).values_list(
        "type", "payload"
    ):
        if kind.endswith((".SchemePlayed", ".SchemeDiscarded")):
            seen.add(payload["card"])
        elif kind.endswith(".SchemesDrawn") and payload["seat"] == seat:
            seen.update(payload["cards"])
        elif kind.endswith(".SchemeStolen") and seat in (payload["from"], payload["to"]):
            seen.add(payload["card"])
    return seen


class Watch:
    """Checks every body each viewer received against what that viewer may know now."""

    def __init__(self, game_id: Any, seats: dict[str, int]) -> None:
        self.game_id = game_id
        self.seats = seats
        self.checked = 0
        self.sealed_checked = 0

    def check(self, viewers: list[Player]) -> None:
        state = game_load(game_id=self.game_id).state
        sealed = state.step == "sector" and not state.over
        for player in viewers:
            bodies, player.bodies = player.bodies, []
            if state.over:
                continue
            seat = self.seats.get(player.name)
            secret: set[str] = set()
            for p in state.players:
                if p.seat != seat and player.name != "staff":
                    secret.update(p.hand)
            secret -= known_schemes(self.game_id, seat)
            for body in bodies:
                leaked = scheme_ids(body) & secret
                assert not leaked, f"{player.name} was shown schemes {sorted(leaked)}: {body}"
                if sealed:
                    shown = sealed_sectors(body, seat)
                    assert not shown, f"{player.name} was shown a sealed choice: {shown}"
                    self.sealed_checked += 1
                self.checked += 1


def bot_move(game_id: Any, seat: int, seed: str) -> dict[str, Any]:
    """The heuristic bot's choice for a human seat (it reads only that seat's view)."""
    loaded = game_load(game_id=game_id)
    command = GAME.bot_command(loaded.state, seat, "heuristic", seed)
    assert command is not None
    return command


def in_legal(command: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """``command`` is one of the whole commands ``legal`` offers (a variant, or the send of
    an option with one form)."""
    for option in legal:
        if option["command"] == command["type"]:
            return command in option.get("variants", [option["send"]])
    return False


def infamy_table(creator: Player, seats: int, **options: Any) -> dict[str, Any]:
    return create_table(creator, game="infamy", seats=seats, options=options)


def test_a_whole_game_over_http_never_shows_a_sealed_choice_or_another_hand(
    alice, bob, carol, mallory, staff
):
    cast = [alice, bob, carol]
    table = infamy_table(alice, 4, sector_seconds=600)
    game_id = table["id"]
    assert (table["game"], table["options"]["sector_seconds"]) == ("infamy", 600)
    seat_all(game_id, bob, carol)
    assert alice.post(f"/tables/{game_id}/bots", {"kind": "heuristic"}).status_code == 201
    first = start(carol, game_id)
    assert first["state"]["game"] == "infamy" and first["state"]["reconstructed"] is True
    seats = {p.name: i for i, p in enumerate(cast)}
    watch = Watch(game_id, seats)
    viewers = [*cast, mallory, staff]
    audits_refused = reveals = 0
    for step in range(3000):
        game = alice.state(game_id)
        if game["state"]["over"]:
            break
        awaiting = [s for s in game["state"]["awaiting"] if s < len(cast)]
        assert awaiting, game["state"]["awaiting"]  # the bot moves in the request
        seat = awaiting[0]
        player = cast[seat]
        state = player.state(game_id)
        command = bot_move(game_id, seat, f"{game_id}:{step}")
        assert in_legal(command, state["state"]["legal"]), (command, state["state"]["legal"])
        response = player.command(game_id, command, expected_version=state["version"])
        assert response.status_code == 201, response.content
        if command["type"] == "choose_sector":
            # the step stays sealed while anyone still chooses: every viewer reads it all
            after = response.json()
            if after["state"]["step"] == "sector":
                for viewer in viewers:
                    viewer.get(f"/games/{game_id}")
                    viewer.get(f"/games/{game_id}/events", after=0)
                    viewer.get(f"/games/{game_id}/replay")
                refused = staff.get(f"/games/{game_id}/audit")
                assert refused.status_code == 403, refused.content
                assert refused.json()["code"] == "sealed_choice_pending"
                refused = staff.get(f"/games/{game_id}/export")
                assert refused.json()["code"] == "sealed_choice_pending"
                audits_refused += 1
                # a second commitment is refused without naming anyone's card
                again = player.command(game_id, command)
                assert again.json()["code"] == "already_chosen"
            else:
                reveals += 1
        watch.check(viewers)
    else:
        pytest.fail("the game did not end")
    assert audits_refused >= 3 and reveals >= 3
    assert watch.sealed_checked > 50, watch.sealed_checked
    # after the end: staff's audit and a player's export; the record verifies offline
    assert staff.get(f"/games/{game_id}/audit").status_code == 200
    record = bob.get(f"/games/{game_id}/export")
    assert record.status_code == 200
    report = verify_record(record.json())
    assert report.ok, report.problems
    replay = mallory.get(f"/games/{game_id}/replay", at=30).json()
    assert all("hand" in p for p in replay["state"]["players"])  # all revealed at the end


def sector_step(game_id: str, cast: list[Player]) -> None:
    """Play (with the bot's choices) until the sealed sector step awaits every seat."""
    for step in range(400):
        game = cast[0].state(game_id)
        if game["state"]["step"] == "sector":
            return
        seat = game["state"]["awaiting"][0]
        command = bot_move(game_id, seat, f"{game_id}:{step}")
        assert cast[seat].command(game_id, command).status_code == 201
    pytest.fail("no sector step")


def test_a_committed_choice_cannot_be_undone_once_another_choice_is_revealed(alice, bob, carol):
    cast = [alice, bob, carol]
    table = infamy_table(alice, 3)
    game_id = table["id"]
    assert table["undo"] == "own_last"
    seat_all(game_id, bob, carol)
    start(alice, game_id)
    sector_step(game_id, cast)
    choices = {}
    for seat, player in enumerate(cast):
        legal = player.state(game_id)["state"]["legal"]
        (option,) = [o for o in legal if o["command"] == "choose_sector"]
        choices[seat] = option["variants"][0]  # a whole command, sent as it is
    # alice commits and may take it back while nobody else has acted: nothing was shown
    assert alice.command(game_id, choices[0]).status_code == 201
    assert alice.state(game_id)["undo_available"] is True
    assert alice.post(f"/games/{game_id}/undo", key=str(uuid.uuid4())).status_code == 201
    assert alice.state(game_id)["state"]["players"][0]["chosen"] is False
    assert alice.command(game_id, choices[0]).status_code == 201
    # bob commits: alice's choice is no longer her last move to take back
    assert bob.command(game_id, choices[1]).status_code == 201
    refused = alice.post(f"/games/{game_id}/undo", key=str(uuid.uuid4()))
    assert refused.status_code in (409, 422) and refused.json()["code"] == "other_seat_acted"
    # carol's commitment reveals every card: nobody may take it back
    version = event_count(game_id)
    assert carol.command(game_id, choices[2]).status_code == 201
    assert carol.state(game_id)["undo_available"] is False
    refused = carol.post(f"/games/{game_id}/undo", key=str(uuid.uuid4()))
    assert refused.json()["code"] in ("undo_after_reveal", "undo_reveals_cards"), refused.json()
    types = [
        t.split(".")[-1]
        for t in StoredEvent.objects.filter(stream_id=game_id, seq__gt=version)
        .order_by("seq")
        .values_list("type", flat=True)
    ]
    assert "SectorsRevealed" in types


def test_bad_input_gets_a_4xx_code_and_appends_nothing(alice, bob, carol, mallory):
    for options, field in (
        ({"no_such": 1}, "no_such"),
        ({"sector_seconds": 0}, "sector_seconds"),
        ({"sector_seconds": "60"}, "sector_seconds"),
        ({"colours": ["black"]}, "colours"),
        ({"turn_seconds": 30}, "turn_seconds"),
        ({"stacked": {"first_seat": 0}}, "stacked"),  # sandbox tables only
    ):
        refused = alice.post("/tables", {"game": "infamy", "seats": 3, "options": options})
        assert refused.status_code == 400, (options, refused.content)
        body = refused.json()
        assert body["code"] == "invalid" and field in body["extra"]["fields"], body
    refused = alice.post("/tables", {"game": "infamy", "seats": 2})
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
    assert "seats" in refused.json()["extra"]["fields"]
    refused = alice.post("/tables", {"game": "chess", "seats": 3})
    assert refused.status_code == 400

    table = infamy_table(alice, 3)
    game_id = table["id"]
    seat_all(game_id, bob, carol)
    start(alice, game_id)
    cast = [alice, bob, carol]
    game = alice.state(game_id)
    turn = game["state"]["awaiting"][0]
    other = cast[(turn + 1) % 3]
    before = event_count(game_id)
    for player, command, status, code in (
        (cast[turn], {"type": "fly"}, 400, "bad_command"),
        (cast[turn], {"type": "bid", "total": "3"}, 400, "bad_command"),
        (cast[turn], {"type": "bid", "total": 3, "extra": 1}, 400, "bad_command"),
        (cast[turn], {"type": "bid", "total": 0}, 422, "bid_too_low"),
        (cast[turn], {"type": "bid", "total": 40}, 422, "not_enough_bribes"),
        (cast[turn], {"type": "choose_sector", "sector": 3}, 422, "not_allowed_now"),
        (cast[turn], {"type": "timeout"}, 403, "system_only"),
        (other, {"type": "pass"}, 422, "not_your_turn"),
        (mallory, {"type": "pass"}, 403, None),
    ):
        response = player.command(game_id, command)
        assert response.status_code == status, (command, response.content)
        if code is not None:
            assert response.json()["code"] == code, response.json()
    assert event_count(game_id) == before
    stale = cast[turn].command(game_id, {"type": "pass"}, expected_version=before - 1)
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    assert event_count(game_id) == before


def test_a_sandboxs_stacked_decks_stay_secret(alice, staff):
    stacked = {"first_seat": 1, "watchdog_sector": 2, "jobs": ["j01", "j02"]}
    response = staff.post(
        "/tables",
        {
            "game": "infamy",
            "seats": 3,
            "mode": "sandbox",
            "seed": "stacked",
            "join": False,
            "options": {"stacked": stacked},
        },
    )
    assert response.status_code == 201, response.content
    table = response.json()
    assert "stacked" not in table["options"]
    shown = alice.get(f"/tables/{table['id']}").json()
    assert "stacked" not in shown["options"] and "j01" not in str(shown)


def test_a_replay_at_any_event_answers_even_between_two_events_of_a_command(alice, bob, carol):
    """A command's events fold one by one; a replay may stop in between (the auction won,
    the next step not started): the seat's replay there is a 200, not a 500."""
    cast = [alice, bob, carol]
    game_id = infamy_table(alice, 3)["id"]
    seat_all(game_id, bob, carol)
    start(alice, game_id)
    for step in range(60):
        seat = alice.state(game_id)["state"]["awaiting"][0]
        command = bot_move(game_id, seat, f"{game_id}:{step}")
        assert cast[seat].command(game_id, command).status_code == 201
    answers = {at: alice.get(f"/games/{game_id}/replay", at=at).status_code
               for at in range(1, event_count(game_id) + 1)}  # fmt: skip
    assert {at: code for at, code in answers.items() if code != 200} == {}
