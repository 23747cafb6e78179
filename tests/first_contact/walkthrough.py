"""The README's curl walkthrough as a test runs it: its commands, verbatim, and the outputs it
shows, compared with what a fresh service answers.

The README's `A game over curl` block is shell: commands, prose comments (`# two players
sign up`) and expected outputs (`# {"version":6,...}`, a JSON value per line, or one value
over several lines whose later lines start with `#  `). `script()` runs the commands as they
are, with a marker echoed before each group of shown outputs, so what each group's commands
printed can be cut out and compared (`differences()`).

What a fresh service prints differs from the README's only where the README says it does:
each game is dealt from its own secret seed, so card ids (and with them the hand, the moves
`legal` lists and a played card's `kind`) differ every game. Everything else (versions,
seats, user ids on a fresh database, event types, error codes and messages, the shape of
every answer) must be as shown.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

HEADING = "A game over curl"
README_PORT = 8123
MARK = "__first_contact_output__"
CARD = re.compile(r"\bc\d+\b")
# Dealt, so free to differ: a played card's kind, and a `legal` entry's command and card.
KIND = re.compile(r"^[A-Z][A-Z_]*$")
LEGAL = re.compile(r"^[a-z_]+ (c…)?$")


@dataclass(frozen=True)
class Walkthrough:
    lines: tuple[str, ...]  # the block as the README has it
    expected: tuple[tuple[Any, ...], ...]  # per output group, the JSON values shown


def extract(readme: str) -> Walkthrough:
    """The first ```sh block after the walkthrough's heading line."""
    after = readme.split(HEADING, 1)[1]
    block = after.split("```sh\n", 1)[1].split("\n```", 1)[0]
    lines = tuple(block.splitlines())
    groups: list[tuple[Any, ...]] = []
    current: list[str] = []
    for line in (*lines, ""):
        if is_output(line):
            current.append(line[2:])
        elif current:
            groups.append(tuple(json_values(" ".join(current))))
            current = []
    return Walkthrough(lines, tuple(groups))


def is_output(line: str) -> bool:
    return line.startswith(("# {", "# [", "#  "))


def script(walk: Walkthrough, port: int) -> str:
    """The block as bash runs it against ``port``, a marker echoed before each output group."""
    out = ["set -euo pipefail"]
    previous_was_output = False
    for line in walk.lines:
        output = is_output(line)
        if output and not previous_was_output:
            out.append(f"echo {MARK}")
        out.append(line.replace(f"127.0.0.1:{README_PORT}", f"127.0.0.1:{port}"))
        previous_was_output = output
    return "\n".join(out) + "\n"


def outputs(stdout: str) -> list[tuple[Any, ...]]:
    """What each output group's commands printed, as JSON values. The commands after the
    last group print nothing; if they do, that is one group more than the README shows."""
    *groups, rest = stdout.split(MARK + "\n")
    if rest.strip():
        groups.append(rest)
    return [tuple(json_values(chunk)) for chunk in groups]


def json_values(text: str) -> list[Any]:
    """The JSON values in ``text``, one after another; text that is not JSON is kept as
    a string (it will differ from what the README shows)."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return values
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            return [*values, text[at:]]
        values.append(value)


def differences(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` is not what the README shows (empty: it is)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if list(expected) != list(actual):
            return [f"{path}: keys {list(actual)}, the README shows {list(expected)}"]
        found: list[str] = []
        for key, value in expected.items():
            found += differences(value, actual[key], f"{path}.{key}")
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: {len(actual)} items, the README shows {len(expected)}"]
        found = []
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found += differences(want, got, f"{path}[{index}]")
        return found
    if isinstance(expected, str) and isinstance(actual, str):
        return (
            []
            if _same_text(expected, actual, path)
            else [f"{path}: {actual!r}, the README shows {expected!r}"]
        )
    if type(expected) is not type(actual) or expected != actual:
        return [f"{path}: {actual!r}, the README shows {expected!r}"]
    return []


def _same_text(expected: str, actual: str, path: str) -> bool:
    want, got = CARD.sub("c…", expected), CARD.sub("c…", actual)
    if path.endswith(".kind"):
        return bool(KIND.match(want) and KIND.match(got))
    if re.search(r"\.legal\[\d+\]$", path):
        return bool(LEGAL.match(want) and LEGAL.match(got))
    return want == got
