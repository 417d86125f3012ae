"""In real Chromium against a live Daphne: moments of live play as a player meets them: the
network lost and back, the rematch asked for, a drawn card on a phone."""

import re

import pytest
from django.contrib.sessions.models import Session

from conftest import PASSWORD
from games import publish, services
from games.models import Game
from games.tests.e2e.test_browser_phones import PHONE, finish_quickly, holding_a_drawn_card
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e

# Scroll the player's own grid to just below the sticky bar, where a phone player keeps it.
SCROLL_TO_MY_GRID = """() => {
  const bar = document.querySelector(".controls-wrap"), mine = document.querySelector("#player-0");
  const stuck = parseFloat(getComputedStyle(bar).top) + bar.offsetHeight + 8;
  window.scrollTo({behavior: "instant", top: mine.getBoundingClientRect().top + window.scrollY - stuck});
}"""


def game_page(browser, base, user, game, **options):
    context = logged_in_context(browser, base, user, **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    return context, page


def test_a_lost_network_is_shown_and_the_page_connects_again_when_it_is_back(
    daphne_server, browser, screenshot_dir, alice, bob
):
    game = start_game(alice, bob)
    context, page = game_page(
        browser, daphne_server, alice, game, viewport={"width": 1280, "height": 900}
    )
    context.set_offline(True)
    # The socket may stay open in the browser's eyes, but nothing goes through: not "live".
    page.locator('#conn[data-state="closed"]').wait_for()
    assert opacity(page, "#cell-0-0") == "0.55"  # playable, but not now: it looks it
    page.locator("#cell-0-0").click()
    page.locator("#flash[data-shown]").wait_for()
    assert "Not connected" in page.locator("#flash").inner_text()
    page.screenshot(path=screenshot_dir / "game-offline.png")
    game.refresh_from_db()
    assert game.version == 0

    context.set_offline(False)
    page.locator('#conn[data-state="open"]').wait_for()
    assert opacity(page, "#cell-0-0") == "1"
    page.locator("#cell-0-0").click()
    page.locator('#board[data-version="1"]').wait_for(state="attached")
    game.refresh_from_db()
    assert game.version == 1
    context.close()


def test_the_player_who_asks_for_the_rematch_is_taken_to_it(daphne_server, browser, alice, bob):
    game = start_game(alice, bob, end_score=10)
    finish_quickly(game, [alice, bob])
    context, page = game_page(
        browser, daphne_server, alice, game, viewport={"width": 1280, "height": 900}
    )
    page.locator("#act-rematch").click()
    page.wait_for_url(lambda url: not url.endswith(f"/games/{game.pk}/"))
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert page.url == f"{daphne_server}/games/{rematch.pk}/"
    context.close()


def test_a_phone_player_holding_a_drawn_card_sees_their_whole_grid_below_the_controls(
    daphne_server, browser, screenshot_dir, django_user_model
):
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    game = holding_a_drawn_card(alice)
    context, page = game_page(browser, daphne_server, alice, game, viewport=PHONE)
    page.locator("#drawn-card").wait_for()
    # The sticky bar (the drawn card, the prompt, both choices) and the player's three rows
    # must fit the screen together, or a row to swap with is always under the bar or below.
    page.evaluate(SCROLL_TO_MY_GRID)
    bar = page.locator(".controls-wrap").bounding_box()
    grid = page.locator("#player-0 .grid").bounding_box()
    page.screenshot(path=screenshot_dir / "phone-drawn-card.png")
    assert grid["y"] >= bar["y"] + bar["height"]
    assert grid["y"] + grid["height"] <= PHONE["height"]
    context.close()


def test_the_board_scrolled_under_the_sticky_bar_does_not_show_through_it(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    """Scrolled past the player's grid, the last moves lie under the sticky bar: the bar's
    inside looks the same with the board beneath it and without (its rounded corners and
    shadow aside), or the moves' text shows through behind the prompt and the drawn card."""
    monkeypatch.setattr(publish, "_send", lambda group, message: None)  # the page loads after
    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    game = holding_a_drawn_card(alice)
    context, page = game_page(browser, daphne_server, alice, game, viewport=PHONE)
    page.locator("#drawn-card").wait_for()
    page.evaluate(
        """() => window.scrollTo({behavior: "instant", top: window.scrollY
          + document.getElementById("move-log").getBoundingClientRect().top - 100})"""
    )
    page.wait_for_timeout(500)  # the drawn card's lift is over
    bar = page.locator("#controls").bounding_box()
    log = page.locator("#move-log").bounding_box()
    assert log["y"] < bar["y"] + bar["height"], "the last moves are not under the bar"
    inside = {"x": bar["x"] + 16, "y": bar["y"] + 16}
    inside.update(width=bar["width"] - 32, height=bar["height"] - 32)
    page.screenshot(path=screenshot_dir / "phone-bar-over-the-board.png")
    over_the_board = page.screenshot(clip=inside)
    page.evaluate("document.getElementById('board').style.visibility = 'hidden'")
    over_nothing = page.screenshot(clip=inside)
    assert over_the_board == over_nothing
    context.close()


def test_a_socket_that_dies_without_a_word_is_replaced(daphne_server, browser, alice, bob):
    """The browser keeps the socket open, the network passes nothing (no "offline" event): the
    page hears no heartbeat in time, connects anew and gets the state it missed."""
    game = start_game(alice, bob)
    context = logged_in_context(browser, daphne_server, alice)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sockets, dead = [], set()

    def relay(page_side):
        server = page_side.connect_to_server()
        sockets.append(page_side)
        page_side.on_message(server.send)
        server.on_message(lambda m: None if page_side in dead else page_side.send(m))

    page.route_web_socket(re.compile(r"/ws/games/"), relay)
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    dead.add(sockets[0])  # from now on nothing reaches the page on the first socket
    services.game_apply_action(  # a move the page does not hear of
        game_id=game.pk, user=bob, action={"reveal": 0}, version=game.version
    )
    # The server's heartbeat is an hour in tests: the page is told it is a second.
    page.evaluate("document.getElementById('game').dataset.heartbeat = '1000'")
    page.locator('#board[data-version="1"]').wait_for(state="attached")
    assert len(sockets) == 2
    page.locator('#conn[data-state="open"]').wait_for()
    context.close()


def test_the_grids_of_a_row_line_up_when_a_header_wraps(
    daphne_server, browser, screenshot_dir, alice, bob, django_user_model
):
    """A badge beside a long name wraps its header onto two lines: that grid must still start
    level with its neighbours', or the table reads as a staircase (the others' places, in a
    row beside the viewer's own)."""
    long = django_user_model.objects.create_user("W" * 24, "w@example.com", PASSWORD)
    carol = django_user_model.objects.create_user("carol", "carol@example.com", PASSWORD)
    game = start_game(alice, bob, carol, long)  # all four "revealing": a badge each
    context, page = game_page(
        browser, daphne_server, alice, game, viewport={"width": 1280, "height": 900}
    )
    places = [page.locator(f"#player-{s}").bounding_box() for s in range(4)]
    heads = [page.locator(f"#player-{s} .player-head").bounding_box() for s in range(4)]
    grids = [page.locator(f"#player-{s} .grid").bounding_box() for s in range(4)]
    page.screenshot(path=screenshot_dir / "game-wrapped-header.png")
    assert len({round(p["y"]) for p in places[1:]}) == 1  # one row of three
    assert heads[3]["height"] > heads[1]["height"]  # the long name's header did wrap
    assert max(g["y"] for g in grids[1:]) - min(g["y"] for g in grids[1:]) < 1
    context.close()


def test_a_page_whose_session_ended_while_its_socket_was_down_shows_the_log_in(
    daphne_server, browser, alice, bob
):
    """Logged out elsewhere while the network was gone: the reconnect is refused (HTTP 403,
    which the browser sees as a dropped connection). The page does not retry for ever: it
    asks for itself, is sent to the log-in page, and goes there."""
    game = start_game(alice, bob)
    context, page = game_page(
        browser, daphne_server, alice, game, viewport={"width": 1280, "height": 900}
    )
    context.set_offline(True)
    page.locator('#conn[data-state="closed"]').wait_for()
    Session.objects.all().delete()
    context.set_offline(False)
    page.wait_for_url(re.compile(r"/accounts/login/"), timeout=30_000)
    context.close()


def opacity(page, selector: str) -> str:
    return page.evaluate(f"getComputedStyle(document.querySelector('{selector}')).opacity")
