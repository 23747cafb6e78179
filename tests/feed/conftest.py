"""Fixtures of the live feed tests: a feed server process (tests/faults' ``webs``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.faults.conftest import Web, pytest_runtest_makereport, webs
from tests.feed.helpers import FEED_ENV

__all__ = ["pytest_runtest_makereport", "webs"]


@pytest.fixture
def feed_server(webs, request: pytest.FixtureRequest) -> Iterator[Web]:
    env = dict(FEED_ENV)
    if request.node.name.startswith("test_300"):
        env["FB_FEED_MAX_PER_USER"] = "400"
    if "revoked" in request.node.name:
        env["FB_FEED_RECENT_SECONDS"] = "2"
    yield webs(**env)
