"""Plain-data forms of events and commands (JSON-ready), and back."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from .commands import (
    CloseWindow,
    Command,
    Counter,
    Draw,
    EndTurn,
    Pass,
    PlayCard,
    Resign,
    Unforgiving,
    UseButcher,
)
from .errors import RuleViolation
from .events import EVENT_TYPES, Event
from .state import GameState, PlayerState, Window, WindowOutcome
from .view import event_dict

COMMAND_TYPES: dict[str, type[Command]] = {
    "play": PlayCard,
    "counter": Counter,
    "pass": Pass,
    "close_window": CloseWindow,
    "resign": Resign,
    # advanced rules
    "draw": Draw,
    "use_butcher": UseButcher,
    "unforgiving": Unforgiving,
    "end_turn": EndTurn,
}
COMMAND_NAMES = {cls: name for name, cls in COMMAND_TYPES.items()}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def encode_event(event: Event) -> dict[str, Any]:
    return event_dict(event)


def decode_event(data: dict[str, Any]) -> Event:
    cls = EVENT_TYPES[data["type"]]
    # a field added later (with a default) may be missing from older stored events
    return cls(**{f.name: _tuples(data[f.name]) for f in fields(cls) if f.name in data})


def encode_command(command: Command) -> dict[str, Any]:
    data: dict[str, Any] = {"type": COMMAND_NAMES[type(command)]}
    for f in fields(command):
        value = getattr(command, f.name)
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


_EXPECTED: dict[str, tuple[type, ...]] = {
    "card": (str,),
    "window": (str,),
    "mobster": (str, type(None)),
    "own": (str, type(None)),
    "player": (int, type(None)),
    "discard": (bool,),
    "targets": (list, tuple),
    "cards": (list, tuple),
    "source": (str,),
}


def decode_command(data: Any) -> Command:
    """Parse a client's command, refusing anything malformed with ``bad_command``."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise RuleViolation(
            "bad_command",
            "A command is an object with a known 'type'.",
            types=sorted(COMMAND_TYPES),
        )
    cls = COMMAND_TYPES[data["type"]]
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise RuleViolation("bad_command", f"Unknown field(s): {', '.join(sorted(unknown))}.")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        ok = isinstance(value, _EXPECTED[f.name]) and not (
            f.name == "player" and isinstance(value, bool)
        )
        if f.name in ("targets", "cards") and ok:
            ok = all(isinstance(v, str) for v in value)
            value = tuple(value)
        if not ok:
            raise RuleViolation(
                "bad_command", f"Field '{f.name}' has the wrong type.", field=f.name
            )
        kwargs[f.name] = value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise RuleViolation("bad_command", f"Missing field for '{data['type']}'.") from exc


# --- whole states, for snapshots ---------------------------------------------------------


def encode_state(state: GameState) -> dict[str, Any]:
    """A state as plain data (snapshots store it; ``decode_state`` gives it back equal)."""

    def plain(value: Any) -> Any:
        if is_dataclass(value) and not isinstance(value, type):
            return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    data: dict[str, Any] = plain(state)
    return data


def decode_state(data: dict[str, Any]) -> GameState:
    fields_ = {k: _tuples(v) for k, v in data.items()}
    fields_["players"] = tuple(
        PlayerState(**{k: _tuples(v) for k, v in p.items()}) for p in data["players"]
    )
    if data["window"] is not None:
        fields_["window"] = Window(**{k: _tuples(v) for k, v in data["window"].items()})
    if data["last_window"] is not None:
        fields_["last_window"] = WindowOutcome(**data["last_window"])
    return GameState(**fields_)
