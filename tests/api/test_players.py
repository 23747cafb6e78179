"""Players' profiles over HTTP (GET /players/{username}): ratings with mu, sigma and the
display rating, the rating history and recent games, valid against the OpenAPI schema's
Player component; an unknown player is a coded 404, never a 500."""

from __future__ import annotations

import jsonschema
import pytest
import yaml
from rest_framework.test import APIClient

from ratings.projector import catch_up
from tests.api.helpers import API
from tests.ratings.helpers import bot_game, resigned_game

pytestmark = pytest.mark.django_db

FB = "family_business"


@pytest.fixture(scope="module")
def player_schema(django_db_blocker) -> jsonschema.Draft202012Validator:
    with django_db_blocker.unblock():
        schema = yaml.safe_load(APIClient().get(f"{API}/schema").content)
    document = {"$ref": "#/components/schemas/Player", "components": schema["components"]}
    return jsonschema.Draft202012Validator(document)


def test_a_profile_shows_each_games_rating_its_history_and_recent_games(
    alice, bob, carol, mallory, player_schema
) -> None:
    first = resigned_game(FB, [alice.user, bob.user], resign=[1])  # alice wins
    second = resigned_game(FB, [alice.user, bob.user, carol.user], resign=[0, 2])  # bob wins
    bot_game("goofspiel", ["heuristic", "random"])  # nobody of the cast
    catch_up()
    response = mallory.get("/players/alice")
    assert response.status_code == 200, response.content
    profile = response.json()
    player_schema.validate(profile)
    assert profile["username"] == "alice"
    (rating,) = profile["ratings"]
    assert rating["game"] == FB and rating["title"] == "Family Business"
    assert rating["games"] == 2 and rating["sigma"] < 25 / 3
    assert rating["display"] == round(1000 + 40 * (rating["mu"] - 3 * rating["sigma"]))
    newest, oldest = profile["history"]
    assert (newest["table"], oldest["table"]) == (str(second.id), str(first.id))
    assert oldest["place"] == 1 and oldest["mu"] > oldest["mu_before"] == 25
    assert newest["place"] == 2 and newest["mu"] < newest["mu_before"] == oldest["mu"]
    assert newest["display"] == rating["display"]
    games = profile["recent_games"]
    assert [g["id"] for g in games] == [str(second.id), str(first.id)]
    assert [g["result"] for g in games] == ["lost", "won"]
    assert games[1]["seats"][1]["username"] == "bob" and games[1]["seat"] == 0
    assert games[0]["mode"] == "ranked" and games[0]["decided_by"] == "play"


def test_a_player_without_rated_games_has_an_empty_profile(alice, bob) -> None:
    profile = bob.get("/players/alice").json()
    assert profile["ratings"] == profile["history"] == profile["recent_games"] == []


@pytest.mark.parametrize(
    "name", ["nobody", "ALICE", "a" * 300, "ünïcode", "%00", "alice..", "'; drop table"]
)
def test_an_unknown_player_is_a_coded_404(alice, bob, name) -> None:
    response = bob.get(f"/players/{name}")
    assert response.status_code == 404, response.content
    body = response.json()
    assert body["code"] == "player_not_found" and body["message"]


def test_an_inactive_player_is_not_found_and_a_stranger_must_sign_in(alice, bob, anon) -> None:
    alice.user.is_active = False
    alice.user.save()
    assert bob.get("/players/alice").json()["code"] == "player_not_found"
    response = anon.get(f"{API}/players/bob")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
