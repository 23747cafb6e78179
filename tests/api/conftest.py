"""The cast of the API tests: alice, bob, carol and dave take seats, mallory is signed in
but never seated, and staff is a staff user. Each has their own APIClient."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.api.helpers import Player
from tests.factories import UserFactory

CAST = ("alice", "bob", "carol", "dave", "mallory")


@pytest.fixture(autouse=True)
def _api_settings(settings):
    # Bots move in the request and no Celery task is scheduled: the tests need no worker.
    settings.FB_BOTS_INLINE = True
    settings.FB_SCHEDULE_TASKS = False
    settings.FB_COMMAND_RATE = "100000/min"
    settings.FB_AUTH_RATE = "100000/min"
    settings.FB_READ_RATE = "100000/min"
    # Django's default hasher is deliberately slow; the cast's passwords need not be.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def _player(name: str, *, staff: bool = False) -> Player:
    user = UserFactory(username=name, is_staff=staff)
    client = APIClient()
    client.force_authenticate(user=user)
    return Player(name=name, user=user, client=client)


@pytest.fixture
def alice(db) -> Player:
    return _player("alice")


@pytest.fixture
def bob(db) -> Player:
    return _player("bob")


@pytest.fixture
def carol(db) -> Player:
    return _player("carol")


@pytest.fixture
def dave(db) -> Player:
    return _player("dave")


@pytest.fixture
def mallory(db) -> Player:
    return _player("mallory")


@pytest.fixture
def staff(db) -> Player:
    return _player("staff", staff=True)


@pytest.fixture
def anon() -> APIClient:
    return APIClient()
