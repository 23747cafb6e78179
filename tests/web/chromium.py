"""Which Chromium the browser tests drive: one already on the machine, never installed by
the tests. ``FB_CHROMIUM`` names one; otherwise the usual names on PATH, then a browser
Playwright downloaded (``python -m playwright install chromium``, no root needed).

Without one the browser tests are skipped with a loud line saying how to get one, unless
``FB_REQUIRE_BROWSER=1`` (CI's ``.ci/run`` sets it): then they fail, so CI never skips them.
"""

from __future__ import annotations

import glob
import os
import shutil

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL = (
    "install a Chromium to run them: `sudo apt-get install --no-install-recommends chromium` "
    "(Debian/Ubuntu), or without root `.venv/bin/python -m playwright install chromium`; "
    "or name one with FB_CHROMIUM=/path/to/chrome"
)


def find() -> str | None:
    named = os.environ.get("FB_CHROMIUM")
    if named:
        return named if os.access(named, os.X_OK) else None
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    cache = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or os.path.expanduser(
        "~/.cache/ms-playwright"
    )
    downloaded = sorted(glob.glob(os.path.join(cache, "chromium-*", "chrome-linux*", "chrome")))
    return downloaded[-1] if downloaded else None


def required() -> bool:
    return os.environ.get("FB_REQUIRE_BROWSER", "").strip().lower() in {"1", "true", "yes"}


def missing_line() -> str:
    return f"BROWSER TESTS SKIPPED (tests/web): no Chromium found; {INSTALL}"
