"""The pure rules engine must not depend on the framework around it.

Every game's rules package (games/<name>/, e.g. games/family_business/), games/core.py and
games/__init__.py are parsed with `ast`; importing django, rest_framework, celery, kombu,
the project's Django packages (events, api, fbservice) or the Django side of the games app
(games.models, games.service, games.tasks, ...) fails the test. Relative imports are
resolved first, so `from ...api import x` is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FORBIDDEN = {"django", "rest_framework", "celery", "kombu", "events", "api", "fbservice"}
# Folders of the games *Django app* that are not rules packages.
DJANGO_APP_DIRS = {"migrations", "management", "templatetags", "templates", "static"}


def pure_packages(games_dir: Path) -> list[Path]:
    return sorted(
        path
        for path in games_dir.iterdir()
        if path.is_dir()
        and path.name not in DJANGO_APP_DIRS
        and not path.name.startswith((".", "_"))
    )


def pure_files(games_dir: Path) -> list[Path]:
    files = [p for p in (games_dir / "__init__.py", games_dir / "core.py") if p.exists()]
    for package in pure_packages(games_dir):
        files.extend(sorted(package.rglob("*.py")))
    return files


def _module_name(path: Path, root: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _allowed_games_module(name: str, games_dir: Path) -> bool:
    """Inside games/, a pure module may import games, games.core and the rules packages."""
    parts = name.split(".")
    if len(parts) == 1 or parts[1] == "core":
        return True
    return parts[1] in {p.name for p in pure_packages(games_dir)}


def violations(path: Path, root: Path) -> list[str]:
    """Forbidden imports in one file, as 'file:line: module' strings."""
    tree = ast.parse(path.read_text(), filename=str(path))
    module, is_package = _module_name(path, root)
    package = module.split(".") if is_package else module.split(".")[:-1]
    games_dir = root / "games"
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level and node.level - 1 > len(package):
                names = ["<relative import beyond the top level>"]
            else:
                base = package[: len(package) - (node.level - 1)] if node.level else []
                source = ".".join([*base, *([node.module] if node.module else [])])
                # each imported name may itself be a module: `from games import models`
                names = [source] if source else []
                names += [f"{source}.{a.name}" if source else a.name for a in node.names]
        for name in names:  # one report per import statement
            top = name.split(".")[0]
            if (
                top in FORBIDDEN
                or name.startswith("<")
                or (top == "games" and not _allowed_games_module(name, games_dir))
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno}: imports {name}")
                break
    return found


def test_the_pure_rules_engine_imports_no_framework_code():
    problems = [v for path in pure_files(REPO / "games") for v in violations(path, REPO)]
    assert problems == []


# --- the checker itself -------------------------------------------------------------


@pytest.fixture
def fake_repo(tmp_path):
    (tmp_path / "games" / "toygame").mkdir(parents=True)
    (tmp_path / "games" / "migrations").mkdir()
    (tmp_path / "games" / "__init__.py").write_text("")
    (tmp_path / "games" / "toygame" / "__init__.py").write_text("")
    # Django-side code of the app is allowed to use Django; it must not be scanned.
    (tmp_path / "games" / "migrations" / "0001_initial.py").write_text(
        "from django.db import models\n"
    )
    (tmp_path / "games" / "models.py").write_text("from django.db import models\n")
    return tmp_path


def check(repo: Path) -> list[str]:
    return [v for path in pure_files(repo / "games") for v in violations(path, repo)]


def test_checker_accepts_standard_library_and_sibling_imports(fake_repo):
    (fake_repo / "games" / "core.py").write_text("import dataclasses\nfrom typing import Any\n")
    (fake_repo / "games" / "toygame" / "rules.py").write_text(
        "import random\nfrom . import state\nfrom .state import State\n"
        "from games import core\nfrom games.core import registry\nimport games.toygame.state\n"
    )
    assert check(fake_repo) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django\n",
        "import django.db.models as m\n",
        "from django.db import transaction\n",
        "from rest_framework import serializers\n",
        "import celery\n",
        "from events.models import Event\n",
        "import api.views\n",
        "from ...api import views\n",  # climbs from games/toygame/ to the top level
        "from ... import events\n",
        "from ..models import Table\n",  # games.models: the Django side of the app
        "from games import models\n",
        "from games.tasks import close_window\n",
        "def f():\n    from django.conf import settings\n    return settings\n",
    ],
)
def test_checker_catches_forbidden_imports(fake_repo, source):
    bad = fake_repo / "games" / "toygame" / "rules.py"
    bad.write_text(source)
    problems = check(fake_repo)
    assert len(problems) == 1
    assert problems[0].startswith("games/toygame/rules.py:")


def test_checker_covers_core_py(fake_repo):
    (fake_repo / "games" / "core.py").write_text("from django.apps import apps\n")
    assert check(fake_repo) == ["games/core.py:1: imports django.apps"]
