"""Check an exported tournament bundle offline: ``python -m tournaments.verify bundle.json``.

Pure (no Django, no database): the log's hash chain; the revealed seed against the hash
the ``created`` entry committed to; every game's record as ``games.verify`` checks one
(its events' chain, every command re-decided, its rulings' chain), each game at the table
and seats its round's entry says; every ruling the log took in, in its game's proven
rulings; every seating re-derived from the seed and the standings before it; every
standing in the bundle (the final ones and the history's) re-computed. The first
divergence is reported and the bundle refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from games.registry import get_game
from games.rng import seed_hash
from games.verify import verify_record
from tournaments import derive
from tournaments.log import check_chain, fold
from tournaments.standings import places_of, standings_json

BUNDLE_FORMAT: Final = "tournament/1"
UNDONE: Final = "Undone"


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    games_checked: int = 0
    seatings_checked: int = 0
    standings_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def placement_of_record(record: Mapping[str, Any]) -> tuple[int, ...] | None:
    """A verified record's places (``Game.placements`` of its final state), None if its
    events do not end the game. Ranked tables take no undo, so every event counts."""
    definition = get_game(record["game"])
    state = definition.empty_state()
    for e in record["events"]:
        _, _, kind = e["type"].partition(".")
        if kind == UNDONE or e["type"] == UNDONE:
            raise ValueError("a tournament game (a ranked table) has an undo")
        payload = definition.upcast_event(kind, e["payload"], e["schema_version"])
        state = definition.evolve(state, definition.decode_event({"type": kind, **payload}))
    groups = definition.placements(state)
    return None if groups is None else places_of(groups, int(record["table"]["seats"]))


def verify_bundle(bundle: Mapping[str, Any]) -> Report:
    try:
        return _verify(bundle)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return Report(problems=[f"malformed bundle: {type(exc).__name__}: {exc}"])


def _verify(bundle: Mapping[str, Any]) -> Report:
    report = Report()
    problems = report.problems
    if bundle.get("format") != BUNDLE_FORMAT:
        problems.append(f"unknown bundle format {bundle.get('format')!r}")
        return report
    tid = str(bundle["tournament"])
    entries: Sequence[Mapping[str, Any]] = bundle["log"]
    broken = check_chain(tid, entries)
    if broken:
        problems.append(f"log: {broken}")
        return report
    t = fold(tid, entries)
    seed = bundle.get("seed")
    if not t.finished or seed is None or t.seed != seed:
        problems.append("the tournament is not finished, or its revealed seed is not the log's")
        return report
    if seed_hash(seed) != t.settings["seed_hash"]:
        problems.append("the revealed seed does not match the seed_hash the log committed to")
        return report
    natural: dict[str, tuple[int, ...] | None] = {}
    games: Mapping[str, Any] = bundle["games"]
    for r in t.rounds:
        for table, seats in r.tables:
            record = games.get(table)
            if record is not None and record.get("running") and table in r.unfinished:
                natural[table] = None  # still running after its round's deadline: no result
                continue
            problem = _check_game(t, table, seats, record)
            if problem:
                problems.append(f"round {r.number}, table {table}: {problem}")
                return report
            natural[table] = placement_of_record(games[table])
            report.games_checked += 1
    for i, entry in enumerate(entries):
        if entry["kind"] != "round_started":
            continue
        before = fold(tid, entries[:i])
        seating = derive.next_seating(before, natural, seed)
        recorded = [list(x["seats"]) for x in entry["data"]["tables"]]
        if recorded != [list(s) for s in seating.tables] or list(entry["data"]["byes"]) != list(
            seating.byes
        ):
            problems.append(
                f"round {entry['data']['round']}: seated {recorded} (byes "
                f"{entry['data']['byes']}), the seed and the standings before it give "
                f"{seating.as_json()}"
            )
            return report
        report.seatings_checked += 1
    for r in t.rounds:
        if r.ended_by == "games":
            for table, seats in r.tables:
                result = derive.game_result(t, table, seats, natural, ended=True, unfinished=False)
                if result.how == derive.UNFINISHED:
                    problems.append(
                        f"round {r.number} ended by its games, yet table {table}'s did not end"
                    )
                    return report
    history = derive.history(tid, entries, natural, seed)
    if history != bundle["history"]:
        for had, want in zip(bundle["history"], history, strict=False):
            if had != want:
                problems.append(
                    f"the standings after log entry {want['after']} ({want['why']}) are not "
                    "what the games' records and rulings give"
                )
                return report
        problems.append("the standings' history does not have an entry per round and ruling")
        return report
    report.standings_checked += len(history)
    final = standings_json(derive.ended_standings(t, natural, seed))
    if final != bundle["standings"]:
        problems.append("the final standings are not what the games' records and rulings give")
        return report
    report.standings_checked += 1
    return report


def _check_game(t: Any, table: str, seats: Sequence[int], record: Any) -> str | None:
    if record is None:
        return "its game's record is missing"
    if record.get("stream_id") != table or record.get("game") != t.settings["game"]:
        return "the record is of another game"
    if record["table"]["mode"] != "ranked":
        return "the table is not ranked"
    checked = verify_record(dict(record))
    if not checked.ok:
        return "its record does not verify: " + "; ".join(checked.problems)
    seated = [(s["user"], s["bot"]) for s in sorted(record["seats"], key=lambda s: s["position"])]
    entrants = [(t.entrants[e].user, t.entrants[e].bot) for e in seats]
    if seated != entrants:
        return f"its seats {seated} are not the round's entrants {entrants}"
    proven = {int(r["id"]): r for r in record["rulings"]}
    applied = t.rulings.get(table, [])
    for ruling, kind, winners in applied:
        r = proven.get(ruling)
        if r is None or r["kind"] != kind or tuple(r["winners"]) != tuple(winners):
            return f"ruling {ruling} taken in by the log is not among the game's proven rulings"
    deciding = [r for r in record["rulings"] if r["kind"] in ("award", "void")]
    if deciding and (not applied or applied[-1][0] != int(deciding[-1]["id"])):
        return f"its deciding ruling {deciding[-1]['id']} was not taken into the standings"
    return None


def summary(report: Report) -> str:
    return (
        f"OK: {report.games_checked} games verified, {report.seatings_checked} seatings "
        f"re-derived, {report.standings_checked} standings re-computed"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Verify an exported tournament bundle offline.")
    parser.add_argument("bundle", help="the JSON file (GET /api/v1/tournaments/{id}/export)")
    args = parser.parse_args(argv)
    with open(args.bundle, encoding="utf-8") as f:
        bundle = json.load(f)
    report = verify_bundle(bundle)
    if report.ok:
        print(summary(report))
        return 0
    for problem in report.problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
