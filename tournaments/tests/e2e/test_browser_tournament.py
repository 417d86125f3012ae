"""In real Chromium at 390×844 against a live Daphne (its runner stepping the tournaments): a
player joins a private arena by its link, is seated (their page opens the table by itself),
plays, sees the standings move on another tab as the game ends, and sees the final podium. No
page scrolls sideways, and the standings fit their box. Screenshots:
test-artifacts/screenshots/tournament-*.png."""

import contextlib
import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from conftest import PASSWORD
from core.errors import ServiceError
from games import engine, services
from games.models import Game
from games.tests.e2e.test_browser_phones import OVERFLOW
from games.tests.e2e.test_browser_replay import logged_in_context
from tournaments.models import Tournament
from tournaments.services import tournament_create

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
# The page's and the standings' widths: [page scroll width, window width, table width, its box's].
WIDTHS = """() => {
  const table = document.getElementById("standings");
  const box = table.parentElement;
  return [document.scrollingElement.scrollWidth, window.innerWidth,
          Math.ceil(table.getBoundingClientRect().width), box.clientWidth];
}"""


def assert_fits(page) -> None:
    """No sideways scroll: neither the page nor the standings in their box."""
    page_width, window_width, table_width, box_width = page.evaluate(WIDTHS)
    assert page_width <= window_width, page.evaluate(OVERFLOW)
    assert table_width <= box_width


def play_my_turns(game_id: int, user, timeout: float = 90) -> None:
    """``user``'s turns through the services (the bot's by the server's runner), to the end."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return
        state = engine.from_snapshot(game.snapshot)
        seat = game.players.get(user=user).seat
        if state.phase == engine.ROUND_OVER:
            if seat not in game.ready:
                services.game_set_ready(game_id=game_id, user=user)
        elif seat in state.to_act():
            legal = [a.to_json() for a in state.legal_actions(seat)]
            action = next((a for a in legal if "flip" in a or a == {"take": "deck"}), legal[0])
            with contextlib.suppress(ServiceError):  # the bot moved first: look again
                services.game_apply_action(
                    game_id=game_id, user=user, action=action, version=game.version
                )
            continue
        time.sleep(0.1)
    raise AssertionError("the game did not end")


def test_a_player_joins_is_seated_plays_and_sees_the_podium_on_a_phone(
    daphne_server, browser, screenshot_dir, django_user_model
):
    base = daphne_server
    player = django_user_model.objects.create_user("zoe", "zoe@example.com", PASSWORD)
    made = tournament_create(
        by=player,
        name="Phone arena",
        kind="arena",
        starts_at=timezone.now(),
        duration=30,
        turn_clock=15,
        end_score=1,
        bots=1,
        bot_level="easy",
        table_max=2,
    )
    page = logged_in_context(browser, base, player, viewport=PHONE).new_page()
    page.set_default_timeout(30_000)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    page.goto(f"{base}/tournaments/")
    assert page.evaluate(OVERFLOW) == []
    page.screenshot(path=screenshot_dir / "tournament-list.png", full_page=True)
    page.get_by_role("link", name=re.compile("Phone arena")).click()
    page.locator("[data-countdown]").first.wait_for()
    assert page.evaluate(OVERFLOW) == []
    page.get_by_role("button", name="Join").click()
    # the runner seats zoe and the bot; her page opens her table by itself
    page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=30_000)
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    page.locator('#conn[data-state="open"]').wait_for()
    page.screenshot(path=screenshot_dir / "tournament-table.png", full_page=True)

    # the standings in another tab; the arena's time runs out while the table plays on
    standings = page.context.new_page()
    standings.goto(f"{base}/tournaments/{made.pk}/?invite={made.invite_code}")
    row = standings.locator("#standings tr", has_text="zoe")
    assert row.locator(".standings-points").inner_text() == "0"  # no game played yet
    expect(row).to_have_class(re.compile(r"\bmine\b"))  # the player's own row, marked here
    assert_fits(standings)
    Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now() - timedelta(minutes=31))
    play_my_turns(game_id, player)

    # the open page's standings move (pushed), then the podium appears: no new table opened
    expect(row.locator(".standings-points")).not_to_have_text("0", timeout=30_000)
    standings.locator("#podium").wait_for(timeout=30_000)
    assert "zoe" in standings.locator("#podium").inner_text()
    expect(standings.locator("#standings tr.mine")).to_have_count(1)  # marked again after a push
    standings.screenshot(path=screenshot_dir / "tournament-podium.png", full_page=True)
    assert_fits(standings)
    assert standings.locator("#entry-actions button").count() == 0  # over: no buttons
    assert Tournament.objects.get(pk=made.pk).tables.count() == 1
    assert problems == []
