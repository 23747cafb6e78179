"""Pages: Django renders the frame; the JavaScript in static/web/ talks to /api/v1/ only.

The pages hold no game logic. A table's pages dispatch on its game (``web.games``): each
game's templates, JavaScript and CSS live in a folder of its own, and its pages embed the
game's catalogue (public, fixed data) so the script can name things. A game without pages
of its own gets the generic table page (``web/table/``), driven by its view and its
``legal`` options alone. Every game's replay is one viewer (``web/replay.html``) that a
game's own replay page fills with its board; a game without pages gets that viewer with a
generic board. Every game has a rules page, rendered from the rules document it names
(``web.rules``), and every table page shows the game's goal and links its rules."""

from __future__ import annotations

import uuid
from functools import cache
from http import HTTPStatus
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_safe

from games import selectors
from games.absence import abandon_after_checked
from games.core import Game
from games.record import played_under
from games.registry import GAMES
from web import sign_in
from web.games import pages_for
from web.rules import rules_page

LOGIN_URL = "/login"


@cache
def _favicon() -> bytes:
    return (Path(__file__).parent / "static" / "web" / "favicon.ico").read_bytes()


@require_safe
@cache_control(public=True, max_age=86_400)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico at the site's root, outside STATIC_URL."""
    return HttpResponse(_favicon(), content_type="image/x-icon")


def _feed_wait() -> float:
    """Seconds one long-poll of the event feed waits (the API allows up to 25)."""
    return float(getattr(settings, "FB_WEB_FEED_WAIT", 20))


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    """What the site is: every registered game, its goal, seats and rules."""
    return render(request, "web/home.html", {"games": [_lobby_entry(g) for g in GAMES.values()]})


@ensure_csrf_cookie
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    return _auth_page(request, "signup")


@ensure_csrf_cookie
@require_http_methods(["GET", "HEAD", "POST"])
def login_page(request: HttpRequest) -> HttpResponse:
    return _auth_page(request, "login")


def _auth_page(request: HttpRequest, mode: str) -> HttpResponse:
    """The form; a POST of it is the form sent without auth.js (``web.sign_in``)."""
    if request.user.is_authenticated:
        return redirect(_next(request))
    context: dict[str, Any] = {"mode": mode, "next": _next(request)}
    if request.method == "POST":
        refusal = sign_in.submit(request, mode)
        if refusal is None:
            return redirect(_next(request))
        context |= {"error": refusal.message, "username": request.POST.get("username", "")}
        return render(request, "web/auth.html", context, status=refusal.status)
    return render(request, "web/auth.html", context)


def _next(request: HttpRequest) -> str:
    target = request.GET.get("next", "")
    # Only paths on this site: no scheme, no host, no protocol-relative //host.
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/lobby"


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def lobby(request: HttpRequest) -> HttpResponse:
    """Every registered game, with what its new-table form offers (seats, bots, options)."""
    games = [_lobby_entry(game) for game in GAMES.values()]
    return render(request, "web/lobby.html", {"games": games})


def _lobby_entry(game: Game) -> dict[str, Any]:
    return {
        "name": game.name,
        "title": game.title,
        "goal": game.goal,
        "rules_url": reverse("web:rules", args=[game.name]),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "bot_kinds": list(game.bot_kinds),
        "timeout_policies": list(game.timeout_policies),
        # the abandonment rule's default, 0 in a game without resign (docs/rules.md)
        "abandon_after": abandon_after_checked(game, None),
        "options": [option.as_json() for option in game.table_options],
    }


@require_safe
def rules(request: HttpRequest, name: str) -> HttpResponse:
    """A game's rules, from the document it names; anyone may read them."""
    game = GAMES.get(name)
    if game is None:
        context = {"name": name, "games": [(g.name, g.title) for g in GAMES.values()]}
        return render(request, "web/no_rules.html", context, status=HTTPStatus.NOT_FOUND)
    page = rules_page(game)
    context = {"game": game, "html": page.html, "heading": page.title}
    return render(request, "web/rules.html", context)


def _table_page(request: HttpRequest, game_id: uuid.UUID, page: str) -> HttpResponse:
    """The game's own ``page`` for this table, or a page saying why there is none."""
    game = selectors.table_game(game_id)
    if game is None:
        return render(
            request, "web/no_table.html", {"game_id": str(game_id)}, status=HTTPStatus.NOT_FOUND
        )
    known = GAMES.get(game)
    pages = pages_for(game)
    if pages is None and page == "replay" and known is not None:
        return _generic_replay(request, game_id, known.title)
    if known is None:
        return render(request, "web/unsupported.html", {"game_id": str(game_id), "game": game})
    config: dict[str, Any] = {
        "gameId": str(game_id),
        "me": request.user.pk,
        "staff": bool(getattr(request.user, "is_staff", False)),
        "title": known.title,
    }
    if page == "game":
        config["feedWait"] = _feed_wait()
    context: dict[str, Any] = {
        "game_id": str(game_id),
        "config": config,
        "title": known.title,
        "goal": known.goal,
        "rules_url": reverse("web:rules", args=[known.name]),
    }
    if pages is None:  # the generic table page: the game's view and legal options only
        return render(request, "web/table/game.html", context)
    played = played_under(game_id, game)
    catalogue = pages.catalogue(played.content if played else None)
    context |= {"catalogue": catalogue, "folder": pages.folder}
    return render(request, pages.template(page), context)


def _generic_replay(request: HttpRequest, game_id: uuid.UUID, title: str) -> HttpResponse:
    """The replay of a game without pages: the same viewer, the generic board (its view's
    fields, readable) instead of the game's own."""
    config = {
        "gameId": str(game_id),
        "me": request.user.pk,
        "staff": bool(getattr(request.user, "is_staff", False)),
        "title": title,
    }
    context = {"game_id": str(game_id), "catalogue": {}, "config": config, "title": title}
    return render(request, "web/replay.html", context)


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's profile: ratings, their history and recent games (from the API's
    ``GET /players/{username}``, docs/ratings.md); a page that says so for nobody."""
    possible = "\x00" not in username and len(username) <= 150  # as the API looks them up
    users = get_user_model().objects
    if not (possible and users.filter(username=username, is_active=True).exists()):
        return render(
            request, "web/no_player.html", {"username": username}, status=HTTPStatus.NOT_FOUND
        )
    return render(request, "web/player.html", {"username": username})


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def game(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return _table_page(request, game_id, "game")


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def replay(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return _table_page(request, game_id, "replay")
