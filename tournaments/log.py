"""A tournament's record: its append-only log of entries, hash-chained, and the fold that
says where the tournament stands.

Pure (no Django): the service appends entries (``tournaments.models.LogEntry``, refused
UPDATE and DELETE by the database) and folds them; the verifier folds the exported ones.
Entry kinds and their data (docs/tournaments.md, "The record"):

- ``created``: name, game, format, rounds, table_min, table_max, table (the games' table
  settings: options, turn_seconds, turn_action, abandon_after), round_minutes, seed_hash
- ``registered``: entrant (a number, from 1), user (id or None), bot (kind or None), name,
  from_round (a late entry plays from that round)
- ``withdrew``: entrant, from_round (seated no more from that round)
- ``round_started``: round, tables (each ``{"table": id, "seats": [entrant, ...]}``), byes,
  deadline (ms since the epoch or None)
- ``ruling_applied``: table, ruling (id), kind (award or void), winners: a director's
  deciding ruling on one of its games, as the tournament took it in
- ``round_ended``: round, by ("games": every game over; "deadline"), unfinished (table ids)
- ``finished``: seed (the committed seed, revealed)
- ``flagged``: flag (a number, from 1), table, entrant (the flagging player's, or None: a
  director), reason: a game put in the directors' review queue
- ``flag_closed``: flag, by ("director": reviewed, with a note; "ruling": a deciding ruling
  on its game was taken in), note, ruling (its id, or None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from events.chain import GENESIS, chain_hash

KINDS: Final = (
    "created",
    "registered",
    "withdrew",
    "round_started",
    "ruling_applied",
    "round_ended",
    "finished",
    "flagged",
    "flag_closed",
)


def entry_body(
    tournament: str, n: int, kind: str, data: Mapping[str, Any], at: str
) -> dict[str, Any]:
    """What an entry's hash covers."""
    return {"tournament": tournament, "n": n, "kind": kind, "data": dict(data), "at": at}


def entry_hash(prev_hash: str, body: dict[str, Any]) -> str:
    return chain_hash(prev_hash, body)


@dataclass(frozen=True)
class Entrant:
    number: int
    name: str
    user: int | None
    bot: str | None
    from_round: int
    withdrawn_from: int | None = None

    def plays_in(self, round_no: int) -> bool:
        return self.from_round <= round_no and (
            self.withdrawn_from is None or round_no < self.withdrawn_from
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "entrant": self.number,
            "name": self.name,
            "user": self.user,
            "bot": self.bot,
            "from_round": self.from_round,
            "withdrawn_from": self.withdrawn_from,
        }


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[tuple[str, tuple[int, ...]], ...]  # (table id, entrants by seat)
    byes: tuple[int, ...]
    deadline: int | None
    ended: bool = False
    ended_by: str | None = None
    unfinished: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Flag:
    number: int
    table: str
    entrant: int | None  # None: a director's
    reason: str
    closed_by: str | None = None  # "director" or "ruling"; None: open
    note: str = ""
    ruling: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "flag": self.number,
            "table": self.table,
            "entrant": self.entrant,
            "reason": self.reason,
            "status": "open" if self.closed_by is None else "closed",
            "closed_by": self.closed_by,
            "note": self.note,
            "ruling": self.ruling,
        }


@dataclass
class Tournament:
    """The fold of a tournament's log."""

    id: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    entrants: dict[int, Entrant] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    rulings: dict[str, list[tuple[int, str, tuple[int, ...]]]] = field(default_factory=dict)
    finished: bool = False
    seed: str | None = None
    flags: dict[int, Flag] = field(default_factory=dict)
    version: int = 0

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    def table_ids(self) -> list[str]:
        return [t for r in self.rounds for t, _ in r.tables]

    def table_entrants(self, table: str) -> tuple[int, ...] | None:
        """The entrants seated at ``table`` (by seat), or None: not this tournament's."""
        return next((seats for r in self.rounds for t, seats in r.tables if t == table), None)

    def open_flags(self, table: str | None = None) -> list[Flag]:
        return [
            f
            for f in self.flags.values()
            if f.closed_by is None and (table is None or f.table == table)
        ]

    def active(self, round_no: int) -> list[int]:
        return sorted(e.number for e in self.entrants.values() if e.plays_in(round_no))

    def status(self) -> str:
        if self.finished:
            return "finished"
        current = self.current
        if current is None:
            return "registering"
        return "between_rounds" if current.ended else "round_running"


def fold(tournament_id: str, entries: Sequence[Mapping[str, Any]]) -> Tournament:
    """The tournament after ``entries`` (each with ``kind`` and ``data``), in log order."""
    t = Tournament(id=tournament_id)
    for entry in entries:
        apply(t, entry["kind"], entry["data"])
        t.version += 1
    return t


def apply(t: Tournament, kind: str, data: Mapping[str, Any]) -> None:
    if kind == "created":
        t.settings = dict(data)
    elif kind == "registered":
        n = int(data["entrant"])
        t.entrants[n] = Entrant(n, data["name"], data["user"], data["bot"], int(data["from_round"]))
    elif kind == "withdrew":
        e = t.entrants[int(data["entrant"])]
        t.entrants[e.number] = Entrant(
            e.number, e.name, e.user, e.bot, e.from_round, int(data["from_round"])
        )
    elif kind == "round_started":
        tables = tuple((str(x["table"]), tuple(int(s) for s in x["seats"])) for x in data["tables"])
        t.rounds.append(
            Round(int(data["round"]), tables, tuple(data["byes"]), data.get("deadline"))
        )
    elif kind == "ruling_applied":
        t.rulings.setdefault(str(data["table"]), []).append(
            (int(data["ruling"]), str(data["kind"]), tuple(data["winners"]))
        )
    elif kind == "round_ended":
        r = t.rounds[-1]
        t.rounds[-1] = Round(
            r.number,
            r.tables,
            r.byes,
            r.deadline,
            ended=True,
            ended_by=str(data["by"]),
            unfinished=frozenset(str(x) for x in data["unfinished"]),
        )
    elif kind == "finished":
        t.finished = True
        t.seed = data.get("seed")
    elif kind == "flagged":
        n = int(data["flag"])
        entrant = data["entrant"]
        t.flags[n] = Flag(
            n, str(data["table"]), None if entrant is None else int(entrant), str(data["reason"])
        )
    elif kind == "flag_closed":
        f = t.flags[int(data["flag"])]
        ruling = data.get("ruling")
        t.flags[f.number] = Flag(
            f.number,
            f.table,
            f.entrant,
            f.reason,
            closed_by=str(data["by"]),
            note=str(data.get("note", "")),
            ruling=None if ruling is None else int(ruling),
        )
    else:
        raise ValueError(f"unknown log entry kind {kind!r}")


def check_chain(tournament_id: str, entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The first broken link of the log's hash chain, or None."""
    prev = GENESIS
    for i, e in enumerate(entries):
        if e["n"] != i + 1:
            return f"entry {i + 1} is numbered {e['n']}"
        if e["prev_hash"] != prev:
            return f"entry {e['n']} does not follow entry {i}'s hash"
        body = entry_body(tournament_id, e["n"], e["kind"], e["data"], e["at"])
        if entry_hash(prev, body) != e["hash"]:
            return f"entry {e['n']}'s hash does not match what it records"
        prev = e["hash"]
    return None
