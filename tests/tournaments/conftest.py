"""The API tests' players (a director and three people) with fast settings; the timer
tests' real Celery workers (tests/timers/conftest.py) and the webhook tests'
receivers (tests/webhooks/conftest.py), for whole tournaments. On the configured broker
only: the timer tests cover RabbitMQ; a whole tournament twice would double minutes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings

from fbservice.celery import app as celery_app
from tests.api.conftest import alice, bob, carol, staff  # noqa: F401 - fixtures, by name
from tests.timers.conftest import (  # noqa: F401 - fixtures and the report hook, by name
    QUEUE,
    _clean_redis,
    _fast_hashing,
    _use_broker,
    pytest_runtest_makereport,
    timers_on,
    workers,
)
from tests.webhooks.conftest import receiver  # noqa: F401


@pytest.fixture
def broker_url() -> Iterator[str]:
    url = django_settings.CELERY_BROKER_URL
    old_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = QUEUE
    _use_broker(url)
    try:
        yield url
    finally:
        _use_broker(None)
        celery_app.conf.task_default_queue = old_queue
        if url.startswith("redis"):
            _clean_redis(url)


@pytest.fixture(autouse=True)
def _api_settings(settings) -> None:
    settings.FB_COMMAND_RATE = settings.FB_READ_RATE = "100000/min"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
