"""Issue 16, reviewers: a tournament director reviews a finished bot game in the replay
viewer. It opens at the top with sticky controls, at the position its address names
(?turn=N), steps by turn and by event, jumps to a turn and to the next attack, Mob War and
elimination, shows the board with every hand, shares a link that opens exactly there, and
takes an annotation and a ruling, which it lists."""

from __future__ import annotations

import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from events.models import StoredEvent
from games.lobby import seat_add_bot, table_create, table_start
from games.models import Annotation, Ruling
from tests.web.conftest import DOC_IMAGES, SCREENSHOTS, doc_shot, shot
from tests.web.test_play import sign_up

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def bot_game(seed: str = "replay-review"):
    table = table_create(created_by=None, seats=3, mode="sandbox", seed=seed)
    for _ in range(3):
        seat_add_bot(table_id=table.id, bot="heuristic")
    return table_start(table_id=table.id, run_bots=True)


def stored(table) -> list[tuple[int, str, dict]]:
    rows = StoredEvent.objects.filter(stream_id=table.id).order_by("seq")
    return [(r.seq, r.type.split(".", 1)[-1], r.payload) for r in rows]


def turn_start(events, n: int) -> int:
    return next(s for s, t, d in events if t == "TurnStarted" and d["turn"] == n)


def first_after(events, seq: int, test) -> int:
    return next(s for s, t, d in events if s > seq and test(t, d))


ATTACKS = {
    "CONTRACT",
    "CONTRACT_NO_MP",
    "CONTRACT_NO_FI",
    "CONTRACT_NO_COUNTER",
    "PRIORITY_CONTRACT",
    "DOUBLE_CONTRACT",
    "HIT",
    "MASSACRE",
    "DOUBLE_CROSS",
    "MOB_WAR",
    "AMBUSH",
    "VENDETTA",
    "TURNCOAT",
}


def position(page) -> str:
    return page.get_by_test_id("position").inner_text()


def test_a_director_reviews_a_finished_game_by_turn_jump_link_note_and_ruling(new_page):
    table = bot_game()
    events = stored(table)
    assert events[-1][1] == "GameEnded"
    director = new_page("director")
    director.set_viewport_size(DESKTOP)
    sign_up(director, "td")
    get_user_model().objects.filter(username="td").update(is_staff=True)

    # The address names the position: the start of turn 3, shown at the top of the page.
    t3 = turn_start(events, 3)
    director.goto(f"/games/{table.id}/replay?turn=3")
    expect(director.get_by_test_id("position")).to_have_text(
        f"Turn 3 · event {t3} of {len(events)}"
    )
    expect(director.get_by_test_id("current-move")).to_contain_text("Turn 3")
    # the rules version the game is played under: its first event's
    expect(director.get_by_test_id("played-under")).to_have_text("rules version 2")
    expect(director.locator("#log li.now")).to_have_attribute("data-seq", str(t3))
    assert director.evaluate("window.scrollY") == 0
    # the board, with every hand revealed (the game is over)
    expect(director.locator(".player .small-hand .card").first).to_be_visible()
    expect(director.get_by_test_id("share")).to_have_attribute(
        "href", f"/games/{table.id}/replay?turn=3"
    )

    # By turn and by event; the address follows (a turn's start as ?turn=, else ?at=).
    director.get_by_role("button", name="Turn ▶").click()
    t4 = turn_start(events, 4)
    expect(director.get_by_test_id("position")).to_have_text(
        f"Turn 4 · event {t4} of {len(events)}"
    )
    expect(director).to_have_url(re.compile(r"/replay\?turn=4$"))
    director.get_by_role("button", name="◀", exact=True).click()
    expect(director.get_by_test_id("position")).to_have_text(
        f"Turn 3 · event {t4 - 1} of {len(events)}"
    )
    expect(director).to_have_url(re.compile(rf"/replay\?at={t4 - 1}$"))
    director.get_by_role("button", name="◀ Turn").click()
    expect(director.get_by_test_id("position")).to_have_text(
        f"Turn 3 · event {t3} of {len(events)}"
    )
    director.keyboard.press("PageDown")
    expect(director.get_by_test_id("position")).to_contain_text("Turn 4 ·")

    # Jump to a turn, then to the next attack, Mob War and elimination after it.
    director.get_by_label("Turn to go to").fill("5")
    director.get_by_role("button", name="Go").click()
    t5 = turn_start(events, 5)
    expect(director.get_by_test_id("position")).to_have_text(
        f"Turn 5 · event {t5} of {len(events)}"
    )
    attack = first_after(
        events, t5, lambda t, d: t == "CardPlayed" and not d["discard"] and d["kind"] in ATTACKS
    )
    director.get_by_role("button", name="attack", exact=True).click()
    expect(director.get_by_test_id("position")).to_contain_text(f"event {attack} of")
    expect(director.get_by_test_id("current-move")).to_contain_text("played")
    war = first_after(events, attack, lambda t, d: t == "MobWarStarted")
    director.get_by_role("button", name="Mob War").click()
    expect(director.get_by_test_id("position")).to_contain_text(f"event {war} of")
    expect(director.get_by_test_id("current-move")).to_contain_text("MOB WAR")
    killed = first_after(events, war, lambda t, d: t in ("MobsterEliminated", "PlayerOut"))
    director.get_by_role("button", name="elimination").click()
    expect(director.get_by_test_id("position")).to_contain_text(f"event {killed} of")
    expect(director.locator(".mob.moved").first).to_be_visible()  # who died, lit on the board

    # The controls stay in reach when the page is scrolled down.
    director.mouse.wheel(0, 3000)
    director.wait_for_function("window.scrollY > 500")
    bar = director.get_by_test_id("replay-bar").bounding_box()
    assert bar is not None and -1 <= bar["y"] <= 1, bar
    expect(director.get_by_role("button", name="Turn ▶")).to_be_in_viewport()

    # The share link opens exactly there, in another browser.
    share = director.get_by_test_id("share").get_attribute("href")
    assert share == f"/games/{table.id}/replay?at={killed}"
    viewer = new_page("viewer")
    sign_up(viewer, "reviewer")
    viewer.goto(share)
    expect(viewer.get_by_test_id("position")).to_contain_text(f"event {killed} of")
    expect(viewer.locator("#log li.now")).to_have_attribute("data-seq", str(killed))

    # An annotation at this position: added, listed, marked in the log, kept on reload.
    director.get_by_label(re.compile("Comment on this position")).fill("The decisive war.")
    director.get_by_role("button", name="Add note").click()
    note = director.get_by_test_id("annotation")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("The decisive war.")
    expect(note).to_contain_text("td (staff)")
    expect(director.locator(f'#log li[data-seq="{killed}"]')).to_have_class(
        re.compile(r"\bannotated\b")
    )
    assert Annotation.objects.get().seq == killed
    viewer.reload()  # the game is over: anyone may read the notes, but only staff write here
    expect(viewer.get_by_test_id("annotation")).to_contain_text("The decisive war.")
    expect(viewer.locator("#note-form")).to_be_hidden()
    expect(viewer.locator("#ruling-panel")).to_be_hidden()
    viewer.get_by_role("button", name="«").click()
    viewer.get_by_test_id("annotation").get_by_role("link").click()
    expect(viewer.get_by_test_id("position")).to_contain_text(f"event {killed} of")

    # A ruling: the director voids the game; it is shown as the game's result.
    director.get_by_label("Ruling").select_option("void")
    director.get_by_label("Why").fill("Bots colluded (test).")
    director.get_by_role("button", name="Record the ruling").click()
    # a deciding ruling asks first, saying what it does to the (finished) game
    expect(director.get_by_test_id("ruling-confirm-now")).to_contain_text("The ruling replaces")
    director.get_by_test_id("ruling-confirm-yes").click()
    ruling = director.get_by_test_id("ruling")
    expect(ruling).to_contain_text("The game is void")
    expect(ruling).to_contain_text("Bots colluded (test).")
    expect(ruling).to_contain_text("the game's result")
    assert Ruling.objects.get().kind == "void"
    viewer.reload()
    expect(viewer.get_by_test_id("ruling")).to_contain_text("The game is void")
    shot(director, "replay-desktop")
    director.evaluate("window.scrollTo(0, 0)")
    doc_shot(director, "replay")


def test_a_turn_that_does_not_exist_says_so_and_opens_at_the_end(new_page):
    table = bot_game()
    events = stored(table)
    page = new_page("someone")
    page.set_viewport_size(PHONE)
    sign_up(page, "someone")
    page.goto(f"/games/{table.id}/replay?turn=999")
    expect(page.locator("#error")).to_contain_text("no turn 999")
    expect(page.get_by_test_id("position")).to_contain_text(f"event {len(events)} of")


# --- every game: the same viewer, the game's own turns and moments -----------------------


def bots_game(game: str, seed: str):
    """A finished game of bots (they play it to the end as it starts)."""
    from games.registry import get_game

    seats = get_game(game).min_players
    table = table_create(created_by=None, game=game, seats=seats, mode="sandbox", seed=seed)
    for _ in range(seats):
        seat_add_bot(table_id=table.id, bot="heuristic")
    return table_start(table_id=table.id, run_bots=True)


def phone_doc_shot(page, name: str) -> None:
    """``doc_shot`` at the phone's size only, as the page is scrolled now."""
    targets = [SCREENSHOTS]
    if os.environ.get("FB_DOC_SCREENSHOTS", "").strip() in {"1", "true", "yes"}:
        targets.append(DOC_IMAGES)
    page.wait_for_timeout(150)
    for folder in targets:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}-390x844.png"))


def round_start(events, n: int) -> int:
    return next(s for s, t, d in events if t == "RoundStarted" and d["round"] == n)


INFAMY_MOMENTS = {"ContactWon", "SectorsRevealed", "JobCompleted", "DayNightFlipped", "GameEnded"}


def test_a_reviewer_steps_through_infamy_by_round_moment_link_note_and_keys(new_page):
    table = bots_game("infamy", "replay-infamy")
    events = stored(table)
    assert events[-1][1] == "GameEnded"
    total = len(events)
    director = new_page("director")
    director.set_viewport_size(DESKTOP)
    sign_up(director, "td")
    get_user_model().objects.filter(username="td").update(is_staff=True)

    # ?turn=N opens the start of Infamy's round N (its notion of a turn), named so.
    r3, r4, r5 = (round_start(events, n) for n in (3, 4, 5))
    director.goto(f"/games/{table.id}/replay?turn=3")
    position = director.get_by_test_id("position")
    expect(position).to_have_text(f"Round 3 · event {r3} of {total}")
    expect(director.get_by_test_id("share")).to_have_attribute(
        "href", f"/games/{table.id}/replay?turn=3"
    )
    expect(director.get_by_test_id("sector")).to_have_count(6)  # Infamy's own board
    expect(director.locator("#log li.now")).to_have_count(1)
    expect(director.get_by_test_id("keys")).to_contain_text("PgDn")

    # By round and by event, with the buttons and the keys; the address follows.
    director.get_by_role("button", name="Round ▶").click()
    expect(position).to_have_text(f"Round 4 · event {r4} of {total}")
    expect(director).to_have_url(re.compile(r"/replay\?turn=4$"))
    director.get_by_role("button", name="◀", exact=True).click()
    expect(position).to_have_text(f"Round 3 · event {r4 - 1} of {total}")
    expect(director).to_have_url(re.compile(rf"/replay\?at={r4 - 1}$"))
    director.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Round 4 · event {r4} of {total}")
    director.keyboard.press("Shift+ArrowRight")
    expect(position).to_have_text(f"Round 5 · event {r5} of {total}")
    director.keyboard.press("PageUp")
    expect(position).to_have_text(f"Round 4 · event {r4} of {total}")
    moment = first_after(events, r4, lambda t, d: t in INFAMY_MOMENTS)
    director.keyboard.press("]")
    expect(position).to_contain_text(f"event {moment} of")
    before = [s for s, t, d in events if s < moment and t in INFAMY_MOMENTS][-1]
    director.keyboard.press("[")
    expect(position).to_contain_text(f"event {before} of")  # (round 3's end)
    expect(director.get_by_test_id("moment-now")).to_contain_text("Round 3: the ")
    director.get_by_label("Round to go to").fill("2")
    director.get_by_role("button", name="Go").click()
    expect(position).to_have_text(f"Round 2 · event {round_start(events, 2)} of {total}")

    # Jump to the next auction won: the moment is named, the board shows the winner.
    won_at = first_after(events, round_start(events, 2), lambda t, d: t == "ContactWon")
    director.get_by_role("button", name="auction won").click()
    expect(position).to_contain_text(f"event {won_at} of")
    expect(director.get_by_test_id("moment-now")).to_contain_text("Round 2:")
    expect(director.get_by_test_id("moment-now")).to_contain_text("auction")

    # The moment list, of one kind: a job completed, clicked; back to the previous one.
    jobs = [s for s, t, d in events if t == "JobCompleted"]
    assert len(jobs) >= 2
    director.get_by_test_id("moment-kind").select_option("job")
    listed = director.get_by_test_id("moment")
    expect(listed).to_have_count(len(jobs))
    listed.nth(1).get_by_role("link").click()
    expect(position).to_contain_text(f"event {jobs[1]} of")
    expect(director).to_have_url(re.compile(rf"/replay\?at={jobs[1]}$"))
    director.get_by_role("button", name="Previous moment").click()
    expect(position).to_contain_text(f"event {jobs[0]} of")

    # The address opens exactly there, in another browser.
    share = director.get_by_test_id("share").get_attribute("href")
    viewer = new_page("viewer")
    sign_up(viewer, "reviewer")
    viewer.goto(share)
    expect(viewer.get_by_test_id("position")).to_contain_text(f"event {jobs[0]} of")
    expect(viewer.get_by_test_id("moment-now")).to_contain_text("completes")

    # A note at this position: added, listed, marked in the log, kept on reload.
    director.get_by_label(re.compile("Comment on this position")).fill("A first job: the lead.")
    director.get_by_role("button", name="Add note").click()
    note = director.get_by_test_id("annotation")
    expect(note).to_have_count(1)
    expect(note).to_contain_text("A first job: the lead.")
    expect(note).to_contain_text("round ")
    assert Annotation.objects.get().seq == jobs[0]
    viewer.reload()
    expect(viewer.get_by_test_id("annotation")).to_contain_text("A first job: the lead.")
    expect(viewer.locator("#note-form")).to_be_hidden()

    # The pictures docs/web.md shows: an auction won, with its moment.
    director.get_by_test_id("moment-kind").select_option("")
    director.goto(f"/games/{table.id}/replay?at={won_at}")
    expect(director.get_by_test_id("moment-now")).to_contain_text("auction")
    doc_shot(director, "infamy-replay")
    director.set_viewport_size(PHONE)  # the phone, further down: the moments and the notes
    director.evaluate("document.getElementById('moments-panel').scrollIntoView()")
    phone_doc_shot(director, "infamy-replay-moments")


def test_a_game_without_pages_is_replayed_with_a_generic_board(new_page):
    table = bots_game("goofspiel", "replay-goofspiel")
    events = stored(table)
    reveals = [s for s, t, d in events if t == "BidsRevealed"]
    page = new_page("someone")
    page.set_viewport_size(PHONE)
    sign_up(page, "someone")
    page.goto(f"/games/{table.id}/replay?turn=2")
    position = page.get_by_test_id("position")
    shown = next(s for s, t, d in events if t == "PrizeShown" and d["round"] == 2)
    expect(position).to_have_text(f"Round 2 · event {shown} of {len(events)}")
    expect(page.get_by_test_id("board")).to_contain_text("Prizes left")  # the view, in words
    expect(page.get_by_test_id("board-status")).to_contain_text("Waiting for")
    page.get_by_role("button", name="Next moment").click()
    expect(position).to_contain_text(f"event {reveals[1]} of")
    expect(page.get_by_test_id("moment-now")).to_contain_text("Round 2: bids")
    page.get_by_role("button", name="»").click()
    expect(page.get_by_test_id("board-status")).to_contain_text("Game over")
    expect(page.get_by_test_id("moment-now")).to_contain_text("Game over")
    doc_shot(page, "goofspiel-replay")
