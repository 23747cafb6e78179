"""Whole games over HTTP, from table creation to the winner, with every response checked
for hidden information: no body sent to a viewer before the game ends names a card that
is in another seat's hand or in the deck (unless it has been seen face up since)."""

from __future__ import annotations

from random import Random

import pytest

from events.models import StoredEvent
from games.family_business.bots import HeuristicBot
from games.family_business.codec import encode_command
from games.service import game_load
from games.verify import verify_record
from tests.api.helpers import Player, card_ids, create_table, seat_all, start
from tests.windows import run_out, to_answer

pytestmark = pytest.mark.django_db


def public_cards(game_id) -> set[str]:
    """Cards that have been face up at some point: played, countered with, or discarded by
    a player who went out."""
    seen: set[str] = set()
    rows = StoredEvent.objects.filter(stream_id=game_id).values_list("type", "payload")
    for kind, payload in rows:
        if kind.endswith((".CardPlayed", ".CounterPlayed")):
            seen.add(payload["card"])
        elif kind.endswith(".PlayerOut"):
            seen.update(payload["discarded"])
        elif kind.endswith(".ButcherUsed"):  # advanced rules: discarded face up
            seen.update(payload["cards"])
        elif kind.endswith(".AbilityAssigned"):
            seen.add(payload["card"])
    return seen


class Watch:
    """Checks every body a viewer received against what that viewer may know now."""

    def __init__(self, game_id, seats: dict[str, int]) -> None:
        self.game_id = game_id
        self.seats = seats  # player name -> seat; anyone else is a spectator
        self.checked = 0

    def check(self, viewers: list[Player]) -> None:
        state = game_load(game_id=self.game_id).state
        public = public_cards(self.game_id)
        for player in viewers:
            bodies, player.bodies = player.bodies, []
            if state.over:
                continue
            seat = self.seats.get(player.name)
            secret = set(state.deck)
            for p in state.players:
                if p.seat != seat:
                    secret.update(p.hand)
            secret -= public
            for body in bodies:
                leaked = card_ids(body) & secret
                assert not leaked, f"{player.name} was shown {sorted(leaked)}: {body}"
                self.checked += 1


def choose(state, seat: int, seed: str) -> dict:
    """The heuristic bot's choice for a human seat, from the server's state."""
    choice = HeuristicBot().choose(state, seat, Random(seed))
    assert choice is not None
    return encode_command(choice)


def in_legal(command: dict, legal: list[dict]) -> bool:
    """The command is one of the options the state response offered."""
    kind = command["type"]
    if kind == "play" and command.get("discard"):
        kind = "discard"
    return any(
        option["command"] == kind and option.get("card") in (None, command.get("card"))
        for option in legal
    )


@pytest.mark.parametrize(
    ("humans", "bots"),
    [(3, ["heuristic", "random"]), (4, [])],
    ids=["3-humans-2-bots", "4-humans"],
)
def test_a_whole_game_over_http_never_shows_a_hidden_card(
    humans, bots, alice, bob, carol, dave, mallory, staff
):
    cast = [alice, bob, carol, dave][:humans]
    table = create_table(alice, seats=humans + len(bots), reaction_seconds=300)
    game_id = table["id"]
    seat_all(game_id, *cast[1:])
    for kind in bots:
        assert alice.post(f"/tables/{game_id}/bots", {"kind": kind}).status_code == 201
    first = start(bob, game_id)
    assert first["seat"] == 1 and first["state"]["viewer"] == 1
    seats = {p.name: i for i, p in enumerate(cast)}
    watch = Watch(game_id, seats)
    by_seat = dict(enumerate(cast))

    step = 0
    viewers = [*cast, mallory]
    while not (loaded := game_load(game_id=game_id)).state.over:
        step += 1
        assert step < 2000, "the game should have ended"
        if run_out(game_id, loaded.state):
            continue  # every seat passed (sealed): the window ran its time
        due = to_answer(game_id, loaded.state)
        seat = due[0]
        player = by_seat[seat]  # bots move inside the requests: only humans are awaited
        mine = player.state(game_id)
        command = choose(loaded.state, seat, f"{game_id}:{step}")
        assert in_legal(command, mine["state"]["legal"]), (command, mine["state"]["legal"])
        guard = {} if "window" in command else {"expected_version": mine["version"]}
        response = player.command(game_id, command, **guard)
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["state"]["viewer"] == seat
        appended = range(body["first_seq"], body["last_seq"] + 1) if body["first_seq"] else []
        assert [e["seq"] for e in body["events"]] == list(appended)  # none for a sealed pass
        if step % 5 == 0:
            # somebody not awaited tries to play; mallory (not seated) tries too
            now_due = to_answer(game_id, game_load(game_id=game_id).state)
            idle = next((p for s, p in by_seat.items() if s not in now_due), None)
            if idle is not None and not body["state"]["over"]:
                hand = idle.state(game_id)["state"]["players"][seats[idle.name]]["hand"]
                if hand:
                    refused = idle.command(game_id, {"type": "play", "card": hand[0]["id"]})
                    assert refused.status_code in (409, 422), refused.json()
            assert mallory.command(game_id, {"type": "resign"}).status_code == 403
            for viewer in viewers:
                viewer.state(game_id)
        if step % 15 == 0:
            for viewer in viewers:
                assert viewer.get(f"/games/{game_id}/events", after=0).status_code == 200
                at = max(1, body["version"] // 2)
                assert viewer.get(f"/games/{game_id}/replay", at=at).status_code == 200
        watch.check(viewers)
    assert watch.checked > 100

    # the end: everyone sees the winner, the feed, the revealed replay, the audit trail
    final = alice.state(game_id)
    assert final["state"]["over"] and final["state"]["winners"]
    assert final["table"]["status"] == "finished"
    assert final["state"]["seed"]
    version = final["version"]
    for viewer in [*cast, mallory, staff]:
        feed = viewer.get(f"/games/{game_id}/events", after=0, limit=1000).json()
        assert feed["revealed"] is True and feed["version"] == version
        assert [e["seq"] for e in feed["events"]] == list(range(1, version + 1))
        assert feed["events"][-1]["data"]["type"] == "GameEnded"
        assert feed["events"][1]["data"]["cards"]  # the setup shuffle, revealed
    early = mallory.get(f"/games/{game_id}/replay", at=10).json()
    assert early["at"] == 10 and early["state"]["revealed"] is True
    assert all("hand" in p for p in early["state"]["players"])
    assert len(early["state"]["deck"]) == early["state"]["deck_size"]
    audit = carol.get(f"/games/{game_id}/audit")
    assert audit.status_code == 200
    audit = audit.json()
    assert [e["seq"] for e in audit["events"]] == list(range(1, version + 1))
    assert audit["events"][0]["prev_hash"] == "0" * 64
    chain = audit["events"]
    assert all(a["hash"] == b["prev_hash"] for a, b in zip(chain, chain[1:], strict=False))
    outcomes = {c["outcome"] for c in audit["commands"]}
    assert outcomes == {"accepted", "refused"}
    assert all("ip" not in c["metadata"] for c in audit["commands"])
    by_users = [c for c in audit["commands"] if c["command"].get("type") != "start"]
    by_users = [c for c in by_users if c["actor"].startswith("user:")]
    assert by_users and all(c["metadata"]["request_id"] for c in by_users)
    assert mallory.get(f"/games/{game_id}/audit").status_code == 403
    record = alice.get(f"/games/{game_id}/export").json()
    assert verify_record(record).ok
    assert record["seed"] == final["state"]["seed"]


def test_the_scanner_matches_whole_card_id_values_only() -> None:
    assert card_ids({"a": ["c01", "xc02", {"b": "c56"}], "c03": 1, "n": "c5"}) == {"c01", "c56"}
    assert card_ids(["a01", "a10", "a11", "a00", "xa05"]) == {"a01", "a10"}
