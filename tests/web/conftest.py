"""Browser tests: Playwright drives a headless Chromium already on the machine (see
tests/web/chromium.py: Debian's /usr/bin/chromium, another on PATH, FB_CHROMIUM, or one
Playwright downloaded) against pytest-django's live_server (a thread of this process, on
the test database). Without one they are skipped loudly, or fail under FB_REQUIRE_BROWSER."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.faults.conftest import webs  # the production-shape server (test_asgi_server.py)
from tests.web import chromium

__all__ = ["webs"]

SCREENSHOTS = Path(__file__).resolve().parents[2] / ".local" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    # An assertion waits as long as an action does (15 s, below): on a loaded machine a
    # page's next read can take longer than Playwright's 5 s default, and that is load,
    # not a fault of the page (a page that never gets there still fails).
    sync_api.expect.set_options(timeout=15_000)
    executable = chromium.find()
    if executable is None:
        if chromium.required():
            pytest.fail(f"FB_REQUIRE_BROWSER is set and no Chromium was found: {chromium.INSTALL}")
        pytest.skip(chromium.missing_line())
    # Playwright's sync API keeps an event loop in this thread; Django would then refuse
    # the tests' own database calls as "async", though they run synchronously.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        yield browser
        browser.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _web_settings(settings):
    # Short long-polls: the live server's threads then finish soon after a test ends.
    settings.FB_WEB_FEED_WAIT = 2
    settings.FB_AUTH_RATE = "10000/min"
    settings.FB_READ_RATE = "100000/min"
    settings.FB_COMMAND_RATE = "10000/min"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def new_page(browser, live_server):
    """new_page(name) -> a page in its own browser context (its own cookies)."""
    contexts = []
    errors: list[str] = []

    def make(name: str):
        context = browser.new_context(
            viewport={"width": 1280, "height": 900}, base_url=live_server.url
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{name}: {error}"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == [], "JavaScript errors on the pages"


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


DOC_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img" / "web"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def doc_shot(page, name: str) -> None:
    """The page at a phone's and a desktop's size (what the window shows, not the whole
    page), into .local/screenshots/; with FB_DOC_SCREENSHOTS=1 also into docs/img/web/,
    the pictures docs/web.md shows. The page's own size is restored afterwards."""
    before = page.viewport_size
    targets = [SCREENSHOTS]
    if os.environ.get("FB_DOC_SCREENSHOTS", "").strip() in {"1", "true", "yes"}:
        targets.append(DOC_IMAGES)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)  # a frame for the layout to settle
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))
    if before:
        page.set_viewport_size(before)
