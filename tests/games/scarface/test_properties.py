"""Property tests (hypothesis) of Scarface 1920: random games played by a mix of bots and a
random player choosing among the legal options; after every event the invariants of 3.7
hold; replay and the codec give back the same state; no view, redacted event or replay
shows a seat another seat's hand, deck order, jobs, offers or money total before the end
(section 3.4); and a bot's command does not change when what its seat may not know does
(T9)."""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.scarface.bots import HeuristicBot, MinimalBot
from games.scarface.codec import decode_event, decode_state, encode_event, encode_state
from games.scarface.commands import Command, Resign
from games.scarface.events import (
    CardsBottomed,
    CardsDrawn,
    CardsOffered,
    DeckShuffled,
    GameStarted,
    JobKept,
    JobsDealt,
)
from games.scarface.evolve import evolve, replay
from games.scarface.invariants import broken
from games.scarface.legal import candidates
from games.scarface.rules import awaiting, decide
from games.scarface.setup import setup_events
from games.scarface.state import GameState, with_changes
from games.scarface.view import redact_event, view

PHASES = (Phase.explicit, Phase.reuse, Phase.generate)  # whole games: no shrinking


def play_random(seats: int, seed: int, *, cut: int, resign: bool) -> tuple[GameState, list[Any]]:
    """Up to ``cut`` commands of a game: seat 0 random among its legal options, the others
    the heuristic or minimal bot; maybe one resignation on the way."""
    rng = Random(seed)
    events = list(setup_events([f"P{i}" for i in range(seats)], {}, f"prop:{seed}"))
    state = replay(events)
    bots = [
        None,
        *(HeuristicBot() if rng.random() < 0.7 else MinimalBot() for _ in range(seats - 1)),
    ]
    resign_at = rng.randrange(cut) if resign else -1
    for n in range(cut):
        if state.over:
            break
        seat = awaiting(state)[0]
        command: Command
        if n == resign_at:
            seat, command = rng.randrange(seats), Resign()
            if not state.players[seat].in_game:
                continue
        elif seat == 0:
            command = rng.choice(candidates(state, 0))
        else:
            bot = bots[seat]
            assert bot is not None
            command = bot.choose(state, seat)
        new = decide(state, seat, command)  # every bot and legal command is accepted (T2)
        for e in new:
            state = evolve(state, e)
            assert not broken(state), (type(e).__name__, broken(state))
        events += new
    return state, events


games = given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    cut=st.integers(1, 250),
    resign=st.booleans(),
)
SETTINGS = settings(max_examples=25, deadline=None, phases=PHASES, database=None,
                    suppress_health_check=list(HealthCheck))  # fmt: skip


@SETTINGS
@games
def test_invariants_replay_and_codec(seats: int, seed: int, cut: int, resign: bool) -> None:
    state, events = play_random(seats, seed, cut=cut, resign=resign)
    assert replay(events) == state
    assert replay(decode_event(encode_event(e)) for e in events) == state
    assert decode_state(encode_state(state)) == state


def _hidden_from(state: GameState, viewer: int | str) -> dict[str, set[str]]:
    """Per other seat, its hand and jobs (cards the viewer may not see in a view)."""
    out: dict[str, set[str]] = {}
    for p in state.players:
        if p.seat != viewer:
            out[f"hand {p.seat}"] = set(p.hand)
            out[f"jobs {p.seat}"] = set(p.jobs)
    return out


def _strings(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


def _event_leaks(event: Any, shown: dict[str, Any], viewer: int | str) -> list[str]:
    leaks = []
    if isinstance(event, GameStarted) and {"seed", "salt", "stacked"} & set(shown):
        leaks.append("the seed or the shared decks")
    if isinstance(event, DeckShuffled) and shown.get("cards") is not None:
        leaks.append("a deck's order")
    drawn = isinstance(event, CardsDrawn | JobsDealt | CardsOffered | CardsBottomed)
    if drawn and event.seat != viewer and shown.get("cards") is not None:
        leaks.append(f"seat {event.seat}'s cards")
    kept = isinstance(event, JobKept) and event.seat != viewer
    if kept and shown.get("card") is not None:
        leaks.append(f"seat {event.seat}'s kept job")
    return leaks


@SETTINGS
@games
def test_no_view_or_event_shows_another_seats_hidden_cards(
    seats: int, seed: int, cut: int, resign: bool
) -> None:
    state, events = play_random(seats, seed, cut=cut, resign=resign)
    if state.over:
        return  # everything is public after GameEnded
    for viewer in [*range(seats), "spectator"]:
        seen = view(state, viewer, now=0)
        for p in seen["players"]:
            if p["seat"] != viewer:
                assert not {"hand", "jobs", "money", "deck"} & set(p), (viewer, p["seat"])
            else:
                assert "deck" not in p  # its own deck's order too (3.4)
        if viewer != state.seat:
            assert "offered" not in seen
        strings = _strings(seen)
        for what, cards in _hidden_from(state, viewer).items():
            # a hand card may also lie face up elsewhere (a recruited associate's copy
            # never does: ids are unique), so any id of another seat's hand is a leak
            assert not cards & strings, (viewer, what, cards & strings)
        for event in events:
            shown = redact_event(event, viewer)
            assert not _event_leaks(event, shown, viewer), (
                viewer,
                _event_leaks(event, shown, viewer),
            )
            # money moves in public amounts (SR-2); a total is only in GameEnded's cash
            assert "cash" not in shown
            assert "money" not in shown or type(event).__name__ in ("Sale", "GangUpgraded")


def _vary_hidden(state: GameState, seat: int, rng: Random) -> GameState:
    """``state`` with everything ``seat`` may not know changed: other seats' hands and
    decks mixed, their jobs and money changed, every deck order (its own included)."""
    players = []
    for p in state.players:
        if p.seat == seat:
            players.append(with_changes(p, deck=tuple(rng.sample(p.deck, len(p.deck)))))
            continue
        pool = list(p.hand + p.deck)
        rng.shuffle(pool)
        jobs = tuple(rng.sample(sorted(set(p.jobs) | set(state.job_deck)), len(p.jobs)))
        players.append(with_changes(p, hand=tuple(pool[: len(p.hand)]),
                                    deck=tuple(pool[len(p.hand):]), jobs=jobs,
                                    money=rng.randrange(0, 200)))  # fmt: skip

    def mixed(cards: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(rng.sample(cards, len(cards)))

    return with_changes(
        state, players=tuple(players), job_deck=mixed(state.job_deck),
        dealer_deck=mixed(state.dealer_deck), low_deck=mixed(state.low_deck),
        high_deck=mixed(state.high_deck), raid_deck=mixed(state.raid_deck),
        news_deck=(*mixed(state.news_deck[:-1]), *state.news_deck[-1:]), seed="other",
    )  # fmt: skip


@SETTINGS
@games
def test_bots_choose_only_from_what_their_seat_may_know(
    seats: int, seed: int, cut: int, resign: bool
) -> None:
    state, _ = play_random(seats, seed, cut=cut, resign=False)
    if state.over:
        return
    seat = awaiting(state)[0]
    rng = Random(seed)
    for _ in range(3):
        other = _vary_hidden(state, seat, rng)
        for bot in (HeuristicBot(), MinimalBot()):
            assert bot.choose(state, seat) == bot.choose(other, seat)
        assert candidates(state, seat) == candidates(other, seat)
