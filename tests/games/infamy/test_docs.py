"""docs/rules-infamy.md says what the engine does: its table of error codes is the engine's
(``errors.CODES`` and their HTTP statuses), its steps are the ones the engine opens, and
its event list names each event's fields as they are written."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from games.infamy.codec import _JSON_NAME
from games.infamy.errors import CODES, http_status
from games.infamy.events import EVENT_TYPES
from games.infamy.game import GAME
from games.infamy.rules import STEP_COMMANDS

DOC = (Path(__file__).resolve().parents[3] / "docs" / "rules-infamy.md").read_text()


def section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end]


def test_the_error_code_table_is_the_engines() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d{3}) \| (.+) \|$", section("Error codes"), re.M)
    assert {code: (int(status), text) for code, status, text in rows} == {
        code: (http_status(code), text) for code, text in CODES.items()
    }
    assert dict(GAME.error_codes) == CODES
    assert "wrong_round" not in CODES and "watchdog_sector" not in CODES  # 3.3, issue 28


def test_the_steps_table_names_3_3s_steps() -> None:
    steps = re.findall(r"^\| `(\w+)`", section("Steps and who is awaited"), re.M)
    internal = set(STEP_COMMANDS) - {"discard", "scheme_discard"}  # rules 1's names
    assert set(steps) == internal


def test_the_event_list_names_each_field_as_written() -> None:
    text = " ".join(section("Events").split())
    for name, cls in EVENT_TYPES.items():
        if name in ("StepStarted", "GameStarted"):
            continue
        m = re.search(rf"`{name}(?:\(([^)]*)\))?`", text)
        if m is None:
            continue  # (a few service-only events are described in prose)
        listed = [f.strip() for f in (m[1] or "").split(",") if f.strip()]
        written = [_JSON_NAME.get(f.name, f.name) for f in fields(cls)]
        assert listed == written, (name, listed, written)
