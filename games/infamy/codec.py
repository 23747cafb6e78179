"""Plain-data forms of events, commands and states (JSON-ready), and back."""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any

from .commands import (
    Bid,
    ChooseSector,
    Command,
    Discard,
    Forgo,
    MoveWatchdog,
    Pass,
    Place,
    PlayScheme,
    RemoveWatchdog,
    Resign,
    Reward,
    ThugResponse,
    Timeout,
    UseFavor,
)
from .errors import RuleViolation
from .events import EVENT_TYPES, Event
from .state import Auction, Figure, GameState, PlayerState

COMMAND_TYPES: dict[str, type[Command]] = {
    "move_watchdog": MoveWatchdog,
    "bid": Bid,
    "favor": UseFavor,
    "pass": Pass,
    "reward": Reward,
    "discard": Discard,
    "thug_response": ThugResponse,
    "choose_sector": ChooseSector,
    "place": Place,
    "forgo": Forgo,
    "play_scheme": PlayScheme,
    "remove_watchdog": RemoveWatchdog,
    "resign": Resign,
    "timeout": Timeout,
}
COMMAND_NAMES = {cls: name for name, cls in COMMAND_TYPES.items()}
# JSON names that Python reserves.
_JSON_NAME = {"source": "from", "target": "to"}
_FIELD_NAME = {v: k for k, v in _JSON_NAME.items()}

_INT, _STR, _OPT_INT, _OPT_STR = (int,), (str,), (int, type(None)), (str, type(None))
_EXPECTED: dict[str, tuple[type, ...]] = {
    "source": _INT, "target": _INT, "total": _INT, "sector": _INT, "accomplice": _OPT_INT,
    "choice": _OPT_STR, "faction": _OPT_STR, "resource": _OPT_STR, "deck": _OPT_STR,
    "job": _OPT_STR, "hazard": _OPT_STR, "rival": _OPT_INT, "seat": _OPT_INT, "card": _STR,
    "cancel": (bool,), "figure": _STR, "space": _STR, "choices": (dict,),
}  # fmt: skip
# What a place's or a scheme's ``choices`` may name (legal.py's variants) and the JSON each
# takes; a list is of strings. The rules then only compare them with what is legal, so a
# value of another type (unhashable, a bool for a seat) must not get that far.
_STRS = (list, type(None))
_CHOICES: dict[str, tuple[type, ...]] = {
    "deck": _OPT_STR, "hazard": _OPT_STR, "sabotage": _OPT_STR, "space": _OPT_STR,
    "resource": _OPT_STR, "rival": _OPT_INT, "from": _OPT_INT, "to": _OPT_INT,
    "jobs": _STRS, "decks": _STRS, "give": _STRS, "take": _STRS,
}  # fmt: skip


def _typed(value: Any, expected: tuple[type, ...]) -> bool:
    """``value`` is one of ``expected`` (a bool only where bool is expected: JSON's true
    is no seat or sector); a list holds strings only."""
    if isinstance(value, bool) and bool not in expected:
        return False
    if isinstance(value, list):
        return list in expected and all(isinstance(v, str) for v in value)
    return isinstance(value, expected)


def _choices(value: dict[str, Any], key: str) -> dict[str, Any]:
    for name, choice in value.items():
        if name not in _CHOICES:
            raise RuleViolation("bad_command", f"Unknown choice '{name}' in '{key}'.",
                                field=key, choices=sorted(_CHOICES))  # fmt: skip
        if not _typed(choice, _CHOICES[name]):
            raise RuleViolation("bad_command", f"Choice '{name}' has the wrong type.",
                                field=key)  # fmt: skip
    return dict(value)


def plain(value: Any) -> Any:
    """Tuples to lists and dataclasses to dicts, recursively."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def event_dict(event: Event) -> dict[str, Any]:
    """An event as plain data: ``{"type": "BidPlaced", ...fields}``."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "position" and value is None and type(event).__name__ == "GameStarted":
            continue  # a dealt game's first event is as it always was
        data[_JSON_NAME.get(f.name, f.name)] = plain(value)
    return data


def encode_event(event: Event) -> dict[str, Any]:
    """An event in the current shape (``SCHEMA_VERSION``): the spec's field names (3.3)."""
    return event_dict(event)


def decode_event(data: dict[str, Any]) -> Event:
    """An event from its current shape (upcast a stored one first: ``upcast_event``)."""
    cls = EVENT_TYPES[data["type"]]
    kwargs = {}
    for f in fields(cls):
        key = _JSON_NAME.get(f.name, f.name)
        if key not in data and f.default is not MISSING:
            continue  # a field added later (GameStarted.salt): older records keep the default
        value = data[key]
        kwargs[f.name] = _tuples(value) if str(f.type).startswith("tuple") else value
    return cls(**kwargs)


# --- event shapes: upcast, never rewritten -------------------------------------------------

# The shape of the events this code writes. 2 (issue 28): 3.3's field names.
SCHEMA_VERSION = 2
SCHEMA_VERSIONS = (1, 2)
# Schema 1's names of the fields schema 2 renamed, per event kind: {old: new}.
_RENAMED_IN_2: dict[str, dict[str, str]] = {
    "WatchdogMoved": {"from_sector": "from", "to_sector": "to"},
    "ResourceStolen": {"from_seat": "from", "to_seat": "to"},
    "SchemeStolen": {"from_seat": "from", "to_seat": "to"},
    "HenchmenScored": {"infamy": "i"},
}


def upcast_event(kind: str, payload: dict[str, Any], schema_version: int) -> dict[str, Any]:
    """A stored payload of ``schema_version`` in the current shape (a new dict; the stored
    payload, which its hash covers, is left as it is). Pure; the identity for the current
    version and for kinds whose shape never changed."""
    if schema_version not in SCHEMA_VERSIONS:
        raise ValueError(f"unknown Infamy event schema version {schema_version}")
    renamed = _RENAMED_IN_2.get(kind) if schema_version < 2 else None
    if not renamed:
        return dict(payload)
    return {renamed.get(k, k): v for k, v in payload.items()}


def encode_command(command: Command) -> dict[str, Any]:
    data: dict[str, Any] = {"type": COMMAND_NAMES[type(command)]}
    for f in fields(command):
        data[_JSON_NAME.get(f.name, f.name)] = plain(getattr(command, f.name))
    return data


def decode_command(data: Any) -> Command:
    """Parse a client's command, refusing anything malformed with ``bad_command``."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:  # (a list is unhashable)
        raise RuleViolation("bad_command", "A command is an object with a known 'type'.",
                            types=sorted(COMMAND_TYPES))  # fmt: skip
    cls = COMMAND_TYPES[kind]
    names = {_JSON_NAME.get(f.name, f.name) for f in fields(cls)}
    optional = {f.name for f in fields(cls) if f.default is None}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise RuleViolation("bad_command", f"Unknown field(s): {', '.join(sorted(unknown))}.")
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        name = str(_FIELD_NAME.get(key, key))
        value = plain(value)  # (a caller's tuples as JSON's lists)
        ok = _typed(value, _EXPECTED[name])
        ok = ok or (value is None and name in optional)  # e.g. Reward's unused sector
        if not ok:
            raise RuleViolation("bad_command", f"Field '{key}' has the wrong type.", field=key)
        kwargs[name] = _choices(value, key) if name == "choices" else value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise RuleViolation("bad_command", f"Missing field for '{kind}'.") from exc


# --- whole states, for snapshots ---------------------------------------------------------


def encode_state(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = plain(state)
    return data


def decode_state(data: dict[str, Any]) -> GameState:
    out = {k: _tuples(v) for k, v in data.items()}
    out["players"] = tuple(
        PlayerState(**{k: _tuples(v) for k, v in p.items()}) for p in data["players"]
    )
    out["figures"] = tuple(Figure(**f) for f in data["figures"])
    if data["auction"] is not None:
        out["auction"] = Auction(**{k: _tuples(v) for k, v in data["auction"].items()})
    return GameState(**out)
