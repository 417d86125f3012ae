"""In real Chromium against a live Daphne: the player of a game against bots ends it from the
game page ("End this game", then "Yes, end it") and lands on the home page."""

import re

import pytest

from games.models import Game, Lobby
from games.tests.e2e.test_browser_game import register

pytestmark = pytest.mark.e2e


def test_the_player_ends_a_game_against_bots_and_lands_home(daphne_server, browser, screenshot_dir):
    base = daphne_server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    register(page, base, "quitter")
    page.get_by_label("Bots").select_option("3")
    page.get_by_label("End score").fill("1000")
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector('#conn[data-state="open"]')
    game_id = int(page.url.rstrip("/").split("/")[-1])
    confirm = page.get_by_role("button", name="Yes, end it")
    assert not confirm.is_visible()  # a second click, after the first opened it
    page.screenshot(path=screenshot_dir / "end-game-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=screenshot_dir / "end-game-phone.png")

    page.get_by_text("End this game", exact=True).click()
    confirm.wait_for()
    page.screenshot(path=screenshot_dir / "end-game-phone-confirm.png")
    confirm.click()
    page.wait_for_url(base + "/")
    page.get_by_text("The game is ended").wait_for()
    game = Game.objects.select_related("lobby").get(pk=game_id)
    assert (game.status, game.voided) == (Game.Status.ABORTED, True)
    assert game.lobby.status == Lobby.Status.FINISHED
    context.close()
