"""Shared test setup.

pytest-django loads fbservice.settings (see pyproject.toml). The database is real
PostgreSQL: DATABASE_URL if set, otherwise the embedded server (fbservice/embedded.py);
pytest-django creates and drops the test database. Tests of the pure rules engine
(tests/games/) use no database.
"""

import pytest


def pytest_configure(config):
    """Keep pytest's closing "N passed" line in every run: people and CI read it, and -qq
    (quieter than -q) drops it."""
    config.option.verbose = max(config.option.verbose, -1)


@pytest.fixture(autouse=True)
def _bots_inline_and_no_timer_tasks(settings):
    """Most tests drive games synchronously: bots move inside the command that hands them
    the turn (FB_BOTS_INLINE), and no Celery task is sent. tests/timers/ turns both back
    to production behaviour for its real worker."""
    settings.FB_BOTS_INLINE = True
    settings.FB_SCHEDULE_TASKS = False


@pytest.fixture
def fast_password_hashing(settings):
    """Django's default hasher is deliberately slow; tests that hash passwords use MD5."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _test_databases_may_be_flushed():
    """The event tables refuse TRUNCATE; a test database may be flushed between
    transactional tests once the session says so (see events/migrations/0002)."""
    from django.db.backends.signals import connection_created

    def allow(sender, connection, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SET fbservice.allow_truncate = 'on'")

    connection_created.connect(allow, weak=False, dispatch_uid="fb-allow-truncate")
    yield
    connection_created.disconnect(dispatch_uid="fb-allow-truncate")


@pytest.fixture(autouse=True)
def _feed_threads_closed():
    """The feed's database threads keep connections to the test database: close them
    after each test (they start again when needed), so none is left when pytest-django
    flushes or drops it."""
    yield
    from api.feed.views import close_threads

    close_threads()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and at the end of the run the sessions of the server
    processes the tests started and killed (their backends may not have noticed yet) are
    ended, so the test database can be dropped."""
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def pytest_report_header(config):
    """Say up front when the browser tests will be skipped, and how to run them."""
    from tests.web import chromium

    if chromium.find() is None and not chromium.required():
        return [chromium.missing_line()]
    return []


def pytest_terminal_summary(terminalreporter):
    """...and again at the end, where it is seen."""
    from tests.web import chromium

    skipped = terminalreporter.stats.get("skipped", [])
    if chromium.find() is None and any("tests/web/" in r.nodeid for r in skipped):
        terminalreporter.write_sep("!", chromium.missing_line(), red=True, bold=True)
