"""How each game says a finished game was decided (``Game.outcome``): the winners from the
same reasoning that picked them, with each tie-break applied in order and its values."""

from __future__ import annotations

from games.family_business.cards import FAMILY_BY_ID
from games.family_business.commands import Resign as FbResign
from games.family_business.game import GAME as FAMILY_BUSINESS
from games.goofspiel.game import GAME as GOOFSPIEL
from games.goofspiel.rules import Bid
from games.infamy.commands import Pass, Resign
from games.infamy.flow import victory, winners
from games.infamy.game import GAME as INFAMY
from tests.games.builders import make_state
from tests.games.builders import play as fb_play
from tests.games.infamy.builders import give, make_game, play
from tests.games.infamy.test_sector_and_schemes import to_schemes


def test_infamy_a_reputation_win_says_it_beats_more_infamy() -> None:
    # the game: a seat with 5 Infamy won over another's 8, on Reputation
    s = make_game()
    s = give(s, 0, infamy=8)
    s = give(s, 1, infamy=5, rep={"trust": 5})
    won = victory(s)
    assert won is not None and won.winners == (1,) == winners(s)
    assert won.reason == "reputation"
    name = s.players[1].name
    assert won.summary.startswith(f"{name} wins on Reputation: 5 with Trust Megacorp")
    assert f"{s.players[0].name} had 8" in won.summary
    route = won.tie_breaks[0]
    assert route.kept == (1,) and len(won.tie_breaks) == 1  # no tie to break
    assert dict(route.values)[0] == "none (Infamy 8, best Reputation 0)"
    assert dict(route.values)[1] == "Reputation 5 with Trust Megacorp"


def test_infamy_tie_breaks_are_applied_in_order_with_their_values() -> None:
    # two seats above 15 Infamy, tied on it: the highest single Reputation decides (rule 1)
    s = make_game()
    s = give(s, 0, infamy=16, rep={"trust": 2})
    s = give(s, 2, infamy=16, rep={"harada": 1, "pkd": 1})
    won = victory(s)
    assert won is not None and won.winners == (0,) == winners(s) and won.reason == "infamy"
    route, infamy, single = won.tie_breaks
    assert route.kept == (0, 2)
    assert (infamy.criterion, infamy.values, infamy.kept) == ("Infamy", ((0, 16), (2, 16)), (0, 2))
    assert single.criterion == "Highest Reputation with one faction"
    assert (single.values, single.kept) == (((0, 2), (2, 1)), (0,))
    assert "tied, then Infamy" in won.summary and "Highest Reputation" in won.summary


def test_infamy_reputation_ties_go_to_infamy_then_total_reputation() -> None:
    s = make_game()
    s = give(s, 0, infamy=4, rep={"trust": 5, "pkd": 1})
    s = give(s, 1, infamy=4, rep={"harada": 5})
    won = victory(s)
    assert won is not None and won.winners == (0,) == winners(s)
    assert [t.criterion for t in won.tie_breaks[1:]] == ["Infamy", "Total Reputation"]
    assert won.tie_breaks[-1].values == ((0, 6), (1, 5))


def test_infamy_a_full_tie_is_a_shared_win_after_every_criterion() -> None:
    s = make_game()
    s = give(s, 0, infamy=16)
    s = give(s, 1, infamy=16)
    won = victory(s)
    assert won is not None and won.winners == (0, 1) == winners(s) and won.reason == "shared"
    assert [t.criterion for t in won.tie_breaks[1:]] == [
        "Infamy",
        "Highest Reputation with one faction",
        "Total Reputation",
        "Henchmen",
    ]
    assert "share the win" in won.summary


def test_infamy_the_outcome_of_a_game_ended_at_the_check() -> None:
    s = to_schemes(holdings={1: {"infamy": 15}})
    for seat in (0, 1, 2):
        s, _ = play(s, seat, Pass())
    outcome = INFAMY.outcome(s)
    assert s.over and outcome is not None and outcome.winners == s.winners == (1,)
    assert outcome.reason == "infamy_15" and "with Infamy 15" in outcome.summary


def test_infamy_the_last_seat_wins_and_says_so() -> None:
    s = make_game()
    assert INFAMY.outcome(s) is None
    s, _ = play(s, 0, Resign())
    s, _ = play(s, 2, Resign())
    outcome = INFAMY.outcome(s)
    assert s.over and outcome is not None and outcome.winners == (1,)
    assert outcome.reason == "last_seat"
    assert outcome.summary == (
        f"{s.players[1].name} wins as the last seat in the game "
        f"({s.players[0].name}, {s.players[2].name} left)."
    )


def test_family_business_the_last_family_standing_wins() -> None:
    state = make_state(players=2)
    state, _ = fb_play(state, 0, FbResign())
    outcome = FAMILY_BUSINESS.outcome(state)
    assert state.over and outcome is not None
    assert outcome.winners == (1,) and outcome.reason == "last_family"
    winner, resigned = (f"{FAMILY_BY_ID[p.family].name} ({p.name})" for p in state.players[1::-1])
    assert outcome.summary == (
        f"{winner} wins: the last family with mobsters in play ({resigned} resigned)."
    )
    (count,) = outcome.tie_breaks
    assert count.criterion == "Mobsters still in play" and count.kept == (1,)
    assert dict(count.values)[0] == 0 and dict(count.values)[1] > 0


def goofspiel_game(bids: list[tuple[int, int]], cards: int = 3):
    state = GOOFSPIEL.empty_state()
    for event in GOOFSPIEL.start(["ann", "ben"], {"cards": cards}, "seed", "salt"):
        state = GOOFSPIEL.evolve(state, event)
    for a, b in bids:
        for seat, card in ((0, a), (1, b)):
            for event in GOOFSPIEL.decide(state, seat, Bid(state.round, card), now=0):
                state = GOOFSPIEL.evolve(state, event)
    return state


def test_goofspiel_the_highest_score_wins_with_every_score_compared() -> None:
    # ann wins the first three prizes, ben the last: ann has 10 less the last prize
    state = goofspiel_game([(4, 3), (3, 2), (2, 1), (1, 4)], cards=4)
    last = state.history[-1].prize
    outcome = GOOFSPIEL.outcome(state)
    assert state.over and outcome is not None and outcome.winners == (0,) == state.winners
    assert outcome.reason == "highest_score"
    (points,) = outcome.tie_breaks
    assert points.values == ((0, 10 - last), (1, last)) and points.kept == (0,)
    assert outcome.summary == f"ann wins with {10 - last} points, the highest score (ben {last})."


def test_goofspiel_a_tie_on_points_is_a_shared_win_and_says_no_tie_is_broken() -> None:
    state = goofspiel_game([(1, 1), (2, 2), (3, 3)])  # every bid tied: nobody scores
    outcome = GOOFSPIEL.outcome(state)
    assert state.scores == (0, 0) and outcome is not None
    assert outcome.winners == (0, 1) == state.winners and outcome.reason == "shared"
    assert (
        outcome.summary
        == "ann and ben share the win: tied on 0 points, and Goofspiel breaks no tie."
    )
    assert GOOFSPIEL.outcome(goofspiel_game([(1, 1)])) is None  # still running
