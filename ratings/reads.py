"""A player's profile (``GET /api/v1/players/{username}``, the page ``/players/<username>``):
their rating in each game they were rated in, its history and their recent games.

Everything here is public to anyone signed in: ratings follow from finished ranked games,
which are open to all once over, and the recent games show what a table shows anyone."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.errors import ServiceError
from games.registry import GAMES
from games.results import recent_games
from ratings.core import display
from ratings.errors import RATINGS
from ratings.models import RatingSnapshot
from ratings.projector import identity

HISTORY = 50  # rating changes shown, newest first
RECENT = 20  # games shown, newest first
MAX_USERNAME = 150  # django.contrib.auth's username length


def _iso(moment: Any) -> str:
    return str(moment.isoformat().replace("+00:00", "Z"))


def profile_document(username: str) -> dict[str, Any]:
    """The profile of the active user ``username``, or ``player_not_found``."""
    users = get_user_model().objects
    # a name no user can have (PostgreSQL refuses a NUL in text) is looked up by nobody
    possible = "\x00" not in username and len(username) <= MAX_USERNAME
    user = users.filter(username=username, is_active=True).first() if possible else None
    if user is None:
        raise ServiceError(
            "player_not_found", RATINGS["player_not_found"].message, username=username
        )
    who = identity(user.pk, "")
    rows = RatingSnapshot.objects.filter(identity=who)
    latest = rows.order_by("game", "-n").distinct("game")
    ratings = [
        {
            "game": r.game,
            "title": GAMES[r.game].title if r.game in GAMES else r.game,
            "mu": r.mu,
            "sigma": r.sigma,
            "display": display(r.mu, r.sigma),
            "games": r.games,
            "updated_at": _iso(r.ended_at),
        }
        for r in sorted(latest, key=lambda r: (-display(r.mu, r.sigma), r.game))
    ]
    history = [
        {
            "game": r.game,
            "table": str(r.table_id),
            "ended_at": _iso(r.ended_at),
            "place": r.place,
            "seats": r.seats,
            "mu_before": r.mu_before,
            "sigma_before": r.sigma_before,
            "mu": r.mu,
            "sigma": r.sigma,
            "display_before": display(r.mu_before, r.sigma_before),
            "display": display(r.mu, r.sigma),
        }
        for r in rows.order_by("-ended_at", "-n")[:HISTORY]
    ]
    return {
        "username": user.get_username(),
        "joined_at": _iso(user.date_joined),
        "ratings": ratings,
        "history": history,
        "recent_games": recent_games(user.pk, limit=RECENT),
    }
