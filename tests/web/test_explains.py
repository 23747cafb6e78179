"""Every game explains itself in the web (no browser): a rules page per registered game,
rendered from the document it names; the lobby lists every registered game with its seat
range, options and rules; every table page shows its game's goal and links its rules."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from games.models import Table
from games.registry import GAMES
from tests.factories import UserFactory
from web.rules import render

pytestmark = pytest.mark.django_db

GAME_NAMES = sorted(GAMES)


def text_of(page: str) -> str:
    return html_lib.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_has_a_rules_page_rendered_from_its_document(client, settings, name):
    game = GAMES[name]
    document = (settings.BASE_DIR / game.rules_document).read_text()
    heading = re.search(r"^# (.+)$", document, re.M).group(1)
    sections = re.findall(r"^## (.+)$", document, re.M)
    response = client.get(f"/games/{name}/rules")  # anyone may read the rules
    assert response.status_code == 200
    page = response.content.decode()
    headings = [text_of(h) for h in re.findall(r"<h[12] id=\"[^\"]+\">(.*?)</h[12]>", page)]
    plain = [re.sub(r"[`*]", "", h) for h in (heading, *sections)]
    assert headings == plain  # the document's title and every section, anchored
    assert 'data-testid="goal"' in page and game.goal in text_of(page)


def test_the_rules_contents_links_reach_their_sections(client):
    page = client.get("/games/infamy/rules").content.decode()
    assert 'href="#a-round"' in page and '<h2 id="a-round">A round</h2>' in page


def test_an_unknown_games_rules_are_a_404_listing_the_games(client):
    response = client.get("/games/chess/rules")
    assert response.status_code == 404
    page = response.content.decode()
    assert 'data-testid="no-rules"' in page
    for name in GAMES:
        assert f'href="/games/{name}/rules"' in page


def test_rules_render_no_raw_html_and_no_links_into_the_repository():
    page = render(
        "# T\n\n<script>alert(1)</script>\n\nsee [the api](api.md#x) and [site](/lobby)\n"
    )
    assert "<script>" not in page.html and "&lt;script&gt;" in page.html
    assert 'href="api.md#x"' not in page.html and "the api" in page.html
    assert '<a href="/lobby">site</a>' in page.html
    assert page.title == "T"


def test_the_lobby_lists_every_registered_game_with_its_seats_options_and_rules(client):
    client.force_login(UserFactory(username="lena"))
    page = client.get("/lobby").content.decode()
    picker = re.search(r'data-testid="game-picker">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]+)"', picker) == list(GAMES)
    listed = json.loads(re.search(r'id="lobby-games"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert [g["name"] for g in listed] == list(GAMES)
    for entry in listed:
        game = GAMES[entry["name"]]
        assert (entry["min_players"], entry["max_players"]) == (game.min_players, game.max_players)
        assert entry["bot_kinds"] == list(game.bot_kinds)
        assert entry["timeout_policies"] == list(game.timeout_policies)
        assert [o["name"] for o in entry["options"]] == [o.name for o in game.table_options]
        assert entry["rules_url"] == f"/games/{game.name}/rules"
        assert f'data-game="{game.name}"' in page and f'href="/games/{game.name}/rules"' in page


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_table_page_shows_its_games_goal_and_links_its_rules(client, name):
    game = GAMES[name]
    user = UserFactory(username="mia")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=game.min_players + 1, game=name)
    page = client.get(f"/games/{table.id}").content.decode()
    goal = re.search(r'data-testid="goal">(.*?)</p>', page, re.S).group(1)
    assert game.goal in text_of(goal)
    assert f'href="/games/{name}/rules"' in goal
    assert 'id="outcome"' in page and "/static/web/outcome.js" in page
    # the versions the game is played under (outcome.js fills it from the game document)
    assert 'id="played-under"' in goal


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_games_table_options_are_ones_it_accepts(name):
    game = GAMES[name]
    defaults = {o.name: o.default for o in game.table_options}
    stored = game.validate_options(defaults, game.min_players, sandbox=False)
    for option in game.table_options:
        assert stored[option.name] == option.default
        assert option.label
        if option.kind == "int":
            for value in (option.low, option.high):
                game.validate_options({option.name: value}, game.min_players, sandbox=False)
