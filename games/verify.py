"""Verify an exported game record offline: the hash chain, the seed, every event
re-derived by the rules engine from the seed and the commands, and (from record format 2)
the rulings chain. Pure: no Django, no network.

    python -m games.verify game.json [--rulings-head HASH]

Every record format ever exported still verifies: format 1 (``fbservice.game-record/1``)
has no rulings chain, so its rulings are outside its proof (the output says so); format 2
adds ``covers`` (what the proof covers) and each ruling's ``n``, ``prev_hash`` and
``hash`` (``games.ruling_chain``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from events.chain import GENESIS, chain_hash, exported_event_body
from games.core import Game, RuleViolation
from games.registry import get_game
from games.rng import seed_hash
from games.ruling_chain import ruling_body, ruling_hash

# Every record format ever exported, with what its proof covers: records verify forever.
FORMATS: dict[str, tuple[str, ...]] = {
    "fbservice.game-record/1": ("events",),
    "fbservice.game-record/2": ("events", "rulings"),
}
RECORD_FORMAT = "fbservice.game-record/2"  # what an export writes
UNDONE = "stream.Undone"
RULING_KINDS = ("note", "award", "void")


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    events_checked: int = 0
    commands_checked: int = 0
    covers: tuple[str, ...] = ()  # what the record's proof covers (its format's)
    rulings_checked: int = 0
    rulings_head: str = GENESIS  # the hash of the last ruling checked (GENESIS: none)
    rules_version: int = 0  # the versions the game was played under (its first event's)
    content_version: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


record_event_body = exported_event_body  # what the hash of an exported event covers


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
        # `data` (the API's shape) is not hashed: it must say what the hashed payload says,
        # as stored (an export made before its shape changed) or upcast to today's shape
        # (docs/event-store.md, "Upcasting an event's shape")
        if "data" in e and e["data"] not in (_short(e), _current(record["game"], e)):
            report.problems.append(f"seq {index}: data does not match the hashed payload")
            return False
        prev = e["hash"]
        report.events_checked = index
    return True


def _short(event: dict[str, Any]) -> dict[str, Any]:
    return {"type": event["type"].split(".", 1)[1], **event["payload"]}


def _current(game: str, event: dict[str, Any]) -> dict[str, Any]:
    """An exported event as today's code writes it: its hashed payload upcast from the
    shape it was written in (``schema_version``) by the game's own upcaster."""
    if event["type"] == UNDONE:
        return _short(event)
    kind = event["type"].split(".", 1)[1]
    upcast = get_game(game).upcast_event(kind, event["payload"], event["schema_version"])
    return {"type": kind, **upcast}


def record_ruling_body(stream_id: str, r: dict[str, Any], at_hash: str) -> dict[str, Any]:
    """What the hash of an exported ruling covers (see ``games.ruling_chain``)."""
    return ruling_body(
        stream_id=stream_id,
        n=r["n"],
        id=r["id"],
        kind=r["kind"],
        winners=r["winners"],
        reason=r["reason"],
        seq=r["seq"],
        version=r["version"],
        at_hash=at_hash,
        author=r["author"]["id"],
        created_at=r["created_at"],
    )


def _check_rulings(record: dict[str, Any], report: Report) -> bool:
    """The rulings chain: each ruling in its place, chained to the one before and to the
    game's event it was recorded at, and saying what a ruling may say. The first broken
    link is named by its place and id."""
    prev = GENESIS
    for n, r in enumerate(record["rulings"], start=1):
        problem = _link_problem(record, n, r, prev)
        if problem:
            report.problems.append(f"ruling {n} (id {r['id']}): {problem}")
            return False
        prev = r["hash"]
        report.rulings_checked = n
        report.rulings_head = prev
    return True


def _link_problem(record: dict[str, Any], n: int, r: dict[str, Any], prev: str) -> str | None:
    events = record["events"]
    if r["n"] != n:
        return f"says it is ruling {r['n']} of the chain, but is listed {n}"
    if r["prev_hash"] != prev:
        return (
            "prev_hash does not match the previous ruling's hash "
            "(a ruling was added, removed or moved before it)"
        )
    version = r["version"]
    if not isinstance(version, int) or not 0 <= version <= len(events):
        return f"made at version {version}, the record has events 1 to {len(events)}"
    at_hash = events[version - 1]["hash"] if version else GENESIS
    if ruling_hash(prev, record_ruling_body(record["stream_id"], r, at_hash)) != r["hash"]:
        return "hash does not match the ruling's content"
    return _ruling_wrong(r, seats=record["table"]["seats"])


def _ruling_wrong(r: dict[str, Any], *, seats: int) -> str | None:
    """What no ruling the service ever recorded could say (a forgery whose chain was
    recomputed): each of these has been refused since rulings exist. (Not that no event
    follows a deciding ruling: the database has promised that only since migration
    ``games/0008``, and records of any age must verify.)"""
    winners = r["winners"]
    if r["kind"] not in RULING_KINDS:
        return f"unknown kind {r['kind']!r}"
    if r["kind"] == "award":
        if not winners or len(set(winners)) != len(winners):
            return "an award names one or more different seats"
        if any(not isinstance(s, int) or not 0 <= s < seats for s in winners):
            return f"an award names seats 0 to {seats - 1}"
    elif winners:
        return "only an award names winners"
    if r["seq"] is not None and not 1 <= r["seq"] <= r["version"]:
        return f"refers to event {r['seq']}, not one before it was made"
    return None


def verify_record(record: dict[str, Any], *, rulings_head: str | None = None) -> Report:
    """Check ``record``; the report lists the first divergence, if any. ``rulings_head``:
    the hash the game's rulings chain is known to end at (its latest ruling's, as the API
    and the ``game.finished`` webhook published it); a chain cut short then fails too."""
    try:
        return _verify(record, rulings_head)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return Report(problems=[f"malformed record: {type(exc).__name__}: {exc}"])


def _verify(record: dict[str, Any], rulings_head: str | None) -> Report:
    report = Report()
    covers = FORMATS.get(str(record.get("format")))
    if covers is None:
        report.problems.append(f"unknown record format {record.get('format')!r}")
        return report
    report.covers = covers
    declared = record.get("covers", ["events"])  # format 1 said nothing: its events
    if tuple(declared) != covers:
        report.problems.append(
            f"the record says its proof covers {declared}, "
            f"its format {record['format']} covers {list(covers)}"
        )
        return report
    if not _check_chain(record, report):
        return report
    if "rulings" in covers:
        if not _check_rulings(record, report):
            return report
        if rulings_head is not None and report.rulings_head != rulings_head:
            report.problems.append(
                f"the rulings chain ends at {report.rulings_head} "
                f"({report.rulings_checked} rulings), not at the published head "
                f"{rulings_head}: rulings were cut from its end, or the chain was recomputed"
            )
            return report
    elif rulings_head is not None:
        report.problems.append(
            f"record format {record['format']} has no rulings chain: export the game again"
        )
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

    # the recorded events (hashed as stored, checked above) are compared upcast
    current = [_current(record["game"], e) for e in events]
    # The versions the game was played under (its first event's), which this service must
    # still decide: a version is never retired while a record of it must verify.
    played = definition.played_under(
        definition.evolve(definition.empty_state(), definition.decode_event(current[0]))
    )
    if played.rules not in definition.rules_versions:
        known = ", ".join(map(str, definition.rules_versions))
        report.problems.append(
            f"rules version {played.rules} of {definition.name} is not one this verifier "
            f"decides ({known})"
        )
        return report
    if played.content is not None and played.content not in definition.content_versions:
        report.problems.append(
            f"content version {played.content} is not one this verifier plays "
            f"({', '.join(definition.content_versions)})"
        )
        return report
    report.rules_version, report.content_version = played.rules, played.content
    setup = [definition.encode_event(e) for e in definition.setup_from_started(started, seed)]
    for i, expected in enumerate(setup):
        if i >= len(events) or current[i] != expected:
            return fail(i + 1, current[i] if i < len(events) else "nothing", expected)
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
    reseeds_used = 0
    for command in commands:
        first, last = command["first_seq"], command["last_seq"]
        if first != next_seq:
            return fail(next_seq, f"a command starting at {first}", f"one at {next_seq}")
        recorded = events[first - 1 : last]
        if command["command"]["type"] == "undo":
            marker = recorded[0]
            reseed_hash = marker["payload"].get("reshuffle_seed_hash")
            if marker["type"] != UNDONE or (len(recorded) != 1 and reseed_hash is None):
                return fail(first, marker["type"], UNDONE)
            undone = (marker["payload"]["from_seq"], marker["payload"]["to_seq"])
            if not spans or spans[-1] != undone:
                return fail(first, f"undo of {undone}", f"undo of {spans[-1] if spans else None}")
            spans.pop()
            del effective[len(effective) - (undone[1] - undone[0] + 1) :]
            state = _replay(definition, effective)
            if reseed_hash is not None:
                # an undo across a reveal: the game's reshuffle from a fresh seed, which
                # the record reveals (``reseeds``, in order) and the marker committed to
                reseeds = record.get("reseeds") or []
                if reseeds_used >= len(reseeds):
                    return fail(first, "a reshuffle from a fresh seed", "no seed revealed for it")
                reseed = reseeds[reseeds_used]
                reseeds_used += 1
                if seed_hash(reseed) != reseed_hash:
                    report.problems.append(
                        f"seq {first}: the revealed seed of the undo's reshuffle does not "
                        "match the reshuffle_seed_hash its marker committed to"
                    )
                    return report
                reshuffle = list(definition.undo_reshuffle(state, reseed))
                reshuffled = [definition.encode_event(e) for e in reshuffle]
                shown = current[first:last]
                if shown != reshuffled:
                    for offset, (had, should) in enumerate(zip(shown, reshuffled, strict=False)):
                        if had != should:
                            return fail(first + 1 + offset, had, should)
                    return fail(first + 1, f"{len(shown)} events", f"{len(reshuffled)} events")
                for event in reshuffle:
                    state = definition.evolve(state, event)
                effective.extend(reshuffle)
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
            upcast = current[first - 1 : last]
            if upcast != derived:
                for offset, (got, want) in enumerate(zip(upcast, derived, strict=False)):
                    if got != want:
                        return fail(first + offset, got, want)
                return fail(first, f"{len(recorded)} events", f"{len(derived)} events")
            for event in derived_events:
                state = definition.evolve(state, event)
            effective.extend(derived_events)
            spans.append((first, last))
        next_seq = last + 1
        report.commands_checked += 1
    if next_seq != len(events) + 1:
        return fail(next_seq, "events no command accounts for", "none")
    if reseeds_used != len(record.get("reseeds") or []):
        report.problems.append(
            f"the record reveals {len(record.get('reseeds') or [])} seeds of undo reshuffles, "
            f"its undos committed to {reseeds_used}"
        )
    return report


def _replay(definition: Game, events: list[Any]) -> Any:
    state = definition.empty_state()
    for event in events:
        state = definition.evolve(state, event)
    return state


def summary(report: Report) -> str:
    """What an intact record's proof showed, in one line."""
    played = f"rules version {report.rules_version}"
    if report.content_version is not None:
        played += f", content {report.content_version}"
    text = (
        f"OK: {report.events_checked} events, {report.commands_checked} commands "
        f"re-derived from the seed ({played}); hash chain intact"
    )
    if "rulings" not in report.covers:
        text += "; rulings not covered (an older record format: export it again)"
    elif not report.rulings_checked:
        text += "; no rulings"
    else:
        text += (
            f"; rulings chain intact: {report.rulings_checked} rulings, head {report.rulings_head}"
        )
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Verify an exported game record offline.")
    parser.add_argument("record", help="the JSON file written by `manage.py export_game`")
    parser.add_argument(
        "--rulings-head",
        metavar="HASH",
        help="the hash of the game's latest ruling as published (the API, a webhook)",
    )
    args = parser.parse_args(argv)
    with open(args.record, encoding="utf-8") as f:
        record = json.load(f)
    report = verify_record(record, rulings_head=args.rulings_head)
    if report.ok:
        print(summary(report))
        return 0
    for problem in report.problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
