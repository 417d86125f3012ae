"""In real Chromium against a live Daphne (which runs the bot runner): one click on "Play
against bots" and a whole short game against three bots; and bots in a lobby."""

import re
import time

import pytest

from games import engine
from games.models import Game
from games.records import game_record
from games.tests.e2e.test_browser_game import cell, register

pytestmark = pytest.mark.e2e


def wait_version(pages, version):
    """Until the board shows ``version`` or later (the bots may have moved on already)."""
    for page in pages:
        page.wait_for_function(
            "v => Number(document.querySelector('#board')?.dataset.version) >= v", arg=version
        )


def test_one_click_game_against_bots_to_the_end(daphne_server, browser, screenshot_dir):
    base = daphne_server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    register(page, base, "solo")

    # A lobby: the host adds a bot to an empty seat, and sees it there.
    page.goto(base + "/lobbies/")
    page.get_by_label("Name").fill("Practice")
    page.get_by_role("button", name="Create lobby").click()
    page.wait_for_url(re.compile(r"/lobbies/\d+/$"))
    # The socket's first frame re-renders the seats: choose only after it came.
    page.locator("#lobby-panel[data-synced]").wait_for()
    page.get_by_label("Bot level for seat 2").select_option("strong")
    page.locator('li[data-seat="1"]').get_by_role("button", name="Add bot").click()
    page.locator("#lobby-seats").get_by_text("Bot (Strong)").wait_for()
    page.screenshot(path=screenshot_dir / "bots-lobby.png", full_page=True)

    page.goto(base + "/")
    page.get_by_label("Bots").select_option("3")
    page.get_by_label("Level").select_option("easy")
    page.get_by_label("End score").fill("10")
    page.screenshot(path=screenshot_dir / "bots-home.png", full_page=True)
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector('#conn[data-state="open"]')
    game = Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    assert [p.name for p in game.players.all()] == [
        "solo",
        "Easy bot 1",
        "Easy bot 2",
        "Easy bot 3",
    ]

    shots, deadline = set(), time.monotonic() + 240
    while time.monotonic() < deadline:
        game.refresh_from_db()
        state = engine.from_record(game_record(game))
        if game.status == Game.Status.FINISHED:
            break
        if state.phase == engine.ROUND_OVER and 0 not in game.ready:
            wait_version([page], game.version)
            if "round" not in shots:
                shots.add("round")
                page.screenshot(path=screenshot_dir / "bots-round-end.png", full_page=True)
            page.locator("#act-ready").click()
        elif 0 in state.to_act():
            wait_version([page], game.version)
            face_down = [
                p for p in range(12) if not state.up[0][p] and state.cards[0][p] is not None
            ]
            if state.phase == engine.REVEAL_PHASE:
                cell(page, 0, face_down[0]).click()
            else:
                if "turn" not in shots:
                    shots.add("turn")
                    page.screenshot(path=screenshot_dir / "bots-my-turn.png", full_page=True)
                page.locator("#act-draw").click()
                wait_version([page], game.version + 1)
                target = (
                    face_down[0]
                    if face_down
                    else next(p for p in range(12) if state.cards[0][p] is not None)
                )
                cell(page, 0, target).click()
                game.version += 1
        else:
            time.sleep(0.05)  # the bots play by themselves
            if state.drawn is not None and "bot-draw" not in shots:
                shots.add("bot-draw")
                wait_version([page], game.version)
                page.screenshot(path=screenshot_dir / "bots-bot-holds-card.png", full_page=True)
            continue
        wait_version([page], game.version + 1)
    else:
        raise AssertionError("the game against bots did not end")
    game.refresh_from_db()
    wait_version([page], game.version)
    page.get_by_text("Game over").first.wait_for()
    page.screenshot(path=screenshot_dir / "bots-game-over.png", full_page=True)
    assert {"turn"} <= shots
    context.close()
