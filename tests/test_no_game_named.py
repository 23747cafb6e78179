"""The bar of issue 27: nothing outside a game's own places names a game.

A game's own places are its rules package (``games/<game>/``), the registry
(``games/registry.py``) and its pages (``web/games/<game>.py``, ``web/templates/web/<game>/``,
``web/static/web/<game>/``, and their registry ``web/games/__init__.py``). Everywhere else under games/, events/, api/, web/, webhooks/, ratings/ and
fbservice/, a Python, JavaScript, HTML or CSS file that names a registered game (its name or
its title, in any case, with ``_``, ``-``, a space or nothing between the words) or the next
one (Scarface 1920) fails; comments and docstrings count. Platform code talks to games
through ``games.core``; a new game gets everything else without a line there.

Left out: migrations (frozen history: their defaults and data migrations name the first
game as it was), and tests/, docs/, bench/ and the README, which are about the games.

``STILL_TO_GO`` is the explicit allow-list, empty now that the web pages are generic (the
site's brand is the ``FB_SITE_NAME`` setting): an entry would let a file name a game at most
that many times, and a count that became too high fails too.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from games.registry import GAMES

REPO = Path(__file__).resolve().parent.parent
ROOTS = ("games", "events", "api", "web", "webhooks", "fbservice", "ratings", "tournaments")
SUFFIXES = (".py", ".js", ".html", ".css")
NEXT = ("scarface",)  # registered next: it must find nothing to undo either

# file -> (how many lines may still name a game, why): none left. A page that must name a
# game for a reason of its own would be listed here, counted, with that reason.
STILL_TO_GO: dict[str, tuple[int, str]] = {}


def game_words() -> list[str]:
    words = set(NEXT)
    for game in GAMES.values():
        words |= {game.name, game.title}
    return sorted(words)


def pattern(words: list[str]) -> re.Pattern[str]:
    """A game's words in any case, joined by ``_``, ``-``, a space or nothing."""
    parts = [r"[_\- ]?".join(map(re.escape, re.split(r"[_\- ]+", w))) for w in words]
    return re.compile(r"(?<![a-z0-9])(" + "|".join(parts) + ")", re.IGNORECASE)


def own_places() -> tuple[str, ...]:
    """Path prefixes where naming a game is its business."""
    # the registries: the games', and their pages' (web/games/__init__.py: each game's
    # bespoke pages, registered as the games are in games/registry.py)
    places = ["games/registry.py", "web/games/__init__.py"]
    for name in GAMES:
        places += [
            f"games/{name}/",
            f"web/games/{name}.py",
            f"web/templates/web/{name}/",
            f"web/static/web/{name}/",
        ]
    return tuple(places)


def platform_files() -> list[Path]:
    own = own_places()
    files = []
    for root in ROOTS:
        for path in sorted((REPO / root).rglob("*")):
            relative = path.relative_to(REPO).as_posix()
            if (
                path.suffix in SUFFIXES
                and path.is_file()
                and "/migrations/" not in relative
                and not relative.startswith(own)
            ):
                files.append(path)
    return files


def hits(text: str, finder: re.Pattern[str]) -> list[str]:
    return [line.strip() for line in text.splitlines() if finder.search(line)]


def found() -> dict[str, list[str]]:
    finder = pattern(game_words())
    out: dict[str, list[str]] = {}
    for path in platform_files():
        lines = hits(path.read_text(encoding="utf-8"), finder)
        if lines:
            out[path.relative_to(REPO).as_posix()] = lines
    return out


def test_no_platform_file_names_a_game() -> None:
    named = found()
    over = {
        path: lines
        for path, lines in named.items()
        if len(lines) > STILL_TO_GO.get(path, (0, ""))[0]
    }
    assert not over, "platform files naming a game (talk to it through games.core):\n" + "\n".join(
        f"{path}: {line[:120]}" for path, lines in over.items() for line in lines
    )


def test_the_allow_list_is_as_tight_as_the_files() -> None:
    counts = Counter({path: len(lines) for path, lines in found().items()})
    loose = {path: (allowed, counts[path]) for path, (allowed, _) in STILL_TO_GO.items()}
    loose = {path: pair for path, pair in loose.items() if pair[0] != pair[1]}
    assert not loose, f"tighten STILL_TO_GO (allowed, found now): {loose}"


def test_the_checker_finds_a_game_however_it_is_written_and_nothing_else() -> None:
    finder = pattern(game_words())
    for line in (
        "Family Business's counters",
        'game: str = "family_business"',
        "family-business.css",
        "FamilyBusiness",
        "Infamy's sector cards",
        "GOOFSPIEL",
        "Scarface 1920 comes next",
        "x = scarface_rules",
    ):
        assert hits(line, finder), line
    for line in ("families of mobsters", "business hours", "infamous", "a goof"):
        assert not hits(line, finder), line


def test_the_checker_reads_the_roots_and_leaves_out_each_games_own_places() -> None:
    files = {path.relative_to(REPO).as_posix() for path in platform_files()}
    assert {"games/core.py", "api/serializers.py", "webhooks/relay.py"} <= files
    assert {"web/static/web/lobby.js", "fbservice/settings.py", "events/models.py"} <= files
    for name in GAMES:
        assert not any(f.startswith(f"games/{name}/") for f in files)
    assert "games/registry.py" not in files and "web/games/__init__.py" not in files
    assert not any("/migrations/" in f for f in files)
