"""In real Chromium at 390×844 against a live Daphne (its runner stepping the tournaments): a
public Swiss event of two rounds, one player and three bots at tables of two. The player finds
it on the list and joins; at the start their page opens their table by itself; they play (the
test drives their turns); between the rounds the live page shows their points and the Buchholz
and leads to their next table; in the last round the open standings move as their game ends,
then the podium appears and the buttons go. No page scrolls sideways, and the standings fit
their box. Screenshots: test-artifacts/screenshots/swiss-*.png."""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from conftest import _make_moderator, _make_user
from games.tests.e2e.test_browser_phones import OVERFLOW
from games.tests.e2e.test_browser_replay import logged_in_context
from tournaments.models import TableSeat, Tournament
from tournaments.services import tournament_create
from tournaments.tests.e2e.test_browser_tournament import PHONE, assert_fits, play_my_turns

pytestmark = pytest.mark.e2e

NAME = "bartholomew_vonlongname"  # a long name must wrap in the standings


def table_of(tournament: Tournament, user, round_: int, timeout: float = 60) -> int:
    """The game id of ``user``'s table in round ``round_``, once the runner has seated it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seat = TableSeat.objects.filter(
            table__tournament=tournament, table__round=round_, entry__user=user
        ).first()
        if seat is not None:
            return seat.table.game_id
        time.sleep(0.2)
    raise AssertionError(f"round {round_} did not seat the player")


def test_a_player_plays_a_swiss_event_with_bots_to_its_podium_on_a_phone(
    daphne_server, browser, screenshot_dir, django_user_model
):
    base = daphne_server
    player = _make_user(django_user_model, NAME)
    moderator = _make_moderator(django_user_model, "mod")
    made = tournament_create(
        by=moderator,
        name="Phone Swiss",
        kind="swiss",
        starts_at=timezone.now() + timedelta(minutes=10),
        rounds=2,
        turn_clock=15,
        end_score=1,
        bots=3,
        bot_level="easy",
        table_max=2,
        is_public=True,
    )
    url = f"{base}/tournaments/{made.pk}/"

    # the moderators' page lists it
    mod_page = logged_in_context(browser, base, moderator, viewport=PHONE).new_page()
    mod_page.goto(f"{base}/moderation/tournaments/")
    expect(mod_page.locator(f'[data-tournament="{made.pk}"]')).to_contain_text("Phone Swiss")
    assert mod_page.evaluate(OVERFLOW) == []
    mod_page.screenshot(path=screenshot_dir / "swiss-moderation.png", full_page=True)

    page = logged_in_context(browser, base, player, viewport=PHONE).new_page()
    page.set_default_timeout(30_000)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}/tournaments/")
    page.get_by_role("link", name=re.compile("Phone Swiss")).click()
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#standings")).to_contain_text(NAME)
    page.screenshot(path=screenshot_dir / "swiss-joined.png", full_page=True)
    assert_fits(page)

    # the start: round 1 seats everybody at once; the player's page opens their table
    Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now())
    page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=30_000)
    first = table_of(made, player, 1)
    assert page.url.endswith(f"/games/{first}/")
    page.locator('#conn[data-state="open"]').wait_for()
    page.screenshot(path=screenshot_dir / "swiss-table.png", full_page=True)
    play_my_turns(first, player)

    # round 2, once every table of round 1 has ended: the live page shows the points so far
    second = table_of(made, player, 2)
    assert second != first
    page.goto(url)
    expect(page.locator("#tournament-status")).to_contain_text("Round 2 of 2")
    mine = page.locator("#standings tr", has_text=NAME)
    points = mine.locator(".standings-points").inner_text()
    assert int(points) > 0  # 4 for a win, 1 for a loss
    expect(page.locator("#standings thead")).to_contain_text("Bh.")
    page.screenshot(path=screenshot_dir / "swiss-round-2.png", full_page=True)
    assert_fits(page)

    # the standings in another tab; the player goes to their table and plays the last round
    standings = page.context.new_page()
    standings.goto(url)
    row = standings.locator("#standings tr", has_text=NAME)
    expect(row.locator(".standings-points")).to_have_text(points)
    page.locator("#my-table-link").click()
    page.wait_for_url(f"{base}/games/{second}/")
    page.locator('#conn[data-state="open"]').wait_for()
    play_my_turns(second, player)

    # the open standings move (pushed), then the podium appears and the buttons go
    expect(row.locator(".standings-points")).not_to_have_text(points, timeout=30_000)
    standings.locator("#podium").wait_for(timeout=60_000)
    expect(standings.locator("#podium li")).to_have_count(3)
    expect(standings.locator("#entry-actions button")).to_have_count(0)
    expect(standings.locator("#tournament-status")).to_contain_text("Finished.")
    standings.screenshot(path=screenshot_dir / "swiss-podium.png", full_page=True)
    assert_fits(standings)
    made.refresh_from_db()
    assert made.status == Tournament.Status.FINISHED and made.tables.count() == 4
    assert sorted(made.entries.values_list("place", flat=True)) == [1, 2, 3, 4]
    assert problems == []
