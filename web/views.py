"""Pages: Django renders the frame; the JavaScript in static/web/ talks to /api/v1/ only.

The pages hold no game logic. Each one embeds the catalogue of cards, mobsters and
families (public, fixed data) so the script can name things in the move log."""

from __future__ import annotations

import uuid
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from games.family_business.cards import (
    CARD_KIND,
    FAMILIES,
    KIND_INFO,
    MOBSTER_FAMILY,
    MOBSTER_NAME,
)

LOGIN_URL = "/login"


@cache
def catalogue() -> dict[str, Any]:
    return {
        "families": {f.id: f.name for f in FAMILIES},
        "mobsters": {
            m: {"name": MOBSTER_NAME[m], "family": MOBSTER_FAMILY[m]} for m in MOBSTER_NAME
        },
        "kinds": {
            kind.value: {
                "name": info.name,
                "category": info.category.value,
                "text": info.text,
                "countered_by": sorted(k.value for k in info.countered_by),
            }
            for kind, info in KIND_INFO.items()
        },
        "cards": {card: kind.value for card, kind in CARD_KIND.items()},
    }


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
    return render(request, "web/home.html")


@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:lobby")
    return render(request, "web/auth.html", {"mode": "signup", "next": _next(request)})


@ensure_csrf_cookie
def login_page(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next(request))
    return render(request, "web/auth.html", {"mode": "login", "next": _next(request)})


def _next(request: HttpRequest) -> str:
    target = request.GET.get("next", "")
    # Only paths on this site: no scheme, no host, no protocol-relative //host.
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/lobby"


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "web/lobby.html")


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def game(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return render(
        request,
        "web/game.html",
        {
            "game_id": str(game_id),
            "catalogue": catalogue(),
            "config": {"gameId": str(game_id), "feedWait": _feed_wait(), "me": request.user.pk},
        },
    )


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def replay(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    return render(
        request,
        "web/replay.html",
        {
            "game_id": str(game_id),
            "catalogue": catalogue(),
            "config": {"gameId": str(game_id), "me": request.user.pk},
        },
    )
