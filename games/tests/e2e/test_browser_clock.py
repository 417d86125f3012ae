"""In real Chromium against a live Daphne (which runs the bot runner): a table with a 15 s turn
clock shows its countdown, and when it runs out the medium bot plays the idle player's turn."""

import re

import pytest

from conftest import PASSWORD
from games import engine, publish, services
from games.models import Game, GamePlayer
from games.records import game_record
from games.tests.e2e.test_browser_game import register
from games.tests.e2e.test_browser_live_play import SCROLL_TO_MY_GRID
from games.tests.e2e.test_browser_phones import PHONE, wait_for_turn
from games.tests.e2e.test_browser_replay import logged_in_context

pytestmark = pytest.mark.e2e


def test_the_countdown_runs_and_the_bot_plays_when_it_runs_out(
    daphne_server, browser, screenshot_dir
):
    base = daphne_server
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    register(page, base, "idler")

    page.goto(base + "/lobbies/")
    page.get_by_label("Name").fill("Quick table")
    page.get_by_label("Seats").select_option("2")
    assert page.get_by_label("Turn clock").input_value() == "60"  # preselected
    page.get_by_label("Turn clock").select_option(label="15 seconds")
    page.get_by_role("button", name="Create lobby").click()
    page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    assert "15 seconds" in page.locator("#turn-clock-rule").inner_text()
    page.locator("#lobby-panel[data-synced]").wait_for()
    page.get_by_label("Bot level for seat 2").select_option("easy")
    page.locator('li[data-seat="1"]').get_by_role("button", name="Add bot").click()
    page.locator("#lobby-seats").get_by_text("Bot (Easy)").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector('#conn[data-state="open"]')
    game = Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))

    # The reveal phase: the clock runs for the human (the bot reveals at once).
    clock = page.locator("#turn-clock")
    first = clock.locator(".clock-left").inner_text()
    assert re.fullmatch(r"0:1[0-5]", first), first
    page.wait_for_function(  # it ticks down in the page, between server frames
        "t => document.querySelector('#turn-clock .clock-left').textContent !== t", arg=first
    )
    page.screenshot(path=screenshot_dir / "clock-countdown.png", full_page=True)
    page.wait_for_selector("#turn-clock.clock-low")  # ten seconds left: red
    page.screenshot(path=screenshot_dir / "clock-low.png", full_page=True)

    # Nobody clicks: when it runs out, the medium bot reveals both cards for the human.
    page.wait_for_function(
        "() => document.querySelectorAll('#player-0 .card:not(.card-back)').length >= 2",
        timeout=30_000,
    )
    game.refresh_from_db()
    state = engine.from_record(game_record(game))
    assert len(state.log.reveals[0]) == 2
    assert GamePlayer.objects.get(game=game, seat=0).timeouts == 1
    assert state.phase in (engine.PLAY, engine.FINAL)
    page.screenshot(path=screenshot_dir / "clock-ran-out.png", full_page=True)


# The timers a player can see: inside the screen and not under anything (the sticky bar, the
# site header): the element found at a timer's centre is the timer or within it.
SEEN_TIMERS = """() => [...document.querySelectorAll('[role="timer"]')].filter(t => {
  const r = t.getBoundingClientRect();
  if (r.width === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && t.contains(hit);
}).map(t => t.textContent.trim())"""


@pytest.mark.parametrize("holding", [False, True], ids=["to-draw", "holding-a-card"])
def test_a_player_scrolled_to_their_own_grid_still_sees_their_countdown(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch, holding
):
    """On a phone the board's top (and its clock) scrolls away under the sticky bar while the
    player looks at their own cards: the bar that holds their choices shows their time too."""
    # Moves made here are seen by the page when it loads; nobody listens to this process.
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    lobby = services.lobby_create(host=alice, name="Clock", seat_count=2, turn_clock=60)
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="medium")
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    for pos in (0, 1):
        game.refresh_from_db()
        services.game_apply_action(
            game_id=game.pk, user=alice, action={"reveal": pos}, version=game.version
        )
    wait_for_turn(game, seat=0)  # the live server's bot runner plays the bot
    if holding:
        game.refresh_from_db()
        services.game_apply_action(
            game_id=game.pk, user=alice, action={"take": "deck"}, version=game.version
        )

    context = logged_in_context(browser, daphne_server, alice, viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    page.evaluate(SCROLL_TO_MY_GRID)
    page.screenshot(path=screenshot_dir / f"clock-phone-scrolled-{holding}.png")
    seen = page.evaluate(SEEN_TIMERS)
    assert seen and all(re.fullmatch(r"[01]:\d\d", text) for text in seen), seen
    context.close()
