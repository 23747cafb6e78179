"""Content versions: the specification's stand-in tables (``infamy/standin-0``) and the tuned
ones (``infamy/standin-1``), both kept, chosen by the state's content version; rules-1
records labelled standin-0 were played with the tuned tables (the erratum)."""

from __future__ import annotations

import re

import pytest

from games.infamy import RuleViolation, validate_options
from games.infamy.cards import CONTENT_VERSION, SCHEMES
from games.infamy.content import CONTENT_VERSIONS, CONTENTS, SPEC, TUNED, content_of
from games.infamy.game import GAME
from games.infamy.schemes import scheme_rule
from games.infamy.view import catalogue, view

from .builders import make_game


def test_both_versions_are_kept_and_new_tables_get_the_newest() -> None:
    assert CONTENT_VERSIONS == ("infamy/standin-0", "infamy/standin-1")
    assert CONTENT_VERSION == "infamy/standin-1" == GAME.content_version
    assert GAME.content_versions == CONTENT_VERSIONS
    assert make_game().content_version == "infamy/standin-1"
    assert content_of(make_game()) is TUNED


def test_standin_0_is_the_specifications_tables() -> None:
    """Spot checks against shared/rules/infamy.md ISD-1 to ISD-4 (standin-0)."""
    assert SPEC.board[6].supply == "henchman" and TUNED.board[6].supply == "weapon"
    assert (SPEC.jobs["j05"].infamy, SPEC.jobs["j05"].rep) == (3, 2)
    assert (TUNED.jobs["j05"].infamy, TUNED.jobs["j05"].rep) == (2, 1)
    assert (SPEC.jobs["j25"].infamy, SPEC.jobs["j25"].rep) == (1, 3)
    assert SPEC.perks["pkd"][3].gains == (("infamy", 2),)
    assert TUNED.perks["pkd"][3].gains == (("infamy", 1),)
    assert SPEC.schemes["h03"].text == "Pay 1 compound: gain 2 henchmen."
    for j, job in SPEC.jobs.items():  # only the values the tuning changed differ
        tuned = TUNED.jobs[j]
        assert (job.requires, job.reward, job.factions) == (tuned.requires, tuned.reward,
                                                            tuned.factions)  # fmt: skip


PAY = re.compile(r"^Pay (\d) (\w+)(?: and (\d) (\w+))?:")
SINGULAR = {"compound": "compound", "data": "data", "weapons": "weapon", "weapon": "weapon",
            "henchman": "henchman", "henchmen": "henchman"}  # fmt: skip


@pytest.mark.parametrize("content", CONTENT_VERSIONS)
def test_every_schemes_text_says_the_payment_its_rule_takes(content: str) -> None:
    """Cartel Patronage said "Pay 2 compound" while its rule took 3 (issue 28)."""
    state = make_game(options={"content_version": content})
    checked = 0
    for card, design in CONTENTS[content].schemes.items():
        m = PAY.match(design.text)
        said = []
        if m:
            said = [(SINGULAR[m[2]], int(m[1]))]
            if m[3]:
                said.append((SINGULAR[m[4]], int(m[3])))
        assert list(scheme_rule(state, card).pay) == said, (card, design.text)
        checked += bool(said)
    assert checked == 2 * 7  # seven designs with a payment, two copies each
    patronage = CONTENTS[content].schemes["h15"]
    assert patronage.name == "Cartel Patronage"


def test_the_rules_read_the_games_own_tables() -> None:
    """A figure on sector 6's supply space: a henchman with the specification's tables, a
    weapon with the tuned ones, and a weapon in a rules-1 game labelled standin-0."""
    spec = make_game(options={"content_version": "infamy/standin-0"})
    legacy = make_game(rules_version=1, options={"content_version": "infamy/standin-0"})
    tuned = make_game()
    assert content_of(spec) is SPEC and content_of(tuned) is TUNED
    assert content_of(legacy) is TUNED  # the erratum: tuned numbers under the old label
    assert scheme_rule(spec, "h15").pay == (("compound", 2), ("henchman", 1))
    assert scheme_rule(legacy, "h15").pay == (("compound", 3), ("henchman", 1))
    assert view(spec, "spectator")["board"][5]["supply"] == "henchman"
    assert view(legacy, "spectator")["board"][5]["supply"] == "weapon"
    assert view(spec, "spectator")["content_version"] == "infamy/standin-0"


def test_content_is_a_table_option() -> None:
    assert validate_options({}, 3).content_version == "infamy/standin-1"
    assert validate_options({"content_version": "infamy/standin-0"}, 3).content_version == (
        "infamy/standin-0")  # fmt: skip
    with pytest.raises(RuleViolation) as info:
        validate_options({"content_version": "infamy/standin-9"}, 3)
    assert info.value.code == "bad_options" and info.value.data["field"] == "content_version"
    checked = GAME.validate_options({"content_version": "infamy/standin-0"}, 3, sandbox=False)
    assert GAME.public_options(checked)["content_version"] == "infamy/standin-0"
    assert catalogue("infamy/standin-0")["board"][5]["supply"] == "henchman"
    assert SCHEMES["h15"].text.startswith("Pay 3 compound")
