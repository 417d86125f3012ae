"""In real Chromium: a second click or key press while a move is in flight is ignored without a
word (static/js/game.js), on a phone and on a desktop: the move is played once, and no error
(a stale version) is shown."""

import pytest

from conftest import PASSWORD
from games import publish
from games.tests.e2e.test_browser_first_screen import VIEWPORTS, act, to_the_turn_of
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e


def board_version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def wait_past(page, version: int) -> None:
    page.wait_for_function(
        f"() => parseInt(document.getElementById('board').dataset.version, 10) > {version}"
    )


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_double_click_or_key_press_plays_once_without_an_error(
    viewport, daphne_server, browser, django_user_model, monkeypatch
):
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    alice, bob = (
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob")
    )
    game = start_game(alice, bob)
    to_the_turn_of(game, [alice, bob], 0)
    context = logged_in_context(browser, daphne_server, alice, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()

    # "Draw a card" pressed twice in one task, so surely before the answer (two key presses from
    # here could straddle it, and the second then rightly acts on the control that has the
    # focus): one card drawn.
    before = board_version(page)
    page.evaluate("() => { const b = document.getElementById('act-draw'); b.click(); b.click(); }")
    wait_past(page, before)
    page.locator("#controls .drawn").wait_for()
    page.wait_for_timeout(800)  # a second frame's error would have come back by now
    assert board_version(page) == before + 1
    assert page.locator("#flash").inner_text() == ""
    # Two clicks on a card: the drawn card swapped in once.
    before = board_version(page)
    page.locator('.cell.pickable[data-seat="0"][data-pos="5"]').dblclick()
    wait_past(page, before)
    page.wait_for_timeout(800)  # a second frame's error would have come back by now
    assert board_version(page) == before + 1
    assert page.locator("#flash").inner_text() == ""
    game.refresh_from_db()
    assert game.version == before + 1
    # Two presses of Space on a card of the next turn: the same.
    act(game, bob, {"take": "deck"})
    act(game, bob, {"swap": 0})
    page.reload()
    page.locator("[ws-connect][data-synced]").wait_for()
    page.locator("#act-draw").click()
    page.locator("#controls .drawn").wait_for()
    before = board_version(page)
    page.locator('.cell.pickable[data-seat="0"][data-pos="6"]').focus()
    page.keyboard.press(" ")
    page.keyboard.press(" ")
    wait_past(page, before)
    page.wait_for_timeout(800)
    assert board_version(page) == before + 1
    assert page.locator("#flash").inner_text() == ""
    context.close()
    assert errors == []  # the Content-Security-Policy refused nothing during the swaps
