"""The tournaments' pages (docs/web.md): the list (``/tournaments``: the newest, entering
one, and for directors a form to create one) and one tournament (``/tournaments/<id>``).
Frames only; their scripts (static/web/tournaments.js, tournament.js) read the API."""

from __future__ import annotations

import uuid
from http import HTTPStatus

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from games.registry import GAMES
from tournaments.models import Tournament
from tournaments.services import DEFAULT_ROUND_MINUTES, MAX_ROUNDS

LOGIN_URL = "/login"


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The newest tournaments; directors (staff) also get the form that creates one."""
    config = {
        "staff": bool(getattr(request.user, "is_staff", False)),
        "games": [
            {"name": g.name, "title": g.title, "min": g.min_players, "max": g.max_players}
            for g in GAMES.values()
        ],
        "maxRounds": MAX_ROUNDS,
        "roundMinutes": DEFAULT_ROUND_MINUTES,
    }
    return render(request, "web/tournaments.html", {"config": config})


@ensure_csrf_cookie
@login_required(login_url=LOGIN_URL)
def tournament(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Staff (directors) get the review desk; a player the same page without the queue,
    their own pairings highlighted. A tournament that does not exist: a 404 page."""
    found = Tournament.objects.filter(id=tournament_id).values_list("name", flat=True).first()
    if found is None:
        return render(
            request,
            "web/no_tournament.html",
            {"tournament_id": str(tournament_id)},
            status=HTTPStatus.NOT_FOUND,
        )
    config = {
        "tournamentId": str(tournament_id),
        "me": request.user.pk,
        "staff": bool(getattr(request.user, "is_staff", False)),
    }
    return render(request, "web/tournament.html", {"name": found, "config": config})
