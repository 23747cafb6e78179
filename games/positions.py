"""The pieces a game's start-position validation is made of (``Game.validate_position``).

A position document is plain JSON; a game reads it field by field with these helpers, so
every refusal is ``RuleViolation("bad_position", message, field=path)`` with ``path`` the
dotted place of the fault (``players.1.hand.2``) and a message for people.

Pure like ``games.core``: the standard library and ``games.core`` only.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Collection, Mapping, Sequence
from typing import Any, NoReturn

from games.core import RuleViolation

POSITION = "position"  # the table option that carries a sandbox's start position


def position_option(options: Mapping[str, Any], *, sandbox: bool, says: str) -> Any | None:
    """A table's ``position`` option as given (None: the table starts from a deal), once
    the table may take one: only a sandbox, and alone, for the position says the options
    the game would otherwise take (``says``: their names, for the refusal)."""
    if POSITION not in options:
        return None
    if not sandbox:
        raise RuleViolation(
            "bad_options", "Only sandbox tables start from a position.", field=POSITION
        )
    if set(options) != {POSITION}:
        raise RuleViolation(
            "bad_options",
            f"A position says its own options ({says}).",
            field=sorted(set(options) - {POSITION})[0],
        )
    return options[POSITION]


def bad(path: str, message: str) -> NoReturn:
    raise RuleViolation("bad_position", message, field=path)


def at(path: str, key: str | int) -> str:
    """The path of ``key`` under ``path`` ("" is the document itself)."""
    return f"{path}.{key}" if path else str(key)


def obj(
    value: Any, path: str, required: Collection[str], optional: Collection[str] = ()
) -> dict[str, Any]:
    """``value`` as an object with every ``required`` key, some ``optional`` ones, no other."""
    if not isinstance(value, Mapping):
        bad(path or POSITION, "A position (and each of its parts) is a JSON object here.")
    for key in value:
        if key not in required and key not in optional:
            bad(at(path, str(key)), f"Unknown field {key!r}.")
    for key in required:
        if key not in value:
            bad(at(path, key), f"{key} is required.")
    return dict(value)


def integer(value: Any, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        bad(path, "A whole number is needed here.")
    if not low <= value <= high:
        bad(path, f"{value} is out of range: {low} to {high}.")
    return value


def optional_integer(value: Any, path: str, low: int, high: int) -> int | None:
    return None if value is None else integer(value, path, low, high)


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        bad(path, "true or false is needed here.")
    return value


def text(value: Any, path: str, among: Collection[str] | None = None) -> str:
    if not isinstance(value, str):
        bad(path, "A string is needed here.")
    if among is not None and value not in among:
        shown = ", ".join(sorted(among)[:12])
        bad(path, f"{value!r} is not one of: {shown}{' ...' if len(among) > 12 else ''}.")
    return value


def array(value: Any, path: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list | tuple):
        bad(path, "A list is needed here.")
    if length is not None and len(value) != length:
        bad(path, f"A list of {length} is needed here, not {len(value)}.")
    return list(value)


def cards(value: Any, path: str, known: Collection[str]) -> list[str]:
    """A list of card ids, each known (``RuleViolation`` naming the first unknown one)."""
    items = array(value, path)
    for i, card in enumerate(items):
        text(card, at(path, i), None)
        if card not in known:
            bad(at(path, i), f"Unknown card {card!r}.")
    return items


def each_once(
    places: Sequence[tuple[str, Sequence[str]]], every: Collection[str], missing_at: str
) -> None:
    """Every card of ``every`` in exactly one of the ``places`` (path, cards): a card twice
    is refused at its second place, a missing one at ``missing_at``."""
    seen: dict[str, str] = {}
    for path, items in places:
        for i, card in enumerate(items):
            if card in seen:
                bad(at(path, i), f"{card} is already at {seen[card]}: each card is in one place.")
            seen[card] = at(path, i)
    missing = sorted(set(every) - set(seen))
    if missing:
        more = " ..." if len(missing) > 8 else ""
        bad(
            missing_at,
            f"Cards missing from the position: {', '.join(missing[:8])}{more} "
            "(every card is in exactly one place).",
        )


def typed(value: Any, hint: Any, path: str) -> Any:
    """``value`` (JSON) as a state field of type ``hint`` (int, str, bool, ``X | None``,
    ``tuple[X, ...]``, fixed tuples, frozen dataclasses): lists become tuples, objects
    dataclasses; anything else is refused at ``path``."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None and len(args) < len(typing.get_args(hint)):
            return None
        return typed(value, args[0], path)
    origin = typing.get_origin(hint)
    if origin is tuple:
        parts = typing.get_args(hint)
        if len(parts) == 2 and parts[1] is Ellipsis:
            items = array(value, path)
            return tuple(typed(v, parts[0], at(path, i)) for i, v in enumerate(items))
        items = array(value, path, len(parts))
        return tuple(
            typed(v, h, at(path, i)) for i, (v, h) in enumerate(zip(items, parts, strict=True))
        )
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return dataclass_of(hint, value, path)
    if hint is bool:
        return boolean(value, path)
    if hint is int:
        return integer(value, path, -(10**15), 10**15)
    if hint is str:
        return text(value, path)
    bad(path, "This field cannot be set.")


def dataclass_of(
    cls: type,
    value: Any,
    path: str,
    *,
    fixed: Mapping[str, Any] | None = None,
    required: Collection[str] = (),
) -> Any:
    """A frozen dataclass from a JSON object: each field ``typed`` by its annotation, a
    missing one its default (unless ``required``); ``fixed`` fields are not the
    document's (set by the caller)."""
    fixed = fixed or {}
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.name not in fixed]
    data = obj(
        value, path, [n for n in names if n in required], [n for n in names if n not in required]
    )
    values = {
        name: typed(data[name], hints[name], at(path, name)) for name in names if name in data
    }
    return cls(**values, **fixed)


def plain_of(value: Any, leave_out: Collection[str] = ()) -> Any:
    """A dataclass (or tuple) as JSON, the top level's ``leave_out`` fields left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain_of(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in leave_out
        }
    if isinstance(value, tuple | list):
        return [plain_of(v) for v in value]
    return value
