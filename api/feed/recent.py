"""Who came back: what a feed request that returns within seconds need not ask again.

A long-poll client reconnects after every answer, so most feed requests repeat one a few
seconds old: the same token, the same game. Each event loop remembers, for
``FB_FEED_RECENT_SECONDS``, which user a token signed in as and what access that user has to
a started game; with the hub's remembered batch (``Hub.remembered``) such a request is
answered without a database thread. The price is bounded staleness: a token revoked (signed
out) still reopens feeds for at most that many seconds, and a table's status is taken from
the events the hub reads (``_as_of``), which is where a finish first shows. 0 turns it off.
Only ``Authorization`` header tokens are remembered; session cookies always sign in afresh.
"""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict
from typing import Generic, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest

from api.feed.metrics import METRICS
from games.reads import Access

K = TypeVar("K")
V = TypeVar("V")

MAX_ENTRIES = 50_000  # per cache and event loop; the oldest go first


class _Expiring(Generic[K, V]):
    def __init__(self, seconds: float, size: int = MAX_ENTRIES) -> None:
        self.seconds = seconds
        self.size = size
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self._entries.get(key)
        if found is None:
            return None
        if found[0] <= time.monotonic():
            del self._entries[key]
            return None
        return found[1]

    def put(self, key: K, value: V) -> None:
        if self.seconds <= 0:
            return
        self._entries.pop(key, None)
        self._entries[key] = (time.monotonic() + self.seconds, value)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def token_of(request: HttpRequest) -> str | None:
    """The request's ``Authorization`` header if it carries a token (the key the user is
    remembered by); None for anything else."""
    header: str = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() in ("token", "bearer") and 0 < len(key) <= 200:
        return header
    return None


class Recent:
    """Per event loop: the users tokens signed in as, and users' access to started games."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._users: _Expiring[str, AbstractBaseUser] = _Expiring(seconds)
        self._access: _Expiring[tuple[uuid.UUID, int], Access] = _Expiring(seconds)
        # when a token's long-poll of a game was last answered (``time.time()``)
        self._answered: _Expiring[tuple[str, uuid.UUID], float] = _Expiring(seconds)

    def access(self, request: HttpRequest, game_id: uuid.UUID) -> Access | None:
        """The caller's access to ``game_id`` if both were seen within the last seconds."""
        if self.seconds <= 0:
            return None
        token = token_of(request)
        user = self._users.get(token) if token is not None else None
        if user is None:
            return None
        return self._access.get((game_id, int(user.pk)))

    def remember(self, request: HttpRequest, access: Access) -> None:
        """After a full sign-in and access check of a started game."""
        token = token_of(request)
        if token is None or self.seconds <= 0 or not access.user.is_authenticated:
            return
        user = access.user
        self._users.put(token, user)
        self._access.put((access.table.id, int(user.pk)), access)

    def answered(self, request: HttpRequest, game_id: uuid.UUID) -> None:
        """A long-poll of ``game_id`` was answered now."""
        token = token_of(request)
        if token is not None:
            self._answered.put((token, game_id), time.time())

    def came_back(self, request: HttpRequest, game_id: uuid.UUID, arrived: float) -> None:
        """A long-poll arrived at ``arrived``: observe how long after the same caller's
        last answer (``api.feed.metrics``' ``reopen``)."""
        token = token_of(request)
        answered = self._answered.get((token, game_id)) if token is not None else None
        if answered is not None:
            METRICS.since("reopen", answered, arrived)
