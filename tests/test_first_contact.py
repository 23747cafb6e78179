"""First contact: `make run` installs the runtime set only, `make test` needs no root (no
apt-get), and CI installs the browser and refuses to skip the browser tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def dry_run(target: str, tmp_path: Path) -> str:
    """What `make TARGET` would run in a fresh clone (no virtualenv yet)."""
    done = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_make_run_installs_the_runtime_requirements_only(tmp_path) -> None:
    commands = dry_run("run", tmp_path)
    assert "-r requirements.txt" in commands
    assert "requirements-dev.txt" not in commands


def test_make_test_installs_the_test_requirements_and_needs_no_root(tmp_path) -> None:
    commands = dry_run("test", tmp_path)
    assert "-r requirements-dev.txt" in commands
    assert "apt-get" not in commands and "sudo" not in commands


def test_ci_installs_chromium_without_recommends_and_requires_the_browser_tests() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "apt-get install" in script and "--no-install-recommends chromium" in script
    assert "export FB_REQUIRE_BROWSER=1" in script
