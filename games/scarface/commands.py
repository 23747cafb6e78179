"""Commands (specification 3.2) as frozen dataclasses. An order carries its own fields in
``args`` (the JSON command's fields beside ``type`` and ``order``): which ones each order
reads is ``ORDER_FIELDS``; the codec refuses any other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PlanCards:
    cards: tuple[str, ...]


@dataclass(frozen=True)
class UseSkill:
    card: str
    choices: dict[str, Any] | None = None


@dataclass(frozen=True)
class UseBossSkill:
    skill: int
    choices: dict[str, Any] | None = None


@dataclass(frozen=True)
class GiveOrder:
    order: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Choose:
    keep: str
    bottom: tuple[str, ...] | None = None
    row: int | None = None  # a dealer's row index; None (JSON "new" or left out): a new row
    storage: str | None = None


@dataclass(frozen=True)
class CompleteJob:
    job: str
    pay: tuple[dict[str, Any], ...] | None = None
    choices: dict[str, Any] | None = None


@dataclass(frozen=True)
class EndTurn:
    pass


@dataclass(frozen=True)
class ReorgSales:
    sales: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class ReorgRecruit:
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resign:
    pass


Command = (
    PlanCards | UseSkill | UseBossSkill | GiveOrder | Choose | CompleteJob | EndTurn
    | ReorgSales | ReorgRecruit | Resign
)  # fmt: skip

COMMAND_TYPES: dict[str, type[Any]] = {
    "plan": PlanCards,
    "skill": UseSkill,
    "boss_skill": UseBossSkill,
    "order": GiveOrder,
    "choose": Choose,
    "complete_job": CompleteJob,
    "end_turn": EndTurn,
    "reorg_sales": ReorgSales,
    "reorg_recruit": ReorgRecruit,
    "resign": Resign,
}
COMMAND_NAMES: dict[type[Any], str] = {cls: name for name, cls in COMMAND_TYPES.items()}

# Each order's fields: (required, optional). Lists an order acts on must be non-empty.
ORDER_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "recruit_associate": (("associate",), ("to", "pay")),
    "take_job": ((), ()),
    "get_dealer": ((), ()),
    "sell": (("sales",), ()),
    "recruit_thugs": (("steps",), ()),
    "sell_authorities": (("pay",), ()),
    "lower_crime": ((), ()),
    "free_thugs": ((), ()),
    "add_business": (("adds",), ()),
    "remove_control": (("tiles",), ()),
    "send_thugs": (("to",), ()),
    "move": (("moves",), ()),
    "take": (("tile",), ()),
    "buy": (("row",), ("extra", "store")),
    "upgrade": (("column",), ("hat", "district", "tile")),
}
UNDERWORLD = ("recruit_associate", "take_job", "get_dealer", "sell", "recruit_thugs")
AUTHORITIES = ("sell_authorities", "lower_crime", "free_thugs", "add_business", "remove_control")
ORDERS: tuple[str, ...] = tuple(ORDER_FIELDS)
