"""Infamy as a ``games.core.Game``: the adapter the service talks to.

Everything the service needs to know of Infamy is answered here from the engine's own
functions; nothing outside this package reads an Infamy ``GameState``.

Timing. The sealed sector step is timed by the game itself: its deadline is the table
option ``sector_seconds``, recorded in ``StepStarted`` from the opening command's clock,
and reported as a ``Window`` whose id is the step key; the service closes it when it is
overdue by playing ``{"type": "timeout"}`` as the system (I-11.4's minimal default for
every seat that has not committed, then the reveal). Every single-seat step is timed by
the table's turn clock (``Table.turn_seconds`` and ``turn_action``), so the engine's own
``turn_seconds`` stays 0 on hosted tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.adapter import Adapter
from games.core import (
    ALL,
    Outcome,
    Placements,
    Reveal,
    RuleViolation,
    Status,
    TableOption,
    Window,
    placed_by,
)
from games.positions import POSITION, position_option

from . import bots, codec, errors, hidden, position, review, view
from .cards import CONTENT_VERSION
from .commands import Command
from .content import CONTENT_VERSIONS
from .defaults import minimal_command
from .evolve import evolve
from .flow import outcome
from .legal import legal_commands
from .rules import awaiting, decide
from .setup import MAX_PLAYERS, MIN_PLAYERS, Options, setup_events, validate_options
from .state import GameState
from .versions import RULES_VERSION, RULES_VERSIONS

TIMEOUT_POLICIES = ("minimal", "bot")
PUBLIC_OPTIONS = ("colours", "sector_seconds", "content_version")


def _options(stored: Mapping[str, Any]) -> Options:
    return Options(
        colours=tuple(stored.get("colours") or ()),
        sector_seconds=int(stored.get("sector_seconds", Options.sector_seconds)),
        turn_seconds=0,
        stacked=dict(stored.get("stacked") or {}),
        content_version=str(stored.get("content_version", CONTENT_VERSION)),
    )


class Infamy(Adapter[GameState]):
    name = "infamy"
    title = "Infamy"
    rules_version = RULES_VERSION
    rules_versions: tuple[int, ...] = RULES_VERSIONS  # every version it still decides
    content_version: str | None = CONTENT_VERSION  # the newest stand-in tables
    content_versions: tuple[str, ...] = CONTENT_VERSIONS  # every one it still plays
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bot_kinds: tuple[str, ...] = ("random", "heuristic")
    timeout_policies: tuple[str, ...] = TIMEOUT_POLICIES
    error_codes: Mapping[str, str] = errors.CODES
    window_closers: tuple[tuple[str, str], ...] = ()  # no reaction windows (IR-21)
    reaction_windows: bool = False  # (its sector step is timed, but nobody answers out of turn)
    goal: str = (
        "Become the most infamous crime boss in the city: win with more than 15 Infamy, or "
        "5 Reputation with one faction (which beats 15 Infamy or less), checked at the end "
        "of each round."
    )
    rules_document: str = "docs/rules-infamy.md"
    table_options: tuple[TableOption, ...] = (
        TableOption("sector_seconds", "Seconds for the sealed sector choice", "int", 60, 5, 600),
    )
    codec = codec  # storage, and what leaves the server: games.adapter.Adapter
    views = view
    hidden = hidden
    review = review
    turn_name: str = review.TURN_NAME
    moment_kinds: Mapping[str, str] = review.MOMENT_KINDS

    event_schema_version: int = codec.SCHEMA_VERSION  # 2: 3.3's field names

    def upcast_event(
        self, kind: str, payload: Mapping[str, Any], schema_version: int
    ) -> dict[str, Any]:
        return codec.upcast_event(kind, dict(payload), schema_version)

    def http_status(self, code: str) -> int:
        return errors.http_status(code)

    # --- tables and setup ---------------------------------------------------------------

    def validate_options(
        self, options: Mapping[str, Any] | None, seats: int, *, sandbox: bool
    ) -> dict[str, Any]:
        raw = dict(options or {})
        given = position_option(raw, sandbox=sandbox, says="colours, sector_seconds")
        if given is not None:
            doc = position.validate_position(given, seats)
            colours = [p["colour"] for p in doc["players"]]
            return {
                "colours": colours,
                "sector_seconds": doc["sector_seconds"],
                "stacked": {},
                POSITION: doc,
            }
        if "turn_seconds" in raw:
            # one clock per single-seat step: the table's (Table.turn_seconds)
            raise RuleViolation(
                "bad_options",
                "Moves are timed by the table's turn_seconds, not an Infamy option.",
                field="turn_seconds",
            )
        if raw.get("stacked") and not sandbox:
            raise RuleViolation(
                "bad_options", "Only sandbox tables take a seed or stacked decks.", field="stacked"
            )
        checked = validate_options(raw, seats)  # refusals name their ``field``
        return {
            "colours": list(checked.colours),
            "sector_seconds": checked.sector_seconds,
            "stacked": dict(checked.stacked),
            "content_version": checked.content_version,
        }

    def public_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {k: options[k] for k in PUBLIC_OPTIONS if k in options}

    def start(
        self, names: Sequence[str], options: Mapping[str, Any], seed: str, salt: str
    ) -> tuple[Any, ...]:
        if options.get(POSITION) is not None:
            return position.position_started(tuple(names), options[POSITION], seed, salt)
        return setup_events(list(names), _options(options), seed, salt)

    def setup_from_started(self, started: Mapping[str, Any], seed: str) -> tuple[Any, ...]:
        if started.get("position") is not None:
            names = tuple(started["names"])
            return position.position_started(names, started["position"], seed, started["salt"])
        options = Options(
            colours=tuple(started["colours"]),
            sector_seconds=started["sector_seconds"],
            turn_seconds=started["turn_seconds"],
            stacked=started.get("stacked") or {},
        )
        return setup_events(
            list(started["names"]), options, seed, started.get("salt", ""),
            rules_version=started["rules_version"], content_version=started["content_version"],
        )  # fmt: skip

    def validate_position(self, document: Any, seats: int) -> dict[str, Any]:
        return position.validate_position(document, seats)

    def position_of(self, state: GameState) -> dict[str, Any]:
        return position.position_of(state)

    # --- the rules ----------------------------------------------------------------------

    def empty_state(self) -> GameState:
        return GameState()

    def decide(
        self, state: GameState, seat: int | None, command: Command, *, now: int
    ) -> tuple[Any, ...]:
        return decide(state, seat, command, now=now)

    def evolve(self, state: GameState, event: Any) -> GameState:
        return evolve(state, event)

    def outcome(self, state: GameState) -> Outcome | None:
        return outcome(state)

    def placements(self, state: GameState) -> Placements | None:
        # The winners; then the seats still in the game by Infamy, the first criterion of
        # every victory class (equal Infamy shares a place); then every seat that left.
        if not state.over:
            return None
        won = tuple(state.winners)
        staying = {p.seat: p.infamy for p in state.players if not p.out}
        ranked = placed_by(staying, won)
        left = tuple(p.seat for p in state.players if p.out and p.seat not in won)
        return ranked + ((left,) if left else ())

    def status(self, state: GameState) -> Status:
        if state.over:
            return Status(over=True, winners=tuple(state.winners))
        waiting = awaiting(state)
        if not waiting:  # between steps only while a command's events fold
            return Status(over=False, sealed=sealed(state))
        key = view.step_key(state)
        deadlines = {seat: state.deadline for seat in waiting}
        if state.step == "sector":
            # the sealed step runs on its own deadline: the service closes it (I-11.4)
            window = None if state.deadline is None else Window(key, state.deadline)
            return Status(False, (), waiting, deadlines, key, window, sealed=sealed(state))
        return Status(over=False, awaiting=waiting, deadlines=deadlines, step_key=key)

    def names_its_step(self, command: Any) -> bool:
        return False  # no command names its step: a stale version is refused

    def close_command(self, window: Window) -> dict[str, Any]:
        return {"type": "timeout"}  # every seat still choosing gets I-11.4's default

    def timeout_command(
        self, state: GameState, seat: int, policy: str, seed: str
    ) -> dict[str, Any] | None:
        if seat not in awaiting(state):
            return None
        if policy == "bot":
            return self.bot_command(state, seat, "heuristic", seed)
        return codec.encode_command(minimal_command(state, seat))

    def bot_command(
        self, state: GameState, seat: int, kind: str, seed: str
    ) -> dict[str, Any] | None:
        bot = bots.RandomBot() if kind == "random" else bots.HeuristicBot()
        # the bot reads only view.observe(state, seat): no other seat's sealed choice (G-12)
        return codec.encode_command(bot.choose(state, seat, bots.decision_rng(seed, state, seat)))

    # --- what leaves the server ---------------------------------------------------------

    def revealed_to(self, kind: str, payload: Mapping[str, Any]) -> Reveal:
        shown = view.reveals(codec.decode_event({**payload, "type": kind}))
        return ALL if shown == "all" else frozenset(shown)

    def legal_commands(self, state: GameState, seat: int | None, *, now: int | None = None) -> Any:
        return legal_commands(state, seat, now=now)


def sealed(state: GameState) -> bool:
    """Whether a seat's choice is committed and not yet revealed (audit and export of the
    running game would show it: the service refuses them meanwhile)."""
    return state.step == "sector" and any(c is not None for c in state.choices)


GAME = Infamy()
__all__ = ["GAME", "Infamy", "sealed"]
