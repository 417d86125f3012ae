"""In real Chromium against a live Daphne: what the pages do with their sockets (static/js):
a ban closes the game page's socket and the page shows the ban; a heartbeat ahead of the board
asks for a sync, without a storm; a socket closed for flooding or for too many sockets comes
back, but not at once, the header's turns socket too."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e

# Before the page's scripts: note every frame sent and every socket opened or closed.
SPY = """
window.__sent = []; window.__opened = []; window.__closed = []; window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
  window.__opened.push(Date.now()); window.__sockets.push(ws);
  ws.addEventListener("close", (e) => {
    window.__closed.push([Date.now(), e.code]);
    const kept = JSON.parse(sessionStorage.getItem("spy-closed") || "[]");
    sessionStorage.setItem("spy-closed", JSON.stringify([...kept, e.code]));  // across reloads
  });
  const send = ws.send.bind(ws);
  ws.send = (data) => { window.__sent.push(data); send(data); };
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
"""


def page_of(browser, base, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    context.add_init_script(SPY)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def open_game(page, base, game):
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector('#conn[data-state="open"]')
    page.wait_for_selector("#board[data-version]", state="attached")


def syncs(page) -> int:
    return page.evaluate("window.__sent.filter((f) => JSON.parse(f).sync === true).length")


def test_a_ban_from_the_admin_closes_the_game_page_socket(
    daphne_server, browser, screenshot_dir, alice, bob
):
    game = start_game(alice, bob)
    page = page_of(browser, daphne_server, alice)
    open_game(page, daphne_server, game)
    root = get_user_model().objects.create_superuser("root", "root@example.com", "x-admin-9")
    admin = page_of(browser, daphne_server, root)
    admin.goto(f"{daphne_server}/admin/accounts/user/")
    admin.locator(f'input[name="_selected_action"][value="{alice.pk}"]').check()
    admin.select_option('select[name="action"]', "ban_users")
    admin.fill('input[name="reason"]', "Cheating")
    admin.get_by_role("button", name="Go").click()
    admin.get_by_text("Banned 1 user(s).").wait_for()
    # The socket closes with 4401; the page reloads once and the site logs the banned user out.
    page.wait_for_url(f"{daphne_server}/")
    page.get_by_text("This account is banned").wait_for()
    assert page.evaluate("JSON.parse(sessionStorage.getItem('spy-closed'))")[:1] == [4401]
    page.screenshot(path=screenshot_dir / "banned-while-playing.png", full_page=True)


def test_a_heartbeat_ahead_of_the_board_asks_for_sync_with_backoff(
    daphne_server, browser, alice, bob
):
    game = start_game(alice, bob)
    page = page_of(browser, daphne_server, alice)
    open_game(page, daphne_server, game)
    assert syncs(page) == 0
    # A heartbeat names a version the board never got, ten times a second for 3.5 s.
    page.evaluate(
        """() => new Promise((done) => {
          const game = document.getElementById("game");
          let n = 0;
          const tick = setInterval(() => {
            document.getElementById("heartbeat").dataset.version = "99";
            htmx.trigger(game, "htmx:wsAfterMessage", {message: '<div id="heartbeat"></div>'});
            if (++n === 35) { clearInterval(tick); done(); }
          }, 100);
        })"""
    )
    asked = syncs(page)
    assert 2 <= asked <= 4, f"{asked} syncs for 35 heartbeats: expected a doubling wait"
    # Coming back to a hidden tab asks too (the board is already current here).
    page.wait_for_timeout(100)
    before = syncs(page)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    # A function, not an expression: under the site's CSP an expression is eval'd and refused.
    page.wait_for_function(
        "n => window.__sent.filter((f) => JSON.parse(f).sync).length > n", arg=before
    )


def test_a_socket_closed_for_flooding_reconnects_after_a_pause(daphne_server, browser, alice, bob):
    game = start_game(alice, bob)
    page = page_of(browser, daphne_server, alice)
    open_game(page, daphne_server, game)
    # The server's 4429 or 4430 close, as the htmx websocket extension reports it.
    waits = page.evaluate(
        """async () => {
          const game = document.getElementById("game");
          const waits = [];
          for (const code of [4429, 4430, 4429]) {
            waits.push(await new Promise((done) => {
              const closed = Date.now();
              htmx.trigger(game, "htmx:wsClose", {
                event: {code: code},
                socketWrapper: {reconnect: () => done(Date.now() - closed)},
              });
            }));
          }
          return waits;
        }"""
    )
    print(f"\nreconnected {waits} ms after three 4429/4430 closes in a row")
    assert waits[0] >= 2000, "a 4429 close must not reconnect at once"
    assert waits[1] >= 5000 and waits[2] >= 10000, "each refusal in a row must wait longer"


def test_the_header_turns_socket_refused_for_too_many_sockets_comes_back(
    daphne_server, browser, alice, bob
):
    game = start_game(alice, bob)
    page = page_of(browser, daphne_server, alice)
    open_game(page, daphne_server, game)
    # A 4430 close of the header's turns socket, then of the page's own socket: each comes back
    # after a pause, and each counts its own refusals (the first pause of each is the shortest).
    waits = page.evaluate(
        """async () => {
          const waits = [];
          for (const id of ["turns-link", "game"]) {
            waits.push(await Promise.race([
              new Promise((done) => {
                const closed = Date.now();
                htmx.trigger(document.getElementById(id), "htmx:wsClose", {
                  event: {code: 4430},
                  socketWrapper: {reconnect: () => done(Date.now() - closed)},
                });
              }),
              new Promise((done) => setTimeout(() => done(-1), 15000)),
            ]));
          }
          return waits;
        }"""
    )
    print(f"\nturns socket back after {waits[0]} ms, the game's after {waits[1]} ms")
    assert waits[0] != -1, "the turns socket never came back after a 4430"
    assert 2000 <= waits[0] <= 5500 and 2000 <= waits[1] <= 5500, waits
