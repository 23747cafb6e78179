"""Bots make legal, deterministic choices; the simulator plays and reports whole games."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from games.family_business import (
    ACTION_CARDS,
    CARD_KIND,
    Counter,
    Kind,
    Pass,
    PlayCard,
    decide,
    initial_state,
)
from games.family_business.bots import HeuristicBot, RandomBot, decision_rng
from games.family_business.simulate import main, play_game
from games.family_business.state import GameState


def _with_hands(state: GameState, hands: dict[int, list[Kind]]) -> GameState:
    """Give seats cards of the named kinds (taken from anywhere), keeping every card once."""
    pool = sorted(ACTION_CARDS)  # the base game's cards (no ability cards)
    taken: dict[int, tuple[str, ...]] = {}
    for seat, kinds in hands.items():
        cards = []
        for kind in kinds:
            card = next(
                c
                for c in pool
                if CARD_KIND[c] is kind
                and c not in cards
                and all(c not in t for t in taken.values())
            )
            cards.append(card)
        taken[seat] = tuple(cards)
    used = {c for t in taken.values() for c in t}
    players = tuple(replace(p, hand=taken.get(p.seat, ())) for p in state.players)
    rest = [c for c in pool if c not in used]
    return replace(state, players=players, deck=tuple(rest), discard=())


def test_heuristic_bot_counters_a_contract_against_its_own_mobster() -> None:
    state = _with_hands(initial_state(2, seed="b"), {0: [Kind.CONTRACT], 1: [Kind.MOB_POWER]})
    contract = state.players[0].hand[0]
    for event in decide(state, 0, PlayCard(contract, targets=(state.players[1].crew[0],))):
        from games.family_business import evolve

        state = evolve(state, event)
    assert state.window is not None
    choice = HeuristicBot().choose(state, 1, Random(0))
    assert isinstance(choice, Counter)
    assert CARD_KIND[choice.card] is Kind.MOB_POWER
    assert choice.mobster in state.players[0].crew


def test_heuristic_bot_passes_when_the_contract_is_not_against_it() -> None:
    state = _with_hands(
        initial_state(3, seed="b"), {0: [Kind.CONTRACT], 1: [Kind.FAMILY_INFLUENCE]}
    )
    from games.family_business import evolve

    for event in decide(
        state, 0, PlayCard(state.players[0].hand[0], targets=(state.players[2].crew[0],))
    ):
        state = evolve(state, event)
    assert isinstance(HeuristicBot().choose(state, 1, Random(0)), Pass)


def test_heuristic_bot_rescues_its_own_mobster_in_danger() -> None:
    state = _with_hands(initial_state(2, seed="b"), {0: [Kind.POLICE_PROTECTION, Kind.CONTRACT]})
    mine = state.players[0].crew[0]
    players = list(state.players)
    players[0] = replace(players[0], crew=players[0].crew[1:])
    state = replace(state, players=tuple(players), hit_list=(mine,), mob_war=1)
    choice = HeuristicBot().choose(state, 0, Random(0))
    assert choice == PlayCard(state.players[0].hand[0], targets=(mine,))


@pytest.mark.parametrize("bot", [RandomBot(), HeuristicBot()], ids=["random", "heuristic"])
def test_bots_choose_the_same_command_at_the_same_decision_point(bot: object) -> None:
    state = initial_state(4, seed="det")
    first = bot.choose(state, 0, decision_rng("bot-seed", state, 0))  # type: ignore[attr-defined]
    again = bot.choose(state, 0, decision_rng("bot-seed", state, 0))  # type: ignore[attr-defined]
    assert first == again
    decide(state, 0, first)  # and it is legal


def test_every_bot_game_ends_with_a_winner_or_a_draw() -> None:
    for players in range(2, 7):
        record = play_game(players, [HeuristicBot() for _ in range(players)], f"end:{players}")
        assert record.violations == []
        assert record.state.over and record.state.winners


def test_simulator_reports_its_figures_and_no_violations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--games", "20", "--players", "2-6", "--seed", "t", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "events/s" in out
    assert "invariant violations: 0" in out
    assert "CONTRACT" in out


def test_simulator_plays_the_advanced_rules_and_reports_ability_use(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--games", "12", "--players", "2-6", "--seed", "t", "--advanced", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "advanced rules" in out and "invariant violations: 0" in out
    for ability in ("LIBRARIAN", "DOPPELGANGER", "SHOTGUN", "EARLY_BIRD"):
        assert ability in out


def test_simulator_refuses_an_unknown_bot() -> None:
    with pytest.raises(SystemExit):
        main(["--games", "1", "--bots", "nobody"])
