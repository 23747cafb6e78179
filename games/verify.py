"""Verify an exported game record offline: the hash chain, the seed, and every event
re-derived by the rules engine from the seed and the commands. Pure: no Django, no network.

    python -m games.verify game.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from events.chain import GENESIS, chain_hash, event_body
from games.core import Game, RuleViolation
from games.registry import get_game

RECORD_FORMAT = "fbservice.game-record/1"
UNDONE = "stream.Undone"


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    events_checked: int = 0
    commands_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def record_event_body(stream_id: str, e: dict[str, Any]) -> dict[str, Any]:
    """What the hash of an exported event covers (see ``events.chain.event_body``)."""
    return event_body(
        stream_id=stream_id,
        seq=e["seq"],
        type=e["type"],
        schema_version=e["schema_version"],
        payload=e["payload"],
        actor=e["actor"],
        command_id=e["command_id"],
        recorded_at=e["recorded_at"],
    )


def _check_chain(record: dict[str, Any], report: Report) -> bool:
    prev = GENESIS
    for index, e in enumerate(record["events"], start=1):
        if e["seq"] != index:
            report.problems.append(f"seq {e['seq']}: expected sequence number {index}")
            return False
        body = record_event_body(record["stream_id"], e)
        if e["prev_hash"] != prev:
            report.problems.append(f"seq {index}: prev_hash does not match the previous hash")
            return False
        if chain_hash(prev, body) != e["hash"]:
            report.problems.append(f"seq {index}: hash does not match the event's content")
            return False
        # `data` (the API's shape) is not hashed: it must say what the hashed payload says
        if "data" in e and e["data"] != _short(e):
            report.problems.append(f"seq {index}: data does not match the hashed payload")
            return False
        prev = e["hash"]
        report.events_checked = index
    return True


def _short(event: dict[str, Any]) -> dict[str, Any]:
    return {"type": event["type"].split(".", 1)[1], **event["payload"]}


def verify_record(record: dict[str, Any]) -> Report:
    """Check ``record``; the report lists the first divergence, if any."""
    try:
        return _verify(record)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return Report(problems=[f"malformed record: {type(exc).__name__}: {exc}"])


def _verify(record: dict[str, Any]) -> Report:
    report = Report()
    if record.get("format") != RECORD_FORMAT:
        report.problems.append(f"unknown record format {record.get('format')!r}")
        return report
    if not _check_chain(record, report):
        return report
    definition = get_game(record["game"])
    events = record["events"]
    started = events[0]["payload"] if events else {}
    seed = record.get("seed")
    if seed is None or not definition.seed_matches(started, seed):
        report.problems.append("the revealed seed does not match the published seed_hash")
        return report

    def fail(seq: int, recorded: Any, derived: Any) -> Report:
        report.problems.append(f"seq {seq}: recorded {recorded}, the engine derives {derived}")
        return report

    setup = [definition.encode_event(e) for e in definition.setup_from_started(started, seed)]
    for i, expected in enumerate(setup):
        if i >= len(events) or _short(events[i]) != expected:
            return fail(i + 1, _short(events[i]) if i < len(events) else "nothing", expected)
    effective: list[Any] = [definition.decode_event(e) for e in setup]
    spans: list[tuple[int, int]] = [(1, len(setup))]
    state = _replay(definition, effective)
    next_seq = len(setup) + 1
    commands = sorted(
        (
            c
            for c in record["commands"]
            if c["outcome"] == "accepted" and c["first_seq"] and c["command"]["type"] != "start"
        ),
        key=lambda c: c["first_seq"],
    )
    for command in commands:
        first, last = command["first_seq"], command["last_seq"]
        if first != next_seq:
            return fail(next_seq, f"a command starting at {first}", f"one at {next_seq}")
        recorded = events[first - 1 : last]
        if command["command"]["type"] == "undo":
            marker = recorded[0]
            if marker["type"] != UNDONE or len(recorded) != 1:
                return fail(first, marker["type"], UNDONE)
            undone = (marker["payload"]["from_seq"], marker["payload"]["to_seq"])
            if not spans or spans[-1] != undone:
                return fail(first, f"undo of {undone}", f"undo of {spans[-1] if spans else None}")
            spans.pop()
            del effective[len(effective) - (undone[1] - undone[0] + 1) :]
            state = _replay(definition, effective)
        else:
            try:
                derived_events = definition.decide(
                    state,
                    command["seat"],
                    definition.decode_command(command["command"]),
                    now=command["now_ms"],
                )
            except RuleViolation as exc:
                return fail(first, "an accepted command", f"a refusal ({exc.code})")
            derived = [definition.encode_event(e) for e in derived_events]
            if [_short(e) for e in recorded] != derived:
                for offset, (got, want) in enumerate(zip(recorded, derived, strict=False)):
                    if _short(got) != want:
                        return fail(first + offset, _short(got), want)
                return fail(first, f"{len(recorded)} events", f"{len(derived)} events")
            for event in derived_events:
                state = definition.evolve(state, event)
            effective.extend(derived_events)
            spans.append((first, last))
        next_seq = last + 1
        report.commands_checked += 1
    if next_seq != len(events) + 1:
        return fail(next_seq, "events no command accounts for", "none")
    return report


def _replay(definition: Game, events: list[Any]) -> Any:
    state = definition.empty_state()
    for event in events:
        state = definition.evolve(state, event)
    return state


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Verify an exported game record offline.")
    parser.add_argument("record", help="the JSON file written by `manage.py export_game`")
    args = parser.parse_args(argv)
    with open(args.record, encoding="utf-8") as f:
        record = json.load(f)
    report = verify_record(record)
    if report.ok:
        print(
            f"OK: {report.events_checked} events, {report.commands_checked} commands "
            "re-derived from the seed; hash chain intact"
        )
        return 0
    for problem in report.problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
