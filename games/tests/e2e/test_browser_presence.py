"""In real Chromium against a live Daphne: the table sees whom it waits for. A player whose
page is closed shows as not connected, with the time left before the bot plays for them, and
the line goes when they are back."""

import re

import pytest

from games.models import Game
from games.tests.e2e.test_browser_live_play import game_page
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e


def test_a_player_who_left_shows_as_not_connected_until_they_are_back(
    daphne_server, browser, screenshot_dir, alice, bob
):
    game = start_game(alice, bob)
    alices_context, alices = game_page(
        browser, daphne_server, alice, game, viewport={"width": 1280, "height": 900}
    )
    line = alices.locator("#presence .presence-line")
    line.wait_for()
    assert line.inner_text().startswith("bob is not connected.")
    left = line.locator(".clock-left").inner_text()
    assert re.fullmatch(r"[01]:\d\d", left), left  # the lobby's 60 s grace, counting down
    alices.screenshot(path=screenshot_dir / "presence-waiting.png")

    bobs_context, _ = game_page(browser, daphne_server, bob, game)
    line.wait_for(state="detached")
    bobs_context.close()  # bob's tab is closed
    line.wait_for()
    assert "bob" in line.inner_text()
    assert Game.objects.get(pk=game.pk).version == 0  # nobody's move turned stale
    alices_context.close()
