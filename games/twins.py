"""The pieces a game's ``hidden_twin`` is made of (``games.core.Game.hidden_twin``).

A twin is another history, event for event, that one viewer cannot tell from the real
one: what it may not know is drawn again, what it may know is kept. Cards are strings in
the events' plain-data forms; a card the viewer never saw (every mention of it is in a
field hidden from it) may be swapped for another such card throughout the history
(``renamed_unseen``), and the cards still in a deck since its last shuffle may be put in
another order (``untaken_reordered``). Both leave every field the viewer sees as it was.

Pure like ``games.core``: the standard library and ``games.rng`` only.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.rng import shuffled


def other_seed(seed: str, twin_seed: str) -> str:
    """A secret seed (or salt) the twin has instead of ``seed``; its published hash is
    kept: nobody tells a seed from another by a hash it cannot invert. An empty salt (a
    game started without one) stays empty."""
    return f"twin:{twin_seed}:{seed}" if seed else ""


def reseeded(started: Any, twin_seed: str) -> Any:
    """A game's start event (a dataclass with ``seed`` and ``salt``) with the twin's seed
    and salt (``other_seed``)."""
    return replace(
        started, seed=other_seed(started.seed, twin_seed), salt=other_seed(started.salt, twin_seed)
    )


def strings_in(data: Any, among: Collection[str]) -> set[str]:
    """Every string of ``among`` anywhere in a plain-data structure."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str) and item in among:
            found.add(item)
    return found


def renamed(data: Any, names: Mapping[str, str]) -> Any:
    """``data`` with every string that ``names`` maps replaced by its image."""
    if isinstance(data, dict):
        return {key: renamed(value, names) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [renamed(value, names) for value in data]
    if isinstance(data, str):
        return names.get(data, data)
    return data


def renamed_unseen(
    encoded: Sequence[dict[str, Any]],
    seen_part: Callable[[dict[str, Any]], Any],
    cards: Collection[str],
    seed: str,
    group: Callable[[str], str] = lambda card: "",
) -> list[dict[str, Any]]:
    """The events (plain data) with the cards the viewer never saw swapped among
    themselves, each within its ``group`` (a card kind the viewer knows, such as a scheme's
    faction). ``seen_part`` is what the viewer sees of one event: the cards named there are
    seen; the others appear only in fields hidden from it."""
    mentioned: set[str] = set()
    seen: set[str] = set()
    for data in encoded:
        mentioned |= strings_in(data, cards)
        seen |= strings_in(seen_part(data), cards)
    unseen = sorted(mentioned - seen)
    names: dict[str, str] = {}
    for kind in sorted({group(card) for card in unseen}):
        alike = [card for card in unseen if group(card) == kind]
        names.update(zip(alike, shuffled(alike, seed, f"twin:cards:{kind}"), strict=True))
    return [renamed(data, names) for data in encoded]


def untaken_reordered(cards: Sequence[str], taken: int, seed: str, label: str) -> tuple[str, ...]:
    """A shuffled deck (top first) whose first ``taken`` cards have been drawn since: the
    rest, still in the deck, in another order."""
    return (*cards[:taken], *shuffled(cards[taken:], seed, f"twin:deck:{label}"))


def without(data: dict[str, Any], *fields: str) -> dict[str, Any]:
    """An event's plain data without the fields hidden from the viewer."""
    return {key: value for key, value in data.items() if key not in fields}
