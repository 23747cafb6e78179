"""Plain-data forms of events, commands and states (JSON-ready), and back. Commands are
checked for shape here (``bad_command``), so the rules read well-typed values only."""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any

from .commands import (
    COMMAND_NAMES,
    COMMAND_TYPES,
    ORDER_FIELDS,
    Choose,
    Command,
    CompleteJob,
    GiveOrder,
    PlanCards,
    ReorgRecruit,
    ReorgSales,
    UseBossSkill,
    UseSkill,
)
from .content import GOODS
from .errors import RuleViolation
from .events import EVENT_TYPES
from .state import GameState, PlayerState, Stored, Tile

_JSON_NAME = {"source": "from", "target": "to"}
SCHEMA_VERSION = 1


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


def event_dict(event: Any) -> dict[str, Any]:
    """An event as plain data: ``{"type": "Sale", ...fields}``."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "position" and value is None:
            continue
        data[_JSON_NAME.get(f.name, f.name)] = plain(value)
    return data


def encode_event(event: Any) -> dict[str, Any]:
    return event_dict(event)


def decode_event(data: dict[str, Any]) -> Any:
    cls = EVENT_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        key = _JSON_NAME.get(f.name, f.name)
        if key not in data and (f.default is not MISSING or f.default_factory is not MISSING):
            continue
        value = data[key]
        if str(f.type).startswith("tuple"):
            value = tuple(dict(v) if isinstance(v, dict) else v for v in value)
        kwargs[f.name] = value
    return cls(**kwargs)


# --- commands --------------------------------------------------------------------------


def _bad(message: str, **data: Any) -> RuleViolation:
    return RuleViolation("bad_command", message, **data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(f"Field '{key}' must be a non-empty string.", field=key)
    return value


def _strs(value: Any, key: str, *, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _bad(f"Field '{key}' must be a list of strings.", field=key)
    if not value and not empty:
        raise _bad(f"Field '{key}' must not be empty.", field=key)
    return tuple(value)


def _entry(value: Any, key: str, shape: dict[str, tuple[type, ...]], optional: tuple[str, ...] = ()
           ) -> dict[str, Any]:  # fmt: skip
    if not isinstance(value, dict):
        raise _bad(f"Each entry of '{key}' must be an object.", field=key)
    unknown = set(value) - set(shape)
    missing = set(shape) - set(value) - set(optional)
    if unknown or missing:
        raise _bad(f"An entry of '{key}' has wrong fields.", field=key)
    for name, types in shape.items():
        if name not in value:
            continue
        v = value[name]
        if isinstance(v, bool) and bool not in types:
            raise _bad(f"Field '{key}.{name}' has the wrong type.", field=key)
        if not isinstance(v, types):
            raise _bad(f"Field '{key}.{name}' has the wrong type.", field=key)
    return dict(value)


def goods_list(
    value: Any, key: str, place: str, *, empty: bool = True
) -> tuple[dict[str, Any], ...]:
    """A ``pay`` or ``store`` list: ``[{place: str, "good": g, "n": k >= 1}]``."""
    if not isinstance(value, list | tuple):
        raise _bad(f"Field '{key}' must be a list.", field=key)
    if not value and not empty:
        raise _bad(f"Field '{key}' must not be empty.", field=key)
    out = []
    for item in value:
        entry = _entry(item, key, {place: (str,), "good": (str,), "n": (int,)})
        if entry["good"] not in GOODS or entry["n"] < 1:
            raise _bad(f"An entry of '{key}' names an unknown good or a count below 1.", field=key)
        out.append(entry)
    return tuple(out)


def _pay(value: Any, key: str = "pay", *, empty: bool = True) -> tuple[dict[str, Any], ...]:
    return goods_list(value, key, "from", empty=empty)


def _sales(value: Any, key: str, *, empty: bool) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list | tuple) or (not value and not empty):
        raise _bad(f"Field '{key}' must be a non-empty list.", field=key)
    out = []
    for item in value:
        entry = _entry(item, key, {"tile": (str,), "pay": (list, tuple)}, optional=("pay",))
        if "pay" in entry:
            entry["pay"] = _pay(entry["pay"], f"{key}.pay")
        out.append(entry)
    return tuple(out)


def _choices(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _bad("Field 'choices' must be an object.", field="choices")
    out = dict(value)
    unknown = set(out) - CHOICE_FIELDS
    if unknown:
        raise _bad(f"Unknown choice(s): {', '.join(sorted(unknown))}.", field="choices")
    if "store" in out:
        out["store"] = goods_list(out["store"], "choices.store", "to")
    if "steps" in out:
        out["steps"] = _steps(out["steps"], "choices.steps", empty=True)
    if "moves" in out:
        out["moves"] = _skill_moves(out["moves"])
    for key in ("to", "tile", "business", "district"):
        if key in out:
            out[key] = _str(out[key], f"choices.{key}")
    if "target" in out and not _is_int(out["target"]):
        raise _bad("Field 'choices.target' is a seat number.", field="choices.target")
    if "place_truck" in out and not isinstance(out["place_truck"], bool):
        raise _bad("Field 'choices.place_truck' is true or false.", field="choices.place_truck")
    if "sale" in out:
        out["sale"] = _sales([out["sale"]], "choices.sale", empty=False)[0]
    return out


# The fields of a skill's or job's ``choices`` (section 3.2; targets: rules version 2).
CHOICE_FIELDS = frozenset(
    {"store", "steps", "moves", "to", "tile", "business", "target", "district", "sale",
     "place_truck"}
)  # fmt: skip


def _skill_moves(value: Any) -> tuple[dict[str, Any], ...]:
    """A skill's ``moves``: pieces (``{"what", "from", "to", "riders"?}``) or, for the
    Warehouse Keeper, goods (``{"from", "to", "good", "n"}``)."""
    if not isinstance(value, list | tuple) or not value:
        raise _bad("Field 'choices.moves' must be a non-empty list.", field="choices.moves")
    out = []
    for item in value:
        if isinstance(item, dict) and "what" in item:
            entry = _entry(item, "choices.moves", {"what": (str,), "from": (str,), "to": (str,),
                           "riders": (int,)}, optional=("riders",))  # fmt: skip
            if entry["what"] not in ("thug", "car", "truck") or entry.get("riders", 0) < 0:
                raise _bad("A move names a thug, car or truck.", field="choices.moves")
        else:
            entry = _entry(item, "choices.moves", {"from": (str,), "to": (str,), "good": (str,),
                           "n": (int,)})  # fmt: skip
            if entry["good"] not in GOODS or entry["n"] < 1:
                raise _bad("A goods move names a good and a count of 1 or more.",
                           field="choices.moves")  # fmt: skip
        out.append(entry)
    return tuple(out)


def _steps(value: Any, key: str, *, empty: bool) -> tuple[str, ...]:
    steps = _strs(value, key, empty=empty)
    if any(s not in ("safe", "slums") for s in steps):
        raise _bad(f"Each of '{key}' is 'safe' or 'slums'.", field=key)
    return steps


def _order_arg(order: str, key: str, value: Any) -> Any:
    if key in ("associate", "tile", "column", "district"):
        return _str(value, key)
    if key == "to" and order == "recruit_associate":
        if value not in ("hand", "discard"):
            raise _bad("Field 'to' is 'hand' or 'discard'.", field="to")
        return value
    if key == "to":  # send_thugs: {district: n}
        if (not isinstance(value, dict) or not value
                or not all(_is_int(n) and n >= 1 for n in value.values())):  # fmt: skip
            raise _bad("Field 'to' maps districts to counts of at least 1.", field="to")
        return dict(value)
    if key == "pay":
        return _pay(value, empty=order != "sell_authorities")
    if key == "sales":
        return _sales(value, key, empty=False)
    if key == "steps":
        return _steps(value, key, empty=False)
    if key == "tiles":
        return _strs(value, key)
    if key == "extra":
        extra = _strs(value, key, empty=True)
        if any(g not in GOODS for g in extra):
            raise _bad("Field 'extra' names goods.", field=key)
        return extra
    if key == "store":
        return goods_list(value, key, "to")
    if key == "row":
        if not _is_int(value):
            raise _bad("Field 'row' is a row index.", field=key)
        return value
    if key == "adds":
        if not isinstance(value, list | tuple) or not value:
            raise _bad("Field 'adds' must be a non-empty list.", field=key)
        return tuple(_entry(v, key, {"tile": (str,), "type": (str,)}) for v in value)
    if key == "moves":
        if not isinstance(value, list | tuple) or not value:
            raise _bad("Field 'moves' must be a non-empty list.", field=key)
        shape: dict[str, tuple[type, ...]] = {
            "what": (str,), "from": (str,), "to": (str,), "riders": (int,),
        }  # fmt: skip
        moves = tuple(_entry(v, key, shape, optional=("riders",)) for v in value)
        if any(m["what"] not in ("thug", "car", "truck") for m in moves):
            raise _bad("A move's 'what' is thug, car or truck.", field=key)
        return moves
    if key == "hat":
        hat = _entry(value, key, {"card": (str,), "to": (str,), "pay": (list, tuple)},
                     optional=("pay",))  # fmt: skip
        if hat["to"] not in ("hand", "discard"):
            raise _bad("A hat goes to 'hand' or 'discard'.", field=key)
        hat["pay"] = _pay(hat.get("pay", []), "hat.pay")
        return hat
    raise _bad(f"Unknown field '{key}'.", field=key)  # pragma: no cover - ORDER_FIELDS


def decode_command(data: Any) -> Command:
    """Parse a client's command, refusing anything malformed with ``bad_command``."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise _bad("A command is an object with a known 'type'.", types=sorted(COMMAND_TYPES))
    rest = {k: v for k, v in data.items() if k != "type"}
    if kind == "order":
        order = rest.pop("order", None)
        if not isinstance(order, str) or order not in ORDER_FIELDS:
            raise _bad("An order names one of the 15 orders.", field="order",
                       orders=sorted(ORDER_FIELDS))  # fmt: skip
        required, optional = ORDER_FIELDS[order]
        unknown = set(rest) - set(required) - set(optional)
        if unknown:
            raise _bad(f"Unknown field(s) for '{order}': {', '.join(sorted(unknown))}.")
        missing = set(required) - set(rest)
        if missing:
            raise _bad(f"Missing field(s) for '{order}': {', '.join(sorted(missing))}.")
        return GiveOrder(order, {k: _order_arg(order, k, v) for k, v in rest.items()})
    allowed = {
        "plan": {"cards"}, "skill": {"card", "choices"}, "boss_skill": {"skill", "choices"},
        "choose": {"keep", "bottom", "row", "storage"}, "complete_job": {"job", "pay", "choices"},
        "end_turn": set(), "reorg_sales": {"sales"}, "reorg_recruit": {"steps"}, "resign": set(),
    }[kind]  # fmt: skip
    unknown = set(rest) - allowed
    if unknown:
        raise _bad(f"Unknown field(s): {', '.join(sorted(unknown))}.")
    if kind == "plan":
        return PlanCards(_strs(rest.get("cards"), "cards"))
    if kind == "skill":
        return UseSkill(_str(rest.get("card"), "card"), _choices(rest.get("choices")))
    if kind == "boss_skill":
        skill = rest.get("skill")
        if not isinstance(skill, int) or isinstance(skill, bool) or not 1 <= skill <= 4:
            raise _bad("Field 'skill' is 1 to 4.", field="skill")
        return UseBossSkill(skill, _choices(rest.get("choices")))
    if kind == "choose":
        bottom = rest.get("bottom")
        row = rest.get("row")
        if row is not None and row != "new" and not (_is_int(row) and row >= 0):
            raise _bad("Field 'row' is 'new' or a row index.", field="row")
        storage = rest.get("storage")
        if storage is not None and storage not in GOODS:
            raise _bad("Field 'storage' is alcohol or gun.", field="storage")
        return Choose(
            _str(rest.get("keep"), "keep"),
            None if bottom is None else _strs(bottom, "bottom", empty=True),
            None if row == "new" else row,
            storage,
        )
    if kind == "complete_job":
        pay = rest.get("pay")
        return CompleteJob(
            _str(rest.get("job"), "job"),
            None if pay is None else _pay(pay),
            _choices(rest.get("choices")),
        )
    if kind == "reorg_sales":
        return ReorgSales(_sales(rest.get("sales", []), "sales", empty=True))
    if kind == "reorg_recruit":
        return ReorgRecruit(_steps(rest.get("steps", []), "steps", empty=True))
    cls = COMMAND_TYPES[kind]
    command: Command = cls()
    return command


def encode_command(command: Command) -> dict[str, Any]:
    data: dict[str, Any] = {"type": COMMAND_NAMES[type(command)]}
    if isinstance(command, GiveOrder):
        data["order"] = command.order
        data.update(plain(command.args))
        return data
    for f in fields(command):
        value = getattr(command, f.name)
        if value is None:
            continue
        data[f.name] = plain(value)
    return data


# --- whole states, for snapshots ---------------------------------------------------------


def encode_state(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = plain(state)
    return data


def decode_state(data: dict[str, Any]) -> GameState:
    out = {k: _tuples(v) for k, v in data.items()}
    players = []
    for p in data["players"]:
        fields_: dict[str, Any] = {k: _tuples(v) for k, v in p.items()}
        fields_["stored"] = tuple(Stored(**s) for s in p["stored"])
        players.append(PlayerState(**fields_))
    out["players"] = tuple(players)
    out["tiles"] = tuple(Tile(**{k: _tuples(v) for k, v in t.items()}) for t in data["tiles"])
    out["stacked"] = data.get("stacked")
    return GameState(**out)


_ = (Choose, CompleteJob, PlanCards, ReorgRecruit, ReorgSales, UseBossSkill, UseSkill)
