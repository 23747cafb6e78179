"""Shared test setup.

pytest-django loads fbservice.settings (see pyproject.toml). The database is real
PostgreSQL: DATABASE_URL if set, otherwise the embedded server (fbservice/embedded.py);
pytest-django creates and drops the test database. Tests of the pure rules engine
(tests/games/) use no database.
"""

import pytest


@pytest.fixture
def fast_password_hashing(settings):
    """Django's default hasher is deliberately slow; tests that hash passwords use MD5."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
