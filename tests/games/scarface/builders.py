"""Scarface test builders: a dealt game, a patched position (SR-74: holdings, board,
tracks, decks without a long prologue), and a one-line way to send a command."""

from __future__ import annotations

from typing import Any

from games.scarface.codec import decode_command
from games.scarface.content import STANDIN_0
from games.scarface.evolve import evolve, replay
from games.scarface.rules import decide
from games.scarface.setup import setup_events
from games.scarface.state import GameState, PlayerState, Tile, with_changes
from games.scarface.versions import RULES_VERSION


def dealt(
    players: int = 3, seed: str = "test", *, rules_version: int = RULES_VERSION, **options: Any
) -> GameState:
    """A dealt game under ``rules_version`` (default: the newest; a test of an older
    version's behaviour pins it). The rule tests read the specification's numbers, so the
    content defaults to ``scarface/standin-0`` (a test of ``standin-1`` names it)."""
    names = [f"P{i}" for i in range(players)]
    options.setdefault("content_version", STANDIN_0)
    return replay(setup_events(names, options, seed, rules_version=rules_version))


def at_actions(
    state: GameState, seat: int | None = None, *, muscle: int = 0, influence: int = 0,
    plan: tuple[str, ...] = (), **changes: Any,
) -> GameState:  # fmt: skip
    """``state`` at ``seat``'s action phase with a plan of these totals (a patched position)."""
    seat = state.seat if seat is None else seat
    base: dict[str, Any] = {"order_used": False, "skills_used": (), "boss_uses": 0}
    state = with_changes(state, seat=seat, step="actions", kind="action", muscle=muscle,
                         influence=influence, **{**base, **changes})  # fmt: skip
    if plan:
        state = player(state, seat, plan=plan)
    return state


def player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = with_changes(players[seat], **changes)
    return with_changes(state, players=tuple(players))


def give_jobs(state: GameState, seat: int, jobs: tuple[str, ...]) -> GameState:
    """``seat`` holds ``jobs`` in place of its dealt ones, which go where those were (every
    card stays in one place: a valid position)."""
    mine = list(state.players[seat].jobs)
    deck = list(state.job_deck)
    others = {s: list(p.jobs) for s, p in enumerate(state.players) if s != seat}
    for job in jobs:
        if job in mine:
            continue
        old = next(j for j in mine if j not in jobs)
        mine[mine.index(old)] = job
        for place in (deck, *others.values()):
            if job in place:
                place[place.index(job)] = old
    for s, held in others.items():
        state = player(state, s, jobs=tuple(held))
    return with_changes(player(state, seat, jobs=tuple(mine)), job_deck=tuple(deck))


def tile(state: GameState, tid: str, **changes: Any) -> GameState:
    tiles = list(state.tiles)
    i = int(tid[1:]) - 1
    tiles[i] = with_changes(tiles[i], **changes)
    return with_changes(state, tiles=tuple(tiles))


def send(
    state: GameState, seat: int | None, command: dict[str, Any]
) -> tuple[GameState, tuple[Any, ...]]:
    events = decide(state, seat, decode_command(command))
    for e in events:
        state = evolve(state, e)
    return state, events


def kinds(events: tuple[Any, ...]) -> list[str]:
    return [type(e).__name__ for e in events]


__all__ = [
    "PlayerState",
    "Tile",
    "at_actions",
    "dealt",
    "give_jobs",
    "kinds",
    "player",
    "send",
    "tile",
]
