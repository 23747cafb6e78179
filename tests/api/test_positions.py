"""Start positions over the API, for every game with them: a sandbox table created from a
position document plays on from it to the end (bots, or a player practising against a
bot) and its export verifies offline; bad documents are 400 ``bad_position`` naming the
field, with nothing created; a director (staff) opens a sandbox at any point of a
recorded game, and nobody else may."""

from __future__ import annotations

from typing import Any

import pytest

from games.contract_schema import prefix_of
from games.loading import game_load
from games.models import Table
from games.registry import game_names, get_game
from games.verify import verify_record
from tests.api.helpers import Player, create_table, start
from tests.api.test_contract import schema as contract_schema
from tests.api.test_contract import validator
from tests.generic.random_play import play

schema = contract_schema  # the API schema, once for the module (a fixture)

GAMES = list(game_names())


def source_position(game: str, seats: int, cut: float = 0.5) -> dict[str, Any]:
    """The position of a bot game of ``game`` (on the engine alone) at a running point."""
    definition = get_game(game)
    played = play(definition, seats, f"api-positions:{game}", ["heuristic"] * seats, commands=200)
    running = [m for m in played.moves if not definition.status(played.state_after(m.last)).over]
    return definition.position_of(played.state_after(running[int(cut * (len(running) - 1))].last))


def bots_at(player: Player, table_id: str, seats: range) -> None:
    for seat in seats:
        added = player.post(f"/tables/{table_id}/bots", {"kind": "heuristic", "position": seat})
        assert added.status_code == 201, added.content


def export_verifies(staff: Player, game_id: str) -> dict[str, Any]:
    record = staff.get(f"/games/{game_id}/export").json()
    report = verify_record(record)
    assert report.ok, report.problems
    return record


@pytest.mark.parametrize("game", GAMES)
def test_a_sandbox_from_a_position_plays_on_to_the_end_and_verifies(staff, game) -> None:
    definition = get_game(game)
    seats = definition.min_players
    doc = source_position(game, seats)
    table = create_table(
        staff, game=game, mode="sandbox", seats=seats, join=False, options={"position": doc}
    )
    assert "position" not in table["options"]  # hidden cards: never in a table's options
    bots_at(staff, table["id"], range(seats))
    start(staff, table["id"])
    loaded = game_load(game_id=table["id"])
    assert definition.status(loaded.state).over  # the bots played it to its end
    record = export_verifies(staff, table["id"])
    started = record["events"][0]["payload"]
    assert started["position"] == definition.validate_position(doc, seats)
    # the start is the position: the game folded from the first event alone is there
    at_start = game_load(game_id=table["id"], upto=1).state
    assert definition.position_of(at_start) == started["position"]


@pytest.mark.parametrize("game", GAMES)
def test_a_player_practises_a_position_against_a_bot(alice, mallory, staff, game) -> None:
    """Not staff: a sandbox from a position is open to players (unranked, no seed of
    theirs); a seed or stacked deck stays staff only, and so does a sandbox without one."""
    definition = get_game(game)
    seats = definition.min_players
    doc = source_position(game, seats, 0.3)
    refused = alice.post("/tables", {"game": game, "mode": "sandbox", "seats": seats})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    seeded = alice.post(
        "/tables",
        {
            "game": game,
            "mode": "sandbox",
            "seats": seats,
            "seed": "s",
            "options": {"position": doc},
        },
    )
    assert (seeded.status_code, seeded.json()["code"]) == (403, "forbidden")
    table = create_table(
        alice, game=game, mode="sandbox", seats=seats, position=0, options={"position": doc}
    )
    assert table["mode"] == "sandbox"
    bots_at(alice, table["id"], range(1, seats))
    start(alice, table["id"])

    # what alice may not know of the position (the bot's hand, the deck's order) is hidden
    # from her in the first event, as in a dealt game; staff who do not play see it
    def first(player: Player) -> dict[str, Any]:
        return player.get(f"/games/{table['id']}/events", after=0).json()["events"][0]["data"]

    assert first(alice)["position"] != first(staff)["position"]
    assert "seed" not in first(mallory)
    moves = 0
    for _ in range(500):
        state = alice.state(table["id"])["state"]
        legal = [
            o for o in state.get("legal", []) if o.get("ready") and o["send"]["type"] != "resign"
        ]
        if state["over"] or not legal:
            break
        sent = alice.command(table["id"], legal[0]["send"])
        assert sent.status_code in (200, 201), sent.content
        moves += 1
    assert moves and alice.state(table["id"])["state"]["over"]
    export_verifies(staff, table["id"])


@pytest.mark.parametrize("game", GAMES)
def test_positions_conform_to_the_games_position_component(schema, game) -> None:
    """A position document is a valid `<Game>Position`, and so is a positioned game's
    first event as each viewer sees it (in a valid `<Game>EventData`)."""
    definition = get_game(game)
    prefix = prefix_of(game)
    position_ok = validator(schema, f"{prefix}Position")
    event_ok = validator(schema, f"{prefix}EventData")
    seats = definition.min_players
    doc = source_position(game, seats)
    position_ok.validate(doc)
    played = play(definition, seats, "schema", ["heuristic"] * seats, options={"position": doc})
    for viewer in [*range(seats), "spectator", "staff"]:
        shown = definition.redact_event(played.events[0], viewer)
        event_ok.validate(shown)
        position_ok.validate(shown["position"])


BAD: dict[str, list[tuple[Any, str]]] = {
    "goofspiel": [
        (lambda d: {**d, "round": 0}, "round"),
        (
            lambda d: {**d, "hands": [[d["hands"][0][0], *d["hands"][0][:-1]], d["hands"][1]]},
            "hands.0.1",
        ),
        (lambda d: {**d, "bids": [99, None]}, "bids.0"),
        (lambda d: {**d, "prizes_left": [d["prize"], *d["prizes_left"][1:]]}, "prizes_left.0"),
        (lambda d: {**d, "colour": "red"}, "colour"),
        (lambda d: {**d, "rules_version": 99}, "rules_version"),
        (lambda d: {k: v for k, v in d.items() if k != "scores"}, "scores"),
        (lambda d: [], "position"),
    ],
    "family_business": [
        (lambda d: {**d, "turn_seat": 5}, "turn_seat"),
        (lambda d: {**d, "deck": ["c99", *d["deck"][1:]]}, "deck.0"),
        (lambda d: {**d, "discard": [d["deck"][0], *d["discard"]]}, "discard.0"),
        (lambda d: {**d, "deck": d["deck"][1:]}, "deck"),
        (lambda d: _player(d, 1, family=d["players"][0]["family"]), "players.1.family"),
        (lambda d: _player(d, 0, crew=[d["players"][1]["crew"][0]]), "players.0.crew.0"),
        (lambda d: _player(d, 0, hand="c01"), "players.0.hand"),
        (lambda d: {**d, "mob_war": 3}, "mob_war"),
        (lambda d: {**d, "players": d["players"][:1]}, "players"),
        (lambda d: {**d, "advanced": "yes"}, "advanced"),
    ],
    "infamy": [
        (lambda d: {**d, "step": "nap"}, "step"),
        (lambda d: _player(d, 1, colour=d["players"][0]["colour"]), "players.1.colour"),
        (lambda d: _player(d, 0, weapon="1"), "players.0.weapon"),
        (lambda d: {**d, "track": ["zz"]}, "track.0"),
        (lambda d: {**d, "job_deck": d["job_deck"][1:]}, "job_deck"),
        (lambda d: {**d, "players": d["players"][:2]}, "players"),
        (lambda d: {**d, "rules_version": 0}, "rules_version"),
        (lambda d: {k: v for k, v in d.items() if k != "step"}, "step"),
    ],
    "scarface": [
        (lambda d: {**d, "step": "nap"}, "step"),
        (lambda d: _player(d, 1, gang=d["players"][0]["gang"]), "players.1.gang"),
        (lambda d: _player(d, 0, money="10"), "players.0.money"),
        (lambda d: {**d, "job_deck": ["j99", *d["job_deck"][1:]]}, "job_deck.0"),
        (lambda d: {**d, "job_discard": [d["job_deck"][0], *d["job_discard"]]}, "job_discard.0"),
        (lambda d: {**d, "news_deck": d["news_deck"][:-1]}, "news_deck"),
        (lambda d: {**d, "players": d["players"][:1]}, "players"),
        (lambda d: {**d, "rules_version": 0}, "rules_version"),
        (lambda d: {k: v for k, v in d.items() if k != "kind"}, "kind"),
    ],
}


def _player(doc: dict[str, Any], seat: int, **changes: Any) -> dict[str, Any]:
    players = [dict(p) for p in doc["players"]]
    players[seat].update(changes)
    return {**doc, "players": players}


@pytest.mark.parametrize(("game", "case"), [(g, i) for g in GAMES for i in range(len(BAD[g]))])
def test_a_bad_position_is_400_naming_the_field_and_creates_nothing(staff, game, case) -> None:
    spoil, field = BAD[game][case]
    seats = get_game(game).min_players
    doc = spoil(source_position(game, seats))
    response = staff.post(
        "/tables", {"game": game, "mode": "sandbox", "seats": seats, "options": {"position": doc}}
    )
    body = response.json()
    assert (response.status_code, body["code"]) == (400, "bad_position"), body
    assert body["extra"]["field"] == field, body
    assert body["message"]
    assert not Table.objects.exists()


@pytest.mark.parametrize("game", GAMES)
def test_a_position_is_for_sandbox_tables_only_and_says_its_own_options(staff, game) -> None:
    seats = get_game(game).min_players
    doc = source_position(game, seats)
    body = {"game": game, "seats": seats, "options": {"position": doc}}
    response = staff.post("/tables", {**body, "mode": "casual"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "position" in response.json()["extra"]["fields"]
    # an option the position says itself (a game with none a person sets: its first option)
    other = next((o.name for o in get_game(game).table_options), "players")
    mixed = {**body, "mode": "sandbox", "options": {"position": doc, other: 5}}
    response = staff.post("/tables", mixed)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert not Table.objects.exists()


def test_staff_seated_at_a_game_open_no_sandbox_of_it(staff) -> None:
    """Seated, staff are a player there: a sandbox would show them the others' hands."""
    table = create_table(staff, game="goofspiel", seats=2)
    bots_at(staff, table["id"], range(1, 2))
    start(staff, table["id"])
    refused = staff.post(f"/games/{table['id']}/sandbox", {"at": 2})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    assert not Table.objects.filter(mode="sandbox").exists()


def recorded_game(staff: Player, game: str) -> tuple[str, list[dict[str, Any]]]:
    """A finished casual bot game (the bots play in the request) and its commands."""
    seats = get_game(game).min_players
    table = create_table(staff, game=game, seats=seats, join=False)
    bots_at(staff, table["id"], range(seats))
    start(staff, table["id"])
    commands = staff.get(f"/games/{table['id']}/audit").json()["commands"]
    return table["id"], [c for c in commands if c["outcome"] == "accepted"]


@pytest.mark.parametrize("game", GAMES)
def test_a_director_opens_a_sandbox_at_a_point_of_a_recorded_game(staff, alice, game) -> None:
    definition = get_game(game)
    game_id, commands = recorded_game(staff, game)
    at = commands[len(commands) // 2]["last_seq"]
    response = staff.post(f"/games/{game_id}/sandbox", {"at": at})
    assert response.status_code == 201, response.content
    table = response.json()
    assert (table["mode"], table["game"], table["status"]) == ("sandbox", game, "open")
    bots_at(staff, table["id"], range(definition.min_players))
    start(staff, table["id"])
    then = game_load(game_id=game_id, upto=at).state
    now = game_load(game_id=table["id"], upto=1).state
    assert definition.position_of(now) == definition.position_of(then)
    export_verifies(staff, table["id"])
    # refused: players, mid-command points, the end, nonsense
    refused = alice.post(f"/games/{game_id}/sandbox", {"at": at})
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    ends = {c["last_seq"] for c in commands}
    middle = next(s for s in range(1, max(ends)) if s not in ends)
    for bad_at in (middle, max(ends), max(ends) + 5):
        refused = staff.post(f"/games/{game_id}/sandbox", {"at": bad_at})
        body = refused.json()
        assert (refused.status_code, body["code"], body["extra"]["field"]) == (
            400,
            "bad_position",
            "at",
        ), body
    invalid = staff.post(f"/games/{game_id}/sandbox", {"at": "x"})
    assert (invalid.status_code, invalid.json()["code"]) == (400, "invalid")
    assert Table.objects.filter(mode="sandbox").count() == 1


def test_no_sandbox_while_a_sealed_choice_waits_for_its_reveal(alice, staff) -> None:
    """The position would show the committed sector cards (hidden from staff too until
    the reveal): refused as the audit and export are, and nothing is created."""
    table = create_table(alice, game="infamy", seats=3)
    bots_at(alice, table["id"], range(1, 3))
    start(alice, table["id"])
    for _ in range(300):
        state = alice.state(table["id"])
        if get_game("infamy").status(game_load(game_id=table["id"]).state).sealed:
            break
        legal = [o for o in state["state"]["legal"] if o.get("ready")]
        sent = alice.command(table["id"], legal[0]["send"], expected_version=state["version"])
        assert sent.status_code in (200, 201), sent.content
    else:
        raise AssertionError("no sealed step reached")
    version = staff.get(f"/games/{table['id']}/audit")
    assert (version.status_code, version.json()["code"]) == (403, "sealed_choice_pending")
    at = game_load(game_id=table["id"]).version
    refused = staff.post(f"/games/{table['id']}/sandbox", {"at": at})
    assert (refused.status_code, refused.json()["code"]) == (403, "sealed_choice_pending")
    assert not Table.objects.filter(mode="sandbox").exists()
