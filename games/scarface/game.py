"""Scarface 1920 as a ``games.core.Game``: the adapter the service talks to.

Every step is timed by the table's turn clock (one seat awaited at a time, no windows);
``step_key`` is ``t<turn>:<step>`` (SR-75), so skills, jobs and the order of one action
phase run on one clock, and a timed-out action turn takes two deadlines (plan, then the
actions) under the ``minimal`` policy (SR-59)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.adapter import Adapter
from games.core import ALL, Outcome, Reveal, RuleViolation, Status, TableOption, Window
from games.positions import POSITION, position_option

from . import bots, codec, errors, hidden, position, review, view
from .commands import Command
from .content import CONTENT_VERSION, CONTENT_VERSIONS
from .defaults import minimal_command
from .evolve import evolve
from .game_status import outcome
from .legal import legal_commands
from .rules import awaiting, decide, out_of_turn
from .setup import MAX_PLAYERS, MIN_PLAYERS, setup_events, validate_options
from .state import GameState
from .versions import RULES_VERSION, RULES_VERSIONS

TIMEOUT_POLICIES = ("minimal", "bot")
PUBLIC_OPTIONS = ("gangs", "content_version")


class Scarface(Adapter[GameState]):
    name = "scarface"
    title = "Scarface 1920"
    rules_version = RULES_VERSION
    rules_versions: tuple[int, ...] = RULES_VERSIONS
    content_version: str | None = CONTENT_VERSION
    content_versions: tuple[str, ...] = CONTENT_VERSIONS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bot_kinds: tuple[str, ...] = ("random", "minimal", "heuristic")
    timeout_policies: tuple[str, ...] = TIMEOUT_POLICIES
    error_codes: Mapping[str, str] = errors.CODES
    window_closers: tuple[tuple[str, str], ...] = ()
    reaction_windows: bool = False  # SR-17
    goal: str = (
        "Run a gang in Prohibition Chicago: take neighbourhoods, sell alcohol and guns, build "
        "businesses and keep ahead of the law. When Prohibition ends, the most money (cash "
        "plus final income) wins."
    )
    rules_document: str = "docs/rules-scarface.md"
    table_options: tuple[TableOption, ...] = ()
    codec = codec
    views = view
    hidden = hidden
    review = review
    turn_name: str = review.TURN_NAME
    moment_kinds: Mapping[str, str] = review.MOMENT_KINDS

    def http_status(self, code: str) -> int:
        return errors.http_status(code)

    # --- tables and setup ---------------------------------------------------------------

    def validate_options(
        self, options: Mapping[str, Any] | None, seats: int, *, sandbox: bool
    ) -> dict[str, Any]:
        raw = dict(options or {})
        given = position_option(raw, sandbox=sandbox, says="players, content_version, stacked")
        if given is not None:
            doc = position.validate_position(given, seats)
            gangs = [p["gang"] for p in doc["players"]]
            return {
                "gangs": gangs,
                "stacked": {},
                "content_version": doc["content_version"],
                POSITION: doc,
            }
        return validate_options(raw, seats, sandbox=sandbox)

    def public_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {k: options[k] for k in PUBLIC_OPTIONS if k in options}

    def start(
        self, names: Sequence[str], options: Mapping[str, Any], seed: str, salt: str
    ) -> tuple[Any, ...]:
        if options.get(POSITION) is not None:
            return position.position_started(tuple(names), options[POSITION], seed, salt)
        return setup_events(list(names), options, seed, salt)

    def setup_from_started(self, started: Mapping[str, Any], seed: str) -> tuple[Any, ...]:
        if started.get("position") is not None:
            names = tuple(started["names"])
            return position.position_started(names, started["position"], seed, started["salt"])
        # the recorded deck orders, stacked whole, give the same game (offline verify)
        stacked = dict(started.get("stacked") or {})
        stacked["first_seat"] = started["first_seat"]
        options = {
            "gangs": list(started["gangs"]),
            "content_version": started["content_version"],
            "stacked": stacked,
        }
        return setup_events(
            list(started["names"]), options, seed, started.get("salt", ""),
            rules_version=started["rules_version"],
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

    def placements(self, state: GameState) -> tuple[tuple[int, ...], ...] | None:
        """Ratings' finishing order (``games.core.Game.placements`` on main): the winners;
        then the seats still in the game by money (cash + final income), then cash, equal
        sharing a place (S-11.3); then the seats that resigned."""
        if not state.over:
            return None
        won = tuple(sorted(state.winners))
        rest: dict[tuple[int, int], list[int]] = {}
        for seat in state.in_game():
            if seat not in won:
                key = (state.cash[seat] + state.final_income[seat], state.cash[seat])
                rest.setdefault(key, []).append(seat)
        groups = [won] if won else []
        groups += [tuple(sorted(rest[key])) for key in sorted(rest, reverse=True)]
        left = tuple(p.seat for p in state.players if not p.in_game and p.seat not in won)
        return tuple(groups) + ((left,) if left else ())

    def status(self, state: GameState) -> Status:
        if state.over:
            return Status(over=True, winners=tuple(state.winners))
        waiting = awaiting(state)
        if not waiting:
            return Status(over=False)
        deadlines: dict[int, int | None] = {seat: None for seat in waiting}
        return Status(over=False, awaiting=waiting, deadlines=deadlines,
                      step_key=view.step_key(state), out_of_turn=out_of_turn(state))  # fmt: skip

    def names_its_step(self, command: Any) -> bool:
        return False

    def close_command(self, window: Window) -> dict[str, Any]:
        raise RuleViolation("not_allowed_now", "Scarface 1920 has no windows.")

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
        if seat not in awaiting(state):
            return None
        return codec.encode_command(bots.bot_for(kind, seed).choose(state, seat))

    # --- what leaves the server ---------------------------------------------------------

    def revealed_to(self, kind: str, payload: Mapping[str, Any]) -> Reveal:
        shown = view.reveals(codec.decode_event({**payload, "type": kind}))
        return ALL if shown == "all" else frozenset(shown)

    def legal_commands(self, state: GameState, seat: int | None, *, now: int | None = None) -> Any:
        return legal_commands(state, seat, now=now)


GAME = Scarface()
__all__ = ["GAME", "Scarface"]
