"""A small cast and table helpers for service tests: alice (seat 0), bob (1), carol (2),
dave (3), and mallory (never seated)."""

from __future__ import annotations

import uuid
from typing import Any

from games.family_business import CARD_KIND
from games.lobby import seat_add_bot, seat_join, table_create, table_start
from games.models import Table
from games.service import LoadedGame, game_command_execute, game_load
from tests.factories import UserFactory

CAST = ("alice", "bob", "carol", "dave", "erin", "frank")


COUNTER_CARDS = {
    c
    for c, k in CARD_KIND.items()
    if k in ("FAMILY_INFLUENCE", "MOB_POWER", "FINGER", "SAFE_HOUSE")
}


def cards_of(kind: str) -> list[str]:
    return sorted(c for c, k in CARD_KIND.items() if k == kind)


def human_table(
    players: int = 3,
    *,
    mode: str = "casual",
    stacked: list[str] | None = None,
    seed: str | None = None,
    reaction_seconds: int = 10,
    bots: int = 0,
    undoable: bool = False,
) -> Table:
    """A started table of ``players`` humans from the cast (then ``bots`` bots).

    ``undoable``: a stacked sandbox made casual with undo before it starts (sandboxes
    allow none), for tests of undo that need a window-opening card in hand."""
    sandbox = stacked is not None or seed is not None
    table = table_create(
        created_by=None,
        seats=players + bots,
        mode="sandbox" if sandbox else mode,
        reaction_seconds=reaction_seconds,
        seed=seed if sandbox else None,
        stacked_deck=stacked or [],
    )
    if undoable:
        Table.objects.filter(id=table.id).update(mode=Table.Mode.CASUAL, undo=Table.Undo.OWN_LAST)
    elif sandbox and mode == "casual":
        Table.objects.filter(id=table.id).update(undo=Table.Undo.OFF)
    for name in CAST[:players]:
        seat_join(table_id=table.id, user=UserFactory(username=name))
    for _ in range(bots):
        seat_add_bot(table_id=table.id, bot="heuristic")
    return table_start(table_id=table.id)


def hand_stack(*hands: list[str]) -> list[str]:
    """A stacked deck dealing each seat the given kinds first (five cards a seat)."""
    taken: set[str] = set()
    order: list[str] = []
    for hand in hands:
        block: list[str] = []
        for kind in hand:
            card = next(c for c in cards_of(kind) if c not in taken)
            taken.add(card)
            block.append(card)
        while len(block) < 5:  # fill with cards nobody can counter with
            card = next(
                c
                for c in sorted(CARD_KIND, reverse=True)
                if c not in taken and c not in COUNTER_CARDS
            )
            taken.add(card)
            block.append(card)
        order.extend(block)
    return order


def run(table: Table, seat: int | None, command: dict[str, Any], **kw: Any) -> Any:
    actor = "system" if seat is None else f"user:{CAST[seat]}"
    return game_command_execute(
        game_id=table.id,
        seat=seat,
        actor=actor,
        command=command,
        command_id=kw.pop("command_id", uuid.uuid4()),
        **kw,
    )


def state(table: Table) -> LoadedGame:
    return game_load(game_id=table.id)


def contract_first(table: Table, **kw: Any) -> Any:
    """The seat whose turn it is plays its first CONTRACT on the next seat's first mobster:
    a reaction window opens, the turn does not pass and nobody draws, so it may be undone."""
    loaded = state(table)
    seat = loaded.state.turn_seat
    card = next(c for c in loaded.state.players[seat].hand if CARD_KIND[c] == "CONTRACT")
    other = loaded.state.players[(seat + 1) % len(loaded.state.players)]
    return run(table, seat, {"type": "play", "card": card, "targets": [other.crew[0]]}, **kw)
