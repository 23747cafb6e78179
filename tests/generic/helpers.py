"""Generic drivers: any registered game, asked only through ``games.core.Game``.

No test here knows a game's cards or commands: moves come from the game's own bots."""

from __future__ import annotations

import uuid
from typing import Any

from games.core import ALL, Game
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import Table
from games.registry import game_names, get_game
from games.service import LoadedGame, game_command_execute, game_load
from tests.factories import UserFactory

GAMES = list(game_names())
CAST = ("alice", "bob", "carol", "dave")


def started(
    game: str, *, humans: int = 2, bots: int = 0, seed: str | None = None, **table: Any
) -> Table:
    """A started table of ``game``: ``humans`` from the cast (seats 0..), then bots."""
    least = get_game(game).min_players  # a game for 3 or more: more of the cast, or bots
    if humans:
        humans = max(humans, least - bots)
    else:
        bots = max(bots, least)
    if seed is not None:
        table.setdefault("mode", "sandbox")
    created = table_create(created_by=None, game=game, seats=humans + bots, seed=seed, **table)
    if seed is not None and table.get("undo"):
        Table.objects.filter(id=created.id).update(mode="casual")
    for name in CAST[:humans]:
        seat_join(table_id=created.id, user=UserFactory(username=f"{name}-{uuid.uuid4().hex[:6]}"))
    for _ in range(bots):
        seat_add_bot(table_id=created.id, bot="heuristic")
    return table_start(table_id=created.id)


def loaded(table: Table) -> LoadedGame:
    return game_load(game_id=table.id)


def awaited(table: Table) -> tuple[int, ...]:
    game = loaded(table)
    return game.definition.status(game.state).awaiting


def a_move(table: Table, seat: int, seed: str = "move") -> dict[str, Any]:
    """A legal command for ``seat``: what the game's heuristic bot would send."""
    game = loaded(table)
    command = game.definition.bot_command(game.state, seat, "heuristic", seed)
    assert command is not None
    return command


def play(table: Table, seat: int, command: dict[str, Any], **kw: Any) -> Any:
    return game_command_execute(
        game_id=table.id,
        seat=seat,
        actor=f"user:{seat}",
        command=command,
        command_id=kw.pop("command_id", uuid.uuid4()),
        **kw,
    )


def reveals(definition: Game, state: Any, seat: int, command: dict[str, Any]) -> Any:
    """What the events of ``command`` would reveal, decided purely (nothing appended)."""
    events = definition.decide(state, seat, definition.decode_command(command), now=0)
    shown: set[int] = set()
    for event in events:
        data = definition.encode_event(event)
        kind = data.pop("type")
        reveal = definition.revealed_to(kind, data)
        if reveal == ALL:
            return ALL
        shown |= set(reveal)
    return frozenset(shown)


def find_move(table: Table, seat: int, *, revealing: bool, tries: int = 200) -> dict[str, Any]:
    """A command for ``seat`` whose events reveal something (or nothing), found among the
    random bot's choices."""
    game = loaded(table)
    definition = game.definition
    for n in range(tries):
        command = definition.bot_command(game.state, seat, "random", f"search:{n}")
        if command is None:
            continue
        if bool(reveals(definition, game.state, seat, command)) == revealing:
            return command
    raise AssertionError(f"no {'revealing' if revealing else 'quiet'} move in {tries} tries")


def definition_of(name: str) -> Game:
    return get_game(name)
