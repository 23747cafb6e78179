"""The ratings' read model against real PostgreSQL: finished ranked games folded in order,
casual ones left out, a void ruling taking a game out, and ``recompute_ratings`` giving the
same numbers, to the last bit, as the projection kept current game by game."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games.models import Table
from games.reviews import ruling_record
from ratings.core import MU, Rating, Result, final
from ratings.models import RatedGame, RatingSnapshot
from ratings.projector import catch_up, rebuild
from tests.factories import UserFactory
from tests.ratings.helpers import bot_game, resigned_game

pytestmark = pytest.mark.django_db

FB = "family_business"
GOOF = "goofspiel"


def rows() -> list[tuple[Any, ...]]:
    return list(
        RatingSnapshot.objects.order_by("game", "n", "identity").values_list(
            "game",
            "n",
            "table_id",
            "identity",
            "user_id",
            "place",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
            "games",
        )
    )


def games_read() -> list[tuple[Any, ...]]:
    return list(
        RatedGame.objects.order_by("game", "n").values_list(
            "game", "n", "table_id", "ruling", "rated", "decided_by"
        )
    )


def rating(identity: str, game: str) -> Rating:
    row = RatingSnapshot.objects.filter(identity=identity, game=game).order_by("-n").first()
    assert row is not None, f"{identity} has no rating in {game}"
    return Rating(row.mu, row.sigma, row.games)


def test_a_finished_ranked_game_moves_its_winner_up_and_the_others_down() -> None:
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    table = resigned_game(FB, [alice, bob, carol], resign=[2, 1])
    assert table.status == Table.Status.FINISHED
    assert catch_up() == 1
    a, b, c = (rating(f"user:{u.pk}", FB) for u in (alice, bob, carol))
    assert a.mu > MU > b.mu
    assert b.mu == pytest.approx(c.mu)  # the rules rank nobody after the winner
    assert a.games == b.games == c.games == 1
    snap = RatingSnapshot.objects.get(identity=f"user:{alice.pk}")
    assert (snap.place, snap.seats, snap.user_id, snap.table_id) == (1, 3, alice.pk, table.id)
    assert catch_up() == 0  # read once


def test_casual_games_are_not_rated_and_a_bot_kind_is_an_identity() -> None:
    bot_game(GOOF, ["heuristic", "random"], mode=Table.Mode.CASUAL)
    assert catch_up() == 0
    bot_game(GOOF, ["heuristic", "random"])
    assert catch_up() == 1
    assert set(RatingSnapshot.objects.values_list("identity", flat=True)) == {
        "bot:heuristic",
        "bot:random",
    }


def test_a_game_of_one_identity_is_read_but_not_rated() -> None:
    bot_game(GOOF, ["heuristic", "heuristic"])
    assert catch_up() == 1
    assert games_read()[0][4:] == (False, "play")
    assert not RatingSnapshot.objects.exists()


def test_recomputing_from_the_records_gives_the_same_numbers_as_keeping_up() -> None:
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    # kept current game by game, as the workers do
    for kinds in (["heuristic", "random"], ["random", "heuristic", "random"], ["heuristic"] * 2):
        bot_game(GOOF, kinds)
        catch_up()
    resigned_game(FB, [alice, bob, carol], resign=[0, 1])
    catch_up()
    resigned_game(FB, [bob, carol], resign=[1, 0], bots=1)  # the bot wins
    catch_up()
    kept, read = rows(), games_read()
    # one row per identity and rated game: the two randoms of game 2 are one identity, the
    # all-heuristic game 3 is not rated
    assert len(read) == 5 and len(kept) == 2 + 2 + 3 + 3
    call_command("recompute_ratings")
    assert rows() == kept  # floats compared exactly
    assert games_read() == read
    assert rating("bot:random", GOOF).games == 2
    assert rating("bot:heuristic", FB).mu > MU


def test_the_fold_is_the_pure_cores_fold() -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    resigned_game(FB, [alice, bob], resign=[1])
    resigned_game(FB, [alice, bob], resign=[0])
    resigned_game(FB, [alice, bob], resign=[1])
    catch_up()
    a, b = f"user:{alice.pk}", f"user:{bob.pk}"
    expected = final(
        [
            Result("1", (a, b), ((0,), (1,))),
            Result("2", (a, b), ((1,), (0,))),
            Result("3", (a, b), ((0,), (1,))),
        ]
    )
    assert rating(a, FB) == expected[a] and rating(b, FB) == expected[b]


def test_a_void_ruling_takes_a_rated_game_out_and_an_award_reorders_it() -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    director = UserFactory(username="director", is_staff=True)
    first = resigned_game(FB, [alice, bob], resign=[1])  # alice wins
    second = resigned_game(FB, [alice, bob], resign=[1])  # alice wins
    catch_up()
    a, b = f"user:{alice.pk}", f"user:{bob.pk}"
    assert rating(a, FB).games == 2
    ruling_record(table=first, user=director, kind="void", reason="Collusion.")
    assert catch_up() == 2  # the game's ratings rebuilt from the records
    assert [g[4:] for g in games_read()] == [(False, "void"), (True, "play")]
    alone = final([Result("2", (a, b), ((0,), (1,)))])
    assert rating(a, FB) == alone[a]
    ruling_record(table=second, user=director, kind="award", winners=[1], reason="Misplay.")
    catch_up()
    assert rating(b, FB).mu > MU > rating(a, FB).mu  # bob was awarded the win
    assert [g[5] for g in games_read()] == ["void", "award"]
    kept = rows()
    rebuild()
    assert rows() == kept


def test_a_game_read_after_a_later_one_rebuilds_its_games_order() -> None:
    """A game that ended before the last one folded in (it was announced late) is not
    folded in after it: the game's ratings are rebuilt in the order the games ended."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    early = resigned_game(FB, [alice, bob], resign=[1])
    late = resigned_game(FB, [alice, bob], resign=[0])
    assert catch_up([late.id]) == 1  # only the later one was heard of
    assert catch_up() == 2  # the earlier one: both folded again, in order
    assert [row[2] for row in games_read()] == [early.id, late.id]
    kept = rows()
    rebuild()
    assert rows() == kept
