"""In real Chromium against a live Daphne, on a desktop (1366×900) and a phone (390×844): the
profile, the players page and a finished game's page show their charts and tables and never
scroll sideways. Screenshots: test-artifacts/screenshots/stats-*.png."""

import pytest

from conftest import PASSWORD
from games import publish
from games.tests.e2e.test_browser_phones import OVERFLOW, finish_quickly
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game
from stats.tests.factories import finished_game

pytestmark = pytest.mark.e2e

SCREENS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def test_statistics_pages_fit_desktops_and_phones(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    names = ["alice", "bartholomew_vonlongname", "carol", "dimitrios_papadopoulos"]
    users = [django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD) for n in names]
    alice = users[0]
    game = start_game(*users, end_score=60)
    finish_quickly(game, users)
    for i in range(12):
        finished_game(
            [alice, users[1 + i % 3]] + (["easy"] if i % 4 == 0 else []),
            [
                [(5 + i, 5 + i, True, i % 2), (9, 9, False, 0)]
                + ([(7, 7, False, 0)] if i % 4 == 0 else [])
            ],
        )
    pages = {"profile": "/u/alice/", "players": "/players/", "game": f"/games/{game.pk}/"}
    for screen, size in SCREENS.items():
        context = logged_in_context(browser, daphne_server, alice, viewport=size)
        page = context.new_page()
        for name, url in pages.items():
            page.goto(daphne_server + url)
            assert page.locator("main svg[role=img]").count() or name == "players", name
            assert page.evaluate(OVERFLOW) == [], f"{name} scrolls sideways on a {screen}"
            page.screenshot(path=str(screenshot_dir / f"stats-{name}-{screen}.png"), full_page=True)
        assert page.locator("table.leaderboard").count() == 0  # the game's page, last
        page.goto(daphne_server + "/players/")
        assert page.locator("table.leaderboard tr.is-me").is_visible()
        assert page.get_by_role("columnheader", name="Rating").is_visible()
        context.close()
