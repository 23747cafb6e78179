"""Hidden information over HTTP, for every registered game (parametrized): two tables whose
records differ only in what one viewer may not know (the game's ``hidden_twin``) answer
that viewer the same documents: its game document, the event feed, replays at several
points and the result of its next command, once the ids and clocks are set aside.

The records are random games played on the engine (tests/generic/random_play.py), stored
as the service stores a game (one ``append_command`` per command) at tables of the cast;
alice, bob and carol hold the seats and mallory looks on. The engine-level property
(tests/generic/test_hidden.py) says the projections hide; this says the service shows
nothing beside them that tells the two apart."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from events.chain import GENESIS
from events.store import append_command
from games.core import ALL, Game, Viewer
from games.loading import to_new_event
from games.lobby import seat_join, table_create
from games.models import Table
from games.registry import game_names, get_game
from games.service import clock_ms, game_load
from tests.api.helpers import Player
from tests.generic.helpers import reveals
from tests.generic.hiding import difference, twin_differs
from tests.generic.random_play import Played, fold, play

GAMES = list(game_names())
SEATS = 3  # a count every game takes: alice, bob and carol
# Moments, not content: set aside before two tables' documents are compared.
CLOCKS = frozenset(
    {"server_time", "window_remaining_ms", "recorded_at", "created_at", "started_at"}
)


def recorded(
    game: Game, cast: Sequence[Player], played: Played, events: Sequence[Any], commands: int
) -> str:
    """A started table of ``cast`` whose record is ``played``'s first ``commands``
    commands, each appending its events from ``events`` (the game's or its twin's)."""
    users = [player.user for player in cast]
    table = table_create(created_by=users[0], game=game.name, seats=len(users))
    for seat, user in enumerate(users):
        seat_join(table_id=table.id, user=user, position=seat)
    version, prev_hash = 0, GENESIS
    for move in played.moves[:commands]:
        rows, _ = append_command(
            stream_id=table.id,
            expected_version=version,
            prev_hash=prev_hash,
            events=[to_new_event(game, e) for e in events[move.first : move.last]],
            actor="system" if move.seat is None else f"user:{users[move.seat].pk}",
            command_id=uuid.uuid5(table.id, str(version)),
            seat=move.seat,
            command=move.command,
            expected_by_client=None,
            now_ms=move.now,
        )
        version, prev_hash = rows[-1].seq, rows[-1].hash
    Table.objects.filter(id=table.id).update(status=Table.Status.STARTED, started_at=timezone.now())
    return str(table.id)


def hidden_point(game: Game, played: Played, viewers: Sequence[Viewer]) -> int:
    """A number of commands, from a third of the game on, after which every viewer's twin
    is another game: something is hidden from each of them there. Preferably one where the
    awaited seat's next command shows nothing to every seat or to itself, so its answer
    can be compared (``command_answers_match``): a game whose every turn opens by showing
    something (a plan laid out face up) has one a move or two later."""
    first = None
    for commands in range(max(2, len(played.moves) // 3), len(played.moves)):
        events = played.events[: played.moves[commands - 1].last]
        if all(twin_differs(game, events, viewer, "api") for viewer in viewers):
            first = commands if first is None else first
            if quiet_next(game, events):
                return commands
    if first is not None:
        return first
    raise AssertionError(f"{game.name}: no point hides something from every viewer")


def quiet_next(game: Game, events: Sequence[Any]) -> bool:
    """Whether an awaited seat's next bot command (as ``command_answers_match`` sends it)
    shows nothing to every seat or to itself."""
    state = fold(game, events)
    for seat in game.status(state).awaiting:
        command = game.bot_command(state, seat, game.bot_kinds[0], "api")
        if command is not None:
            shown = reveals(game, state, seat, command)
            if shown != ALL and seat not in shown:
                return True
    return False


@dataclass(frozen=True)
class Pair:
    """A table and its twin for one viewer, read by that viewer's player."""

    player: Player
    viewer: Viewer
    real: str
    twin: str

    def same(self, path: str, **params: Any) -> None:
        real = self.player.get(path.format(self.real), **params)
        other = self.player.get(path.format(self.twin), **params)
        assert (real.status_code, other.status_code) == (200, 200), real.content
        found = difference(self.normalised(real.json()), self.normalised(other.json()))
        assert found is None, f"{self.viewer!r} tells the twin apart at {path}: {found}"

    def normalised(self, document: Any) -> Any:
        """``document`` with the twin table's id read as the real one's, clocks blanked."""
        if isinstance(document, dict):
            return {k: None if k in CLOCKS else self.normalised(v) for k, v in document.items()}
        if isinstance(document, list):
            return [self.normalised(v) for v in document]
        return self.real if document == self.twin else document


@pytest.mark.parametrize("name", GAMES)
def test_each_viewer_gets_the_same_documents_of_a_game_and_its_twin(
    name, alice, bob, carol, mallory
) -> None:
    game = get_game(name)
    cast = [alice, bob, carol]
    # later than any read here: the service closes no window of these records meanwhile
    start = clock_ms() + 3_600_000
    played = play(game, SEATS, f"api:{name}", game.bot_kinds[:1] * SEATS, start=start)
    viewers: list[tuple[Player, Viewer]] = [
        (alice, 0),
        (bob, 1),
        (carol, 2),
        (mallory, "spectator"),
    ]
    commands = hidden_point(game, played, [v for _, v in viewers])
    events = played.events[: played.moves[commands - 1].last]
    sent = 0
    for player, viewer in viewers:
        twin = game.hidden_twin(events, viewer, "api")
        # a pair of tables each: a seat's command below moves them on
        pair = Pair(
            player,
            viewer,
            recorded(game, cast, played, played.events, commands),
            recorded(game, cast, played, twin, commands),
        )
        pair.same("/games/{}")
        pair.same("/games/{}/events", after=0, wait=0)
        for at in range(1, len(events) + 1, max(1, len(events) // 8)):
            pair.same("/games/{}/replay", at=at)
        pair.same("/games/{}/replay")
        if isinstance(viewer, int):
            sent += command_answers_match(game, pair, viewer)
    assert sent, "no seat's command result was compared"


def command_answers_match(game: Game, pair: Pair, seat: int) -> int:
    """The seat's next command, sent to both tables when it is awaited and its events show
    it nothing new (what they show others is redacted for it): the same answer. 1 if sent."""
    state = game_load(game_id=uuid.UUID(pair.real)).state
    if seat not in game.status(state).awaiting:
        return 0
    command = game.bot_command(state, seat, game.bot_kinds[0], "api")
    if command is None:
        return 0
    shown = reveals(game, state, seat, command)
    if shown == ALL or seat in shown:
        return 0
    real = pair.player.command(pair.real, command)
    other = pair.player.command(pair.twin, command)
    assert (real.status_code, other.status_code) == (201, 201), real.content
    found = difference(pair.normalised(real.json()), pair.normalised(other.json()))
    assert found is None, f"seat {seat}'s command result tells the twin apart: {found}"
    return 1
