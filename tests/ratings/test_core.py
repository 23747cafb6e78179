"""The pure rating core (ratings.core): openskill's Weng-Lin Plackett-Luce, as known."""

from __future__ import annotations

import pytest

from ratings.core import (
    MU,
    SIGMA,
    NotRated,
    Rating,
    Result,
    display,
    final,
    ranks,
    rate,
    replay,
)


def test_a_winner_goes_up_and_a_loser_down_by_openskills_numbers() -> None:
    after = rate({}, Result("g1", ("alice", "bob"), ((0,), (1,))))
    alice, bob = after["alice"], after["bob"]
    assert alice.mu > MU > bob.mu
    assert alice.sigma < SIGMA and bob.sigma < SIGMA  # both are better known now
    # openskill 6's PlackettLuce() with its defaults, newcomers 1st and 2nd (pinned)
    assert alice.mu == pytest.approx(27.635389493140497)
    assert bob.mu == pytest.approx(22.364610506859503)
    assert alice.sigma == bob.sigma == pytest.approx(8.06590141354368)
    assert alice.games == bob.games == 1
    assert alice.mu - MU == pytest.approx(MU - bob.mu)  # zero-sum for equals


def test_a_tie_between_equals_moves_nobodys_estimate() -> None:
    after = rate({}, Result("g1", ("alice", "bob"), ((0, 1),)))
    assert after["alice"].mu == pytest.approx(MU)
    assert after["bob"].mu == pytest.approx(MU)
    assert after["alice"].sigma < SIGMA


def test_tied_seats_share_a_place_and_move_alike() -> None:
    after = rate({}, Result("g1", ("a", "b", "c", "d"), ((2,), (0, 3), (1,))))
    assert ranks(Result("g1", ("a", "b", "c", "d"), ((2,), (0, 3), (1,)))) == (2, 3, 1, 2)
    assert after["c"].mu > after["a"].mu > after["b"].mu
    assert after["a"].mu == pytest.approx(after["d"].mu)


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0, 20), Rating(20.0, 3.0, 20)
    expected = rate({"s": strong, "w": weak}, Result("g", ("s", "w"), ((0,), (1,))))
    upset = rate({"s": strong, "w": weak}, Result("g", ("s", "w"), ((1,), (0,))))
    assert upset["w"].mu - weak.mu > expected["s"].mu - strong.mu > 0


def test_an_identity_in_two_seats_gets_the_mean_of_its_seats() -> None:
    after = rate({}, Result("g", ("bot:x", "alice", "bot:x"), ((1,), (0,), (2,))))
    assert set(after) == {"bot:x", "alice"}
    # alice won; the bot's seats came 2nd and 3rd: its belief is between theirs
    assert after["alice"].mu > MU > after["bot:x"].mu
    second = rate({}, Result("h", ("p", "alice", "q"), ((1,), (0,), (2,))))
    assert second["q"].mu < after["bot:x"].mu < second["p"].mu
    assert after["bot:x"].games == 1


def test_results_that_say_nothing_are_not_rated() -> None:
    with pytest.raises(NotRated):
        rate({}, Result("g", ("bot:x", "bot:x"), ((0,), (1,))))
    with pytest.raises(NotRated):
        ranks(Result("g", ("a", "b"), ((0,),)))  # a seat not placed
    with pytest.raises(NotRated):
        ranks(Result("g", ("a", "b"), ((0, 1), (1,))))  # placed twice
    folded = list(replay([Result("g", ("bot:x", "bot:x"), ((0,), (1,)))]))
    assert folded == []


def test_replay_is_a_fold_in_order_and_deterministic() -> None:
    results = [
        Result("1", ("a", "b", "c"), ((0,), (1,), (2,))),
        Result("2", ("b", "c"), ((0,), (1,))),
        Result("3", ("a", "c"), ((1,), (0,))),
    ]
    folded = list(replay(results))
    assert [r.result.game_id for r in folded] == ["1", "2", "3"]
    assert folded[1].before["b"] == folded[0].after["b"]
    assert final(results) == final(list(results))  # the same numbers, to the last bit
    assert final(results)["a"].games == 2


def test_the_display_rating_starts_at_1000_and_follows_the_conservative_estimate() -> None:
    assert Rating().display == 1000
    assert display(30.0, 2.0) == 1000 + 40 * 24
