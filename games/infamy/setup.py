"""Starting a game (I-2): table options, their validation (G-1, G-15) and setup events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import BOARD, COLOURS, CONTACT_IDS, CONTENT_VERSION, FACTIONS, JOB_IDS, faction_schemes
from .content import CONTENT_VERSIONS
from .errors import RuleViolation
from .events import (
    BodyguardAssigned,
    Event,
    GameStarted,
    JobDeckShuffled,
    JobsRefilled,
    SchemeDeckShuffled,
    WatchdogPlaced,
)
from .evolve import replay
from .flow import Builder, start_round
from .rng import choice, seed_hash, shuffled
from .state import GameState
from .versions import RULES_VERSION, RULES_VERSIONS

MIN_PLAYERS, MAX_PLAYERS = 3, 4
STACKABLE = ("contacts", "jobs", "schemes.harada", "schemes.trust", "schemes.pkd",
             "first_seat", "watchdog_sector")  # fmt: skip


@dataclass(frozen=True)
class Options:
    """The table options Infamy accepts (``validate_options`` builds them from JSON)."""

    colours: tuple[str, ...] = ()  # per seat; default pink, teal, brown, yellow (I-2.6)
    sector_seconds: int = 60  # the sealed sector step's deadline
    turn_seconds: int = 0  # single-seat steps' engine deadline; 0: none (the service times)
    stacked: Mapping[str, Any] = field(default_factory=dict)  # sandbox decks (G-15)
    # the stand-in tables it is played with (content.py; default: the newest)
    content_version: str = CONTENT_VERSION


def _bad(message: str, field: str, **data: Any) -> RuleViolation:
    """A refusal naming the option at fault (``field``: its key, e.g. ``stacked``)."""
    return RuleViolation("bad_options", message, field=field, **data)


def _ids(value: Any, known: Sequence[str], name: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _bad(f"stacked.{name} is a list of ids.", "stacked")
    if len(set(value)) != len(value) or any(v not in known for v in value):
        raise _bad(f"stacked.{name} names known ids, each once.", "stacked")
    return tuple(value)


def validate_options(options: Mapping[str, Any] | None, seats: int) -> Options:
    """The options of a new table, checked (``bad_options`` otherwise)."""
    options = dict(options or {})
    known = {"players", "colours", "sector_seconds", "turn_seconds", "stacked", "content_version"}
    unknown = set(options) - known
    if unknown:
        raise _bad(f"Unknown option(s): {', '.join(sorted(unknown))}.", sorted(unknown)[0])
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise _bad("Infamy is for 3 to 4 players.", "seats", seats=seats)
    colours: list[str] = []
    players = options.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) > seats:
            raise _bad("options.players is a list of at most one entry per seat.", "players")
        for p in players:
            colour = p.get("colour") if isinstance(p, dict) else None
            if colour is not None:
                colours.append(colour)
    raw = options.get("colours")
    if raw is not None:
        if not isinstance(raw, list):
            raise _bad("colours is a list.", "colours")
        colours = list(raw)
    if any(c not in COLOURS for c in colours) or len(set(colours)) != len(colours):
        raise _bad("Colours are different ones of pink, teal, brown, yellow (no black, "
                   "I-1.3).", "colours", choices=list(COLOURS))  # fmt: skip
    free = [c for c in COLOURS if c not in colours]
    full = tuple(colours) + tuple(free[: seats - len(colours)])
    timing = {}
    for key, low in (("sector_seconds", 1), ("turn_seconds", 0)):
        value = options.get(key, Options.sector_seconds if low else 0)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 86400:
            raise _bad(f"{key} is a whole number of seconds ({low} to 86400).", key)
        timing[key] = value
    stacked = options.get("stacked") or {}
    if not isinstance(stacked, dict) or set(stacked) - set(STACKABLE):
        raise _bad("stacked names only: " + ", ".join(STACKABLE), "stacked")
    clean: dict[str, Any] = {}
    for key, value in stacked.items():
        if key == "contacts":
            if not isinstance(value, list):
                raise _bad("stacked.contacts is a list of orders, one per Day.", "stacked")
            clean[key] = [list(_ids(order, CONTACT_IDS, key)) for order in value]
        elif key == "jobs":
            clean[key] = list(_ids(value, JOB_IDS, key))
        elif key.startswith("schemes."):
            clean[key] = list(_ids(value, faction_schemes(key[8:]), key))
        elif key == "first_seat":
            if isinstance(value, bool) or value not in range(seats):
                raise _bad("stacked.first_seat is a seat number.", "stacked")
            clean[key] = value
        else:
            if isinstance(value, bool) or value not in BOARD:
                raise _bad("stacked.watchdog_sector is a sector (1-6).", "stacked")
            clean[key] = value
    content = options.get("content_version", CONTENT_VERSION)
    if content not in CONTENT_VERSIONS:
        raise _bad("content_version names a content version Infamy plays.", "content_version",
                   choices=list(CONTENT_VERSIONS))  # fmt: skip
    return Options(full, timing["sector_seconds"], timing["turn_seconds"], clean, content)


def setup_events(
    players: int | Sequence[str], options: Options | Mapping[str, Any] | None = None,
    seed: str = "", salt: str = "", *, rules_version: int = RULES_VERSION,
    content_version: str | None = None,
) -> tuple[Event, ...]:  # fmt: skip
    """The events that start a game (I-2): decks, bodyguard, Watchdog, the first round,
    under ``rules_version`` and ``content_version`` (default: the newest; a recorded game's
    own, to re-derive its setup; the content defaults to the options')."""
    if rules_version not in RULES_VERSIONS:
        raise _bad(f"Unknown rules version {rules_version}.", "rules_version",
                   choices=list(RULES_VERSIONS))  # fmt: skip
    names = (
        tuple(f"Player {i + 1}" for i in range(players))
        if isinstance(players, int)
        else tuple(players)
    )
    if not isinstance(options, Options):
        options = validate_options(options, len(names))
    elif not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _bad("Infamy is for 3 to 4 players.", "seats", seats=len(names))
    colours = options.colours or COLOURS[: len(names)]
    content_version = content_version or options.content_version
    if content_version not in CONTENT_VERSIONS:
        raise _bad(f"Unknown content version {content_version}.", "content_version",
                   choices=list(CONTENT_VERSIONS))  # fmt: skip
    st = options.stacked
    b = Builder(GameState())
    b.emit(GameStarted(rules_version, content_version, names, tuple(colours),
                       options.sector_seconds, options.turn_seconds, seed,
                       seed_hash(seed, salt), dict(st), salt))  # fmt: skip

    def deck(ids: Sequence[str], top: Sequence[str], label: str) -> tuple[str, ...]:
        return tuple(top) + shuffled([c for c in ids if c not in top], seed, label)

    b.emit(JobDeckShuffled(deck(JOB_IDS, st.get("jobs", ()), "jobs:setup")))
    b.emit(JobsRefilled(b.state.job_deck[: len(names)]))  # I-2.1
    for f in FACTIONS:  # I-2.3
        top = st.get(f"schemes.{f}", ())
        b.emit(SchemeDeckShuffled(f, deck(faction_schemes(f), top, f"schemes:{f}:setup"), "setup"))
    first = st.get("first_seat", choice(range(len(names)), seed, "first_seat"))  # I-2.8
    b.emit(BodyguardAssigned(first))
    sector = st.get("watchdog_sector", choice(tuple(BOARD), seed, "watchdog:setup"))  # I-2.9
    b.emit(WatchdogPlaced(sector, "setup"))
    start_round(b)
    return tuple(b.events)


def initial_state(
    players: int | Sequence[str], options: Options | Mapping[str, Any] | None = None,
    seed: str = "", *, rules_version: int | None = None,
) -> GameState:  # fmt: skip
    """A started game's state (``rules_version``: an older version's, for tests)."""
    version = RULES_VERSION if rules_version is None else rules_version
    return replay(setup_events(players, options, seed, rules_version=version))
