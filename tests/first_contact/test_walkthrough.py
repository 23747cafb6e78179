"""How the README's walkthrough is read and compared (test_fresh_clone runs it for real)."""

from __future__ import annotations

from pathlib import Path

from tests.first_contact import walkthrough

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_the_readme_block_has_its_commands_and_shown_outputs() -> None:
    walk = walkthrough.extract(README)
    assert any("/auth/register" in line for line in walk.lines)
    # join, start, the state (shown over two lines), the discard, bob's feed, the refusal
    assert [len(group) for group in walk.expected] == [1, 1, 1, 1, 3, 1]
    assert walk.expected[-1][0]["code"] == "not_your_turn"
    state = walk.expected[2][0]
    assert list(state) == ["version", "turn_seat", "hand", "legal"]


def test_the_script_runs_the_block_on_the_given_port_with_a_marker_per_output_group() -> None:
    walk = walkthrough.extract(README)
    script = walkthrough.script(walk, 40123)
    assert "127.0.0.1:8123" not in script and "127.0.0.1:40123/api/v1" in script
    assert script.count(walkthrough.MARK) == len(walk.expected)
    printed = "".join(f"{i}\n{walkthrough.MARK}\n" for i in range(6))
    assert walkthrough.outputs(printed) == [(i,) for i in range(6)]
    assert len(walkthrough.outputs(printed + "stray\n")) == 7


def test_dealt_cards_may_differ() -> None:
    shown = {"hand": ["c20", "c17"], "legal": ["play c20", "discard c20"], "kind": "TRUCE"}
    dealt = {"hand": ["c01", "c42"], "legal": ["discard c01", "play c42"], "kind": "HIT"}
    assert walkthrough.differences(shown, dealt) == []


def test_everything_else_must_be_as_shown() -> None:
    shown = {"version": 6, "seat": 0, "status": "started", "events": ["CardPlayed"]}
    assert walkthrough.differences(shown, {**shown, "version": 7}) == [
        "$.version: 7, the README shows 6"
    ]
    assert walkthrough.differences(shown, {**shown, "status": "open"})
    assert walkthrough.differences(shown, {**shown, "events": ["CardPlayed", "TurnStarted"]})
    assert walkthrough.differences(shown, {"seat": 0, **shown})  # key order
    assert walkthrough.differences(shown, {**shown, "seat": False})  # a bool is not 0
    refusal = {"code": "not_your_turn", "message": "It is not your turn."}
    assert walkthrough.differences(refusal, {**refusal, "code": "stale_version"})
    assert walkthrough.differences({"legal": ["play c1"]}, {"legal": ["nonsense"]})
    assert walkthrough.differences({"kind": "TRUCE"}, {"kind": ""})
