"""In real Chromium at phone size against a live Daphne: a correspondence game's 'your turn'
list and the header's count update live when the opponent moves, and the browser notifies a
player who asked for it while the tab is hidden. Screenshot: correspondence-your-turn.png."""

import json

import pytest
from websockets.sync.client import connect as ws_connect

from games import engine, services
from games.tests.e2e.test_browser_phones import PHONE
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import reveal_all, start_game
from games.tests.live import session_cookie

pytestmark = pytest.mark.e2e

# Before the page's scripts: a Notification that notes what it shows (and grants at once), and
# a visibility the test sets, as a tab in the background.
NOTIFICATIONS = """
window.__notes = []; window.__hidden = false;
window.Notification = function (title) { window.__notes.push(title); };
window.Notification.permission = "default";
window.Notification.requestPermission = function (done) {
  window.Notification.permission = "granted";
  if (done) done("granted");
  return Promise.resolve("granted");
};
Object.defineProperty(document, "visibilityState", {get: () => window.__hidden ? "hidden" : "visible"});
"""


def move_until_not(game, users, seat: int) -> None:
    """Play ``seat``'s turns through the services (turn a card where possible) until another
    seat is to act."""
    for _ in range(10):
        game.refresh_from_db()
        state = engine.from_snapshot(game.snapshot)
        if state.phase != engine.PLAY or state.current != seat:
            return
        legal = [a.to_json() for a in state.legal_actions(seat)]
        action = next((a for a in legal if "flip" in a or a == {"take": "deck"}), legal[0])
        services.game_apply_action(
            game_id=game.pk, user=users[seat], action=action, version=game.version
        )
    raise AssertionError("the turn did not end")


def moves_on_the_server(base: str, game, user, seat: int) -> None:
    """``seat``'s turns made on the live server over ``user``'s game socket (JSON), as their
    page would: the server's own groups (the turns socket's) hear of them."""
    url = base.replace("http://", "ws://") + f"/ws/games/{game.pk}/?format=json"
    headers = {"Cookie": session_cookie(user)}
    with ws_connect(url, additional_headers=headers, origin=base, open_timeout=30) as ws:
        version = json.loads(ws.recv(timeout=10))["version"]
        for _ in range(10):
            game.refresh_from_db()
            state = engine.from_snapshot(game.snapshot)
            if state.phase != engine.PLAY or state.current != seat:
                return
            legal = [a.to_json() for a in state.legal_actions(seat)]
            action = next((a for a in legal if "flip" in a or a == {"take": "deck"}), legal[0])
            ws.send(json.dumps({**action, "version": game.version}))
            while version <= game.version:
                frame = json.loads(ws.recv(timeout=10))
                assert "error" not in frame, frame
                version = frame.get("version", version)
    raise AssertionError("the turn did not end")


def test_the_your_turn_list_and_count_follow_the_opponents_move(
    daphne_server, browser, screenshot_dir, alice, bob
):
    game = start_game(alice, bob, move_days=2)
    users = [alice, bob]
    reveal_all(game, users)
    move_until_not(game, users, 0)  # now bob's move: nothing waits for alice
    context = logged_in_context(browser, daphne_server, alice, viewport=PHONE)
    context.add_init_script(NOTIFICATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{daphne_server}/")
    assert page.locator("#turns-count").get_attribute("data-count") == "0"
    assert page.locator("#turns-link").is_hidden()
    assert "No correspondence game is waiting" in page.locator("#your-turn-list").inner_text()
    page.locator("#notify-me").click()
    page.get_by_text("This browser will tell you when it is your turn.").wait_for()
    page.wait_for_function("() => window.localStorage.getItem('skyjo-notify') === '1'")
    assert page.locator("#notify-me").is_hidden()  # asked once: the state says so instead
    page.evaluate("() => { window.__hidden = true; }")

    moves_on_the_server(daphne_server, game, bob, 1)  # bob moves: the game waits for alice

    page.locator('#turns-count[data-count="1"]').wait_for()
    assert page.locator("#turns-link").is_visible()
    item = page.locator(f'#your-turn-list [data-game="{game.pk}"]')
    item.wait_for()
    assert "Test table" in item.inner_text() and "against bob" in item.inner_text()
    assert "left" in item.locator(".time-left").inner_text()
    assert page.evaluate("() => window.__notes") == ["Your turn in Test table"]
    page.evaluate("() => { window.__hidden = false; }")
    page.locator("#your-turn").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "correspondence-your-turn.png")

    # The link leads to the game, which says it is played by correspondence, its clock in days.
    item.locator("a").click()
    page.wait_for_url(f"{daphne_server}/games/{game.pk}/")
    assert "Correspondence · 2 days per move" in page.locator("#game-pace").inner_text()
    page.locator("[ws-connect][data-synced]").wait_for()
    clock = page.locator("#turn-clock .clock-left")
    if clock.count():  # the lead's correspondence clock: days and hours, not minutes
        assert clock.inner_text().startswith(("1d", "2d")), clock.inner_text()
    page.screenshot(path=screenshot_dir / "correspondence-game.png")
    context.close()
