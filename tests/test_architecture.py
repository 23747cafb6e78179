"""The pure rules engine must not depend on the framework around it.

Every game's rules package (games/<name>/, e.g. games/family_business/), games/core.py,
games/adapter.py, games/rng.py, games/twins.py, games/notices.py, games/contract_schema.py
and games/__init__.py are parsed with `ast`; importing django, rest_framework, celery,
kombu, the project's Django packages (events, api, fbservice) or the Django side of the
games app (games.models, games.service, games.tasks, ...) fails the test. Relative imports
are resolved first, so `from ...api import x` is
caught too.
"""

from __future__ import annotations

import ast
import sys
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
    shared = (
        "__init__.py",
        "core.py",
        "adapter.py",
        "rng.py",
        "twins.py",
        "notices.py",
        "contract_schema.py",
        "positions.py",
    )
    files = [games_dir / name for name in shared if (games_dir / name).exists()]
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
    """Inside games/, a pure module may import games, games.core, games.adapter, games.rng,
    games.twins, games.contract_schema, games.positions and the rules packages."""
    parts = name.split(".")
    pure = ("core", "adapter", "rng", "twins", "contract_schema", "positions")
    if len(parts) == 1 or parts[1] in pure:
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


# --- the module map (docs/architecture.md) -------------------------------------------


def imports_of(path: Path, root: Path, *, module_level: bool = False) -> list[tuple[int, str]]:
    """(line, imported module) for each import in ``path``, relative ones resolved. With
    ``module_level``: only the imports run when the module is imported (not those inside
    functions or ``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    module, is_package = _module_name(path, root)
    package = module.split(".") if is_package else module.split(".")[:-1]
    nodes: list[ast.AST]
    if module_level:
        nodes = []
        for node in tree.body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            nodes.append(node)
            if isinstance(node, ast.If | ast.Try):
                nodes.extend(ast.walk(node))
    else:
        nodes = list(ast.walk(tree))
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - (node.level - 1)] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, source))
            found += [(node.lineno, f"{source}.{a.name}") for a in node.names]
    return found


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (REPO / folder).rglob("*.py"))


def game_packages() -> set[str]:
    return {p.name for p in pure_packages(REPO / "games")}


def test_the_event_store_imports_no_game_and_no_api():
    problems = [
        f"{path.relative_to(REPO)}:{line}: imports {name}"
        for path in python_files("events")
        for line, name in imports_of(path, REPO)
        if name.split(".")[0] in {"games", "api", "web"}
    ]
    assert problems == []


# What the API may use of the games app: the service's facade and read functions, the
# lobby, reviews, a replay's marks, standing reactions and the clock loop's health (services
# of their own), the shared interface (and its contracts' schema kit) and registry, the
# refusals and the models' choices. Never the
# event store, and never the service's internals (loading, commands, selectors, ...).
API_MAY_IMPORT = {
    "games",
    "games.core",
    "games.contract_schema",
    "games.positions",
    "games.registry",
    "games.errors",
    "games.service",
    "games.lobby",
    "games.reads",
    "games.feed",
    "games.reviews",
    "games.marks",
    "games.standing",
    "games.clock_loop",
    "games.models",
}


def test_the_api_reaches_the_store_only_through_the_service():
    problems = []
    for path in python_files("api"):
        for line, name in imports_of(path, REPO):
            parts = name.split(".")
            if (
                parts[0] == "events"
                or parts[0] == "games"
                and ".".join(parts[:2]) not in API_MAY_IMPORT
            ):
                problems.append(f"{path.relative_to(REPO)}:{line}: imports {name}")
    assert problems == []


# What tournaments/ may use of the games app: what the API may, the pure pieces an
# offline verifier needs (the shared seeded randomness, a game's record and its verifier),
# and the results readers beside the service read (what the turn clock did, for the queue).
TOURNAMENTS_MAY_IMPORT = API_MAY_IMPORT | {
    "games.rng",
    "games.record",
    "games.verify",
    "games.results",
}
# Its pure core: the seating, the standings, the log's fold and chain, the derivations
# and the verifier (no Django, no I/O, no clock, no global random).
TOURNAMENTS_PURE = ("formats.py", "standings.py", "log.py", "derive.py", "verify.py")
TOURNAMENTS_PURE_MAY_IMPORT = {"games.core", "games.rng", "games.registry", "games.verify"}


def test_tournaments_reach_games_only_through_the_service():
    """Like the API: tables and games through the lobby, the facade, the reads, the record
    and the reviews; the store only through its pure hash chain (``events.chain``)."""
    problems = []
    for path in python_files("tournaments"):
        for line, name in imports_of(path, REPO):
            parts = name.split(".")
            if (
                parts[0] == "events"
                and ".".join(parts[:2]) != "events.chain"
                or parts[0] == "games"
                and ".".join(parts[:2]) not in TOURNAMENTS_MAY_IMPORT
                or parts[0] in {"api", "web", "webhooks"}
            ):
                problems.append(f"{path.relative_to(REPO)}:{line}: imports {name}")
    assert problems == []


def test_the_tournaments_core_is_pure():
    """No framework, no store but its pure hash chain, no clock, no global random."""
    own = {f"tournaments.{Path(name).stem}" for name in TOURNAMENTS_PURE}
    allowed = own | TOURNAMENTS_PURE_MAY_IMPORT | {"events.chain"}
    banned = FORBIDDEN | {"games", "tournaments", "web", "webhooks", "time", "datetime", "random"}

    def ok(name: str) -> bool:
        if name in {"games", "tournaments"}:  # `from games import x`: x is checked too
            return True
        if any(name == a or name.startswith(a + ".") for a in allowed):
            return True
        return name.split(".")[0] not in banned

    problems = [
        f"tournaments/{name}:{line}: imports {imported}"
        for name in TOURNAMENTS_PURE
        for line, imported in imports_of(REPO / "tournaments" / name, REPO)
        if not ok(imported)
    ]
    assert problems == []


def test_the_games_and_the_store_never_import_the_tournaments():
    problems = [
        f"{path.relative_to(REPO)}:{line}: imports {name}"
        for path in python_files("games", "events")
        for line, name in imports_of(path, REPO)
        if name.split(".")[0] == "tournaments"
    ]
    assert problems == []


def test_the_games_and_the_store_never_import_the_webhooks():
    """The webhooks hang off what the service commits (the event log, the rulings):
    ``webhooks.relay`` reads them; nothing in ``games/`` or ``events/`` calls the webhooks."""
    problems = [
        f"{path.relative_to(REPO)}:{line}: imports {name}"
        for path in python_files("games", "events")
        for line, name in imports_of(path, REPO)
        if name.split(".")[0] == "webhooks"
    ]
    assert problems == []


# What the ratings may use of the games app: a finished game's result and a player's
# recent games (``games.results``), the registry, the interface and the refusals; of the
# store, only its announcements and the workers' thread that follows them (as the webhook
# relay's does).
RATINGS_MAY_IMPORT = {
    "games",
    "games.core",
    "games.errors",
    "games.registry",
    "games.results",
    "events",
    "events.notify",
    "events.followers",
}


def test_the_ratings_read_games_only_through_their_results():
    problems = []
    for path in python_files("ratings"):
        for line, name in imports_of(path, REPO):
            parts = name.split(".")
            if parts[0] in {"games", "events"} and ".".join(parts[:2]) not in RATINGS_MAY_IMPORT:
                problems.append(f"{path.relative_to(REPO)}:{line}: imports {name}")
    assert problems == []


def test_the_rating_core_is_pure():
    """``ratings/core.py`` is the model alone: the standard library and openskill."""
    allowed = {"__future__", "openskill"} | set(sys.stdlib_module_names)
    found = [
        f"ratings/core.py:{line}: imports {name}"
        for line, name in imports_of(REPO / "ratings" / "core.py", REPO)
        if name.split(".")[0] not in allowed
    ]
    assert found == []


def test_nothing_the_ratings_read_imports_the_ratings():
    """The ratings hang off what the service commits; the API reads them (a profile)."""
    problems = [
        f"{path.relative_to(REPO)}:{line}: imports {name}"
        for path in python_files("games", "events", "webhooks")
        for line, name in imports_of(path, REPO)
        if name.split(".")[0] == "ratings"
    ]
    assert problems == []


def _own_game(relative: Path, packages: set[str]) -> str | None:
    """The game whose code ``relative`` is: its rules package, or its web pages
    (``web/games/<name>.py``, or a folder of that name)."""
    parts = relative.parts
    if parts[0] == "games" and len(parts) > 2 and parts[1] in packages:
        return parts[1]
    if parts[:2] == ("web", "games") and len(parts) > 2:
        name = Path(parts[2]).stem
        return name if name in packages else None
    return None


def test_only_a_game_and_the_registry_import_a_game_package():
    """A game's package is imported by itself, its web pages and the registry only."""
    packages = game_packages()
    problems = []
    for path in python_files("api", "events", "games", "fbservice", "web", "ratings"):
        relative = path.relative_to(REPO)
        if relative.as_posix() == "games/registry.py":
            continue
        own = _own_game(relative, packages)
        for line, name in imports_of(path, REPO):
            parts = name.split(".")
            if parts[0] == "games" and len(parts) > 1 and parts[1] in packages - {own}:
                problems.append(f"{relative}:{line}: imports {name}")
    assert problems == []


def _service_graph() -> dict[str, set[str]]:
    """games/*.py modules and the games/*.py modules each imports when it is imported."""
    names = {p.stem for p in (REPO / "games").glob("*.py")} - {"__init__"}
    graph: dict[str, set[str]] = {}
    for name in names:
        edges = set()
        for _, imported in imports_of(REPO / "games" / f"{name}.py", REPO, module_level=True):
            parts = imported.split(".")
            if parts[0] == "games" and len(parts) > 1 and parts[1] in names and parts[1] != name:
                edges.add(parts[1])
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first search (one path per back edge)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_the_service_has_no_import_circle_and_does_not_import_the_tasks():
    graph = _service_graph()
    assert cycles(graph) == []
    reaching_tasks = [name for name, edges in graph.items() if "tasks" in edges]
    assert sorted(reaching_tasks) == ["sweeper"]  # the tasks' own module, nothing else


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
