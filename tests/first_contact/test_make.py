"""First contact: `make run` installs the runtime set only, `make test` needs no root (no
apt-get), and CI installs the browser and refuses to skip the browser tests."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

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


def test_ci_installs_what_the_suite_needs_without_recommends_and_requires_the_browser() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert 'apt-get install -y -qq --no-install-recommends "${missing[@]}"' in script
    assert "missing+=(chromium)" in script and "for tool in curl jq git;" in script
    assert "export FB_REQUIRE_BROWSER=1" in script


def test_ci_calls_the_readmes_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "make test   #" in readme.split("\n\n", 2)[1]
    assert script.rstrip().endswith("make test")


@pytest.mark.parametrize("args", ["-q", "-q -q", "-v", ""])
def test_make_test_always_ends_with_the_summary_line(args: str) -> None:
    """People and CI read pytest's closing line; `-qq` (a -q from the configuration plus
    one in PYTEST_ARGS) used to drop it."""
    target = "tests/first_contact/test_walkthrough.py"  # quick, and needs no database
    done = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "test",
            f"PYTEST_ARGS={args} -p no:cacheprovider {target}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert re.search(r"\b4 passed\b", last), done.stdout
