"""The pages without a browser: routing, login redirects, what each page embeds."""

from __future__ import annotations

import json
import re
import uuid

import pytest

from games.family_business.cards import CARD_KIND
from games.models import Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_home_leads_to_sign_up_and_sets_the_csrf_cookie(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/signup"' in response.content
    assert "csrftoken" in response.cookies


def test_home_lists_every_registered_game_under_the_sites_own_name(client, settings):
    from django.utils.html import escape

    from games.registry import GAMES

    settings.FB_SITE_NAME = "Back Room"
    html = client.get("/").content.decode()
    brand = re.search(r'<a class="brand"[^>]*>(.*?)</a>', html, re.S)
    assert brand and brand.group(1).strip() == "Back Room"
    assert "<title>Back Room</title>" in html
    listed = re.findall(r'<li data-game="([a-z_]+)">', html)
    assert listed == list(GAMES)
    for game in GAMES.values():
        assert escape(game.goal) in html and f'href="/games/{game.name}/rules"' in html


@pytest.mark.parametrize(
    "path", ["/lobby", "/tournaments", f"/games/{uuid.uuid4()}", f"/games/{uuid.uuid4()}/replay"]
)
def test_pages_for_players_ask_anonymous_visitors_to_log_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={path}"


def test_login_only_returns_to_pages_of_this_site(client):
    for target, expected in [
        ("/lobby", "/lobby"),
        ("//evil.example/x", "/lobby"),
        ("https://evil.example/", "/lobby"),
    ]:
        response = client.get("/login", {"next": target})
        assert f'data-next="{expected}"' in response.content.decode()


def test_the_game_page_embeds_the_catalogue_and_its_config(client, settings):
    settings.FB_WEB_FEED_WAIT = 7
    user = UserFactory(username="erin")
    client.force_login(user)
    game_id = Table.objects.create(created_by=user, seats=2).id
    html = client.get(f"/games/{game_id}").content.decode()
    catalogue = json.loads(re.search(r'id="catalogue"[^>]*>(.*?)</script>', html, re.S).group(1))
    config = json.loads(re.search(r'id="config"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert catalogue["mobsters"]["hymie-weiss"] == {"name": "Hymie Weiss", "family": "moran"}
    assert catalogue["families"]["moran"] == "Moran Gang"
    assert catalogue["kinds"]["CONTRACT"]["category"] == "attack"
    assert "FAMILY_INFLUENCE" in catalogue["kinds"]["CONTRACT"]["countered_by"]
    assert len(catalogue["cards"]) == len(CARD_KIND)
    assert config == {
        "gameId": str(game_id),
        "feedWait": 7.0,
        "me": user.pk,
        "staff": False,
        "title": "Family Business",
    }


# The table pages' set-up (the waiting room, the first reads) and the result panel every
# table page shows (outcome.js, web/_explain.html), shared by every game's game page; the
# replay viewer and its generic board, shared by every game's replay page.
TABLE_PAGE_SHARED = {
    "/static/web/page.js",
    "/static/web/alerts.js",
    "/static/web/outcome.js",
    "/static/web/table_play.js",  # reading, following and sending, from the generic page
    "/static/web/state_board.js",
    "/static/web/replay.js",
}


@pytest.mark.parametrize("page", ["", "/replay"])
def test_a_tables_pages_come_from_its_games_own_folder(client, page):
    user = UserFactory(username="gina")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=2)
    response = client.get(f"/games/{table.id}{page}")
    assert response.status_code == 200
    assert [t.name for t in response.templates][0].startswith("web/family_business/")
    html = response.content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts[0] == "/static/web/api.js"  # shared by every page
    own = [s for s in scripts[1:] if s not in TABLE_PAGE_SHARED]
    assert all(s.startswith("/static/web/family_business/") for s in own) and own
    assert 'href="/static/web/family_business/style.css"' in html


@pytest.mark.parametrize("page", ["", "/replay"])
def test_an_infamy_tables_pages_are_infamys(client, page):
    user = UserFactory(username="jade")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=3, game="infamy")
    response = client.get(f"/games/{table.id}{page}")
    assert response.status_code == 200
    assert [t.name for t in response.templates][0].startswith("web/infamy/")
    html = response.content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    own = [s for s in scripts[1:] if s not in TABLE_PAGE_SHARED]
    assert all(s.startswith("/static/web/infamy/") for s in own) and own
    brand = re.search(r'<a class="brand"[^>]*>(.*?)</a>', html, re.S)
    assert brand and brand.group(1).strip() == "Infamy"  # not the other game's name
    catalogue = json.loads(re.search(r'id="catalogue"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert catalogue["content_version"] == "infamy/standin-1" and catalogue["reconstructed"]
    assert [c["name"] for c in catalogue["contacts"]][:2] == ["Accomplice", "Arms Dealer"]
    assert len(catalogue["board"]) == 6 and len(catalogue["schemes"]) == 60


@pytest.mark.parametrize("page", ["", "/replay"])
def test_a_scarface_tables_pages_are_scarfaces(client, page):
    user = UserFactory(username="kate")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=2, game="scarface")
    response = client.get(f"/games/{table.id}{page}")
    assert response.status_code == 200
    assert [t.name for t in response.templates][0].startswith("web/scarface/")
    html = response.content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    own = [s for s in scripts[1:] if s not in TABLE_PAGE_SHARED]
    assert all(s.startswith("/static/web/scarface/") for s in own) and own
    assert 'href="/static/web/scarface/style.css"' in html
    brand = re.search(r'<a class="brand"[^>]*>(.*?)</a>', html, re.S)
    assert brand and brand.group(1).strip() == "Scarface 1920"
    catalogue = json.loads(re.search(r'id="catalogue"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert catalogue["reconstructed"] and catalogue["content_version"].startswith("scarface/")
    assert catalogue["districts"]["D1"] == "The Loop" and catalogue["tiles"]["n01"]
    assert catalogue["cards"]["outfit-s5"]["name"] == "Driver"


@pytest.mark.parametrize("page", ["", "/replay"])
def test_no_such_table_is_a_clear_404_page(client, page):
    client.force_login(UserFactory(username="hank"))
    response = client.get(f"/games/{uuid.uuid4()}{page}")
    assert response.status_code == 404
    assert b'data-testid="no-table"' in response.content
    assert b"No such table" in response.content


@pytest.mark.parametrize("page", ["", "/replay"])
def test_a_game_this_server_does_not_know_gets_a_page_saying_so(client, page):
    user = UserFactory(username="ivy")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=2, game="chess")
    response = client.get(f"/games/{table.id}{page}")
    assert response.status_code == 200
    assert b'data-testid="unsupported-game"' in response.content
    assert b"a game this server does not know" in response.content
    assert b"catalogue" not in response.content


def test_a_game_without_pages_is_played_on_the_generic_table_page(client, monkeypatch):
    from games import registry

    # a game the service hosts with no pages of its own (here: registered for the test)
    monkeypatch.setitem(registry.GAMES, "pages_less", registry.GOOFSPIEL)
    user = UserFactory(username="ivy")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=2, game="pages_less")
    response = client.get(f"/games/{table.id}")
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "web/table/game.html"
    html = response.content.decode()
    assert 'data-testid="generic-table"' in html and "unsupported-game" not in html
    assert "/static/web/table/game.js" in re.findall(r'<script src="([^"]+)"', html)
    assert "catalogue" not in html
    # its replay: the viewer with the generic board (below)
    assert f'href="/games/{table.id}/replay"' in html


def test_signed_in_users_skip_the_login_and_sign_up_pages(client):
    client.force_login(UserFactory(username="frank"))
    assert client.get("/login")["Location"] == "/lobby"
    assert client.get("/signup")["Location"] == "/lobby"


def test_the_api_health_and_admin_still_answer(client):
    assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/api/v1/tables").status_code == 401
    assert client.get("/api/v1/nope").status_code == 404
    assert client.get("/admin/").status_code == 302


def test_the_site_serves_a_favicon_at_its_root(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
    assert "max-age=86400" in response["Cache-Control"]
    assert client.post("/favicon.ico").status_code == 405
    assert b'rel="icon" href="/favicon.ico"' in client.get("/").content


def test_every_card_kind_has_a_short_text_for_its_face():
    from games.family_business.cards import KIND_INFO
    from web.games.family_business import SHORT_TEXT, catalogue

    assert set(SHORT_TEXT) == {k.value for k in KIND_INFO}
    for kind, info in catalogue()["kinds"].items():
        assert info["short"] == SHORT_TEXT[kind]
        assert len(info["short"]) <= 48, kind  # a few words: it fits a phone's card


def test_a_hosted_game_without_pages_is_replayed_with_the_generic_board(client, monkeypatch):
    from games import registry

    monkeypatch.setitem(registry.GAMES, "pages_less", registry.FAMILY_BUSINESS)
    user = UserFactory(username="ivy")
    client.force_login(user)
    table = Table.objects.create(created_by=user, seats=2, game="pages_less")
    response = client.get(f"/games/{table.id}/replay")
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "web/replay.html"
    html = response.content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts == ["/static/web/api.js", "/static/web/state_board.js", "/static/web/replay.js"]
    assert 'data-testid="board"' in html and 'data-testid="unsupported-game"' not in html
    brand = re.search(r'<a class="brand"[^>]*>(.*?)</a>', html, re.S)
    assert brand and brand.group(1).strip() == registry.FAMILY_BUSINESS.title


@pytest.mark.parametrize("content", ["infamy/standin-0", "infamy/standin-1"])
@pytest.mark.parametrize("page", ["", "/replay"])
def test_a_games_pages_name_things_by_the_content_it_was_started_under(client, page, content):
    """A game keeps its content to its end, and so do its pages: a standin-0 game's page (a
    game running since before the tuning, a replay reviewed years later) shows standin-0's
    job values and scheme texts, not the newest's."""
    from games.lobby import seat_add_bot, seat_join, table_create, table_start

    user = UserFactory(username="lena")
    client.force_login(user)
    options = {"content_version": content}
    table = table_create(created_by=user, game="infamy", seats=3, options=options)
    seat_join(table_id=table.id, user=user, position=0)
    for seat in (1, 2):
        seat_add_bot(table_id=table.id, position=seat)
    table_start(table_id=table.id)
    html = client.get(f"/games/{table.id}{page}").content.decode()
    catalogue = json.loads(re.search(r'id="catalogue"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert catalogue["content_version"] == content
    j05 = next(j for j in catalogue["jobs"] if j["id"] == "j05")
    assert (j05["infamy"], j05["rep"]) == ((3, 2) if content.endswith("-0") else (2, 1))
