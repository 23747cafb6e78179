"""The hidden-information property, for any game, asked only through ``games.core.Game``.

Two histories that differ only in what a viewer may not know must look the same to it.
The game says what that is (``Game.hidden_twin``: the same history with what the viewer
may not know drawn again); the checks here compare everything the engine shows the
viewer of the real history and of its twin:

- each event as the viewer sees it (``redact_event``) and what it reveals (the undo
  boundary), which together with the view after a command is the command's result;
- the view after every event (a replay may stop at any event) and the status (who is
  awaited, until when, whether a choice is sealed);
- for a seat, at the end: its legal commands, what its bots and its timeout would play
  (they choose from what the seat may know), and the answer to any command it may send
  (accepted, or refused with the same code, message and data).

They raise ``AssertionError`` naming the first difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.core import Game, RuleViolation, Viewer
from tests.generic.random_play import Played, fold, play


def viewers(seats: int) -> list[Viewer]:
    return [*range(seats), "spectator", "staff"]


def difference(real: Any, twin: Any, path: str = "") -> str | None:
    """Where two plain-data values first differ (None: they are equal)."""
    if isinstance(real, dict) and isinstance(twin, dict):
        for key in sorted(set(real) | set(twin), key=str):
            if key not in real or key not in twin:
                return f"{path}.{key}: only in the {'twin' if key in twin else 'real game'}"
            found = difference(real[key], twin[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(real, list | tuple) and isinstance(twin, list | tuple):
        if len(real) != len(twin):
            return f"{path}: {real!r} != {twin!r}"
        for i, (a, b) in enumerate(zip(real, twin, strict=True)):
            found = difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if real == twin else f"{path}: {real!r} != {twin!r}"


def same(real: Any, twin: Any, what: str) -> None:
    if real != twin:
        found = difference(real, twin) or f"{real!r} != {twin!r}"
        raise AssertionError(f"{what} tells the twin apart: {found}")


def answer(game: Game, state: Any, seat: int, command: Any, now: int) -> tuple[Any, ...]:
    """What sending ``command`` as ``seat`` would answer: accepted, or the refusal."""
    try:
        game.decide(state, seat, game.decode_command(command), now=now)
    except RuleViolation as refusal:
        return ("refused", refusal.code, refusal.message, refusal.data)
    return ("accepted",)


def assert_hides(played: Played, commands: int, viewer: Viewer, twin_seed: str) -> tuple[Any, ...]:
    """The game's first ``commands`` commands, and the twin ``viewer`` cannot tell from
    them: every projection for ``viewer`` must be the same. Returns the twin."""
    game = played.game
    moves = played.moves[:commands]
    events = tuple(played.events[: moves[-1].last])
    twin = tuple(game.hidden_twin(events, viewer, twin_seed))
    assert len(twin) == len(events), "a twin has an event for every event"
    real, other = game.empty_state(), game.empty_state()
    for move in moves:
        for i in range(move.first, move.last):
            mine, theirs = events[i], twin[i]
            where = f"for {viewer!r}, event {i} ({type(mine).__name__})"
            same(game.redact_event(mine, viewer), game.redact_event(theirs, viewer), where)
            same(_reveals(game, mine), _reveals(game, theirs), f"what {where} reveals")
            real, other = game.evolve(real, mine), game.evolve(other, theirs)
            now = move.now
            same(
                game.view(real, viewer, now=now),
                game.view(other, viewer, now=now),
                f"the view {where} leaves",
            )
            same(game.status(real), game.status(other), f"the status {where} leaves")
    if isinstance(viewer, int):
        assert_own_moves_hide(played, real, other, viewer, moves[-1].now)
    return twin


def _reveals(game: Game, event: Any) -> Any:
    data = game.encode_event(event)
    kind = data.pop("type")
    return game.revealed_to(kind, data)


def assert_own_moves_hide(played: Played, real: Any, other: Any, seat: int, now: int) -> None:
    """What ``seat`` may do next, its bots' and timeout's choices, and the answer to any
    command it sends, are the same in the real game and in the twin."""
    game = played.game
    where = f"for seat {seat}"
    same(
        game.legal_commands(real, seat, now=now),
        game.legal_commands(other, seat, now=now),
        f"the legal commands {where}",
    )
    probes: list[Any] = [{"type": "no-such-command"}]
    awaiting = game.status(real).awaiting  # bots and timeouts play for awaited seats only
    for kind in game.bot_kinds:
        if seat in awaiting:
            mine = game.bot_command(real, seat, kind, "probe")
            same(mine, game.bot_command(other, seat, kind, "probe"), f"the {kind} bot {where}")
        probes += [game.bot_command(real, s, kind, "probe") for s in awaiting]
    for policy in game.timeout_policies if seat in awaiting else ():
        same(
            game.timeout_command(real, seat, policy, "probe"),
            game.timeout_command(other, seat, policy, "probe"),
            f"the {policy} timeout {where}",
        )
    # another seat's move, sent by this one: refused alike (no message names a hidden card)
    for command in probes:
        if command is not None:
            same(
                answer(game, real, seat, command, now),
                answer(game, other, seat, command, now),
                f"the answer to {command} {where}",
            )


def check_game_hides(
    game: Game,
    *,
    examples: int,
    options: dict[str, Any] | None = None,
    derandomize: bool = False,
    shrink: bool = True,
) -> None:
    """Random games of ``game``, cut after a random command, seen by a random viewer: the
    viewer cannot tell the real game from the game's twin for it."""
    counts = list(range(game.min_players, game.max_players + 1))
    phases = [Phase.explicit, Phase.generate, *([Phase.shrink] if shrink else [])]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=phases,
        derandomize=derandomize,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        seats = data.draw(st.sampled_from(counts), label="seats")
        seed = data.draw(st.integers(0, 2**32), label="seed")
        kinds = data.draw(
            st.lists(st.sampled_from(game.bot_kinds), min_size=seats, max_size=seats), label="bots"
        )
        played = play(game, seats, f"hidden:{seed}", kinds, options=options)
        commands = data.draw(st.integers(1, len(played.moves)), label="commands")
        viewer = data.draw(
            st.one_of(st.integers(0, seats - 1), st.sampled_from(["spectator", "staff"])),
            label="viewer",
        )
        assert_hides(played, commands, viewer, f"twin:{seed}")

    run()


def check_twins_differ(game: Game, games: int = 6) -> None:
    """The twins are not the game itself: for a seat and for a spectator, at some point of
    a few games the twin's state differs (seen through the staff's view, which shows the
    most) in what they may not see. A game whose twin changed nothing would pass every
    other check without testing anything."""
    missing: set[Viewer] = {0, "spectator"}
    for n in range(games):
        seats = game.min_players
        played = play(game, seats, f"differ:{n}", [game.bot_kinds[n % len(game.bot_kinds)]] * seats)
        for move in played.moves[1:]:
            for viewer in list(missing):
                if twin_differs(game, played.events[: move.last], viewer, f"differ:{n}"):
                    missing.discard(viewer)
            if not missing:
                return
    raise AssertionError(f"{game.name}: no twin differs from the real game for {missing}")


def twin_differs(game: Game, events: Sequence[Any], viewer: Viewer, seed: str) -> bool:
    """Whether ``viewer``'s twin of ``events`` is another game: staff, who see the most,
    tell the two apart."""
    twin = game.hidden_twin(events, viewer, seed)
    real, other = fold(game, events), fold(game, twin)
    return bool(game.view(real, "staff", now=0) != game.view(other, "staff", now=0))
