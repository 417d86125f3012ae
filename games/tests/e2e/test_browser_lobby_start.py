"""In real Chromium against a live Daphne: a guest comes in by a private lobby's invite link
(its socket is let in: no refused socket, no console error), takes a seat (the host's header
counts it at once), and the host starts the game (one load of the game page, not two)."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import PASSWORD
from games import services
from games.tests.e2e.test_browser_replay import logged_in_context

pytestmark = pytest.mark.e2e


def new_lobby(**kwargs):
    """services.lobby_create off Playwright's event loop thread, where its publish after the
    commit cannot run (it logged "could not publish")."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(services.lobby_create, **kwargs).result()


def test_an_invited_guest_sits_down_and_the_host_starts(
    daphne_server, browser, screenshot_dir, django_user_model
):
    base = daphne_server
    host, guest = (
        django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
        for n in ("hostess", "guest")
    )
    lobby = new_lobby(host=host, name="Private", seat_count=2, is_public=False)
    pages, problems = [], []
    for user in (host, guest):
        page = logged_in_context(browser, base, user).new_page()
        page.set_default_timeout(15_000)
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        pages.append(page)
    hosting, guesting = pages

    hosting.goto(f"{base}/lobbies/{lobby.pk}/")
    hosting.locator("#lobby-panel[data-synced]").wait_for()
    assert "1 of 2 seats taken" in hosting.locator("#lobby-summary").inner_text()

    guesting.goto(f"{base}/lobbies/invite/{lobby.invite_code}/")
    guesting.locator("#lobby-panel[data-synced]").wait_for()  # its socket was let in
    guesting.get_by_role("button", name="Take a seat").click()
    hosting.locator("#lobby-summary", has_text="2 of 2 seats taken").wait_for()

    game_loads = []
    hosting.on(
        "request",
        lambda r: (
            game_loads.append(r.url)
            if r.resource_type == "document" and re.search(r"/games/\d+/$", r.url)
            else None
        ),
    )
    hosting.get_by_role("button", name="Start the game").click()
    hosting.wait_for_url(re.compile(r"/games/\d+/$"))
    guesting.wait_for_url(hosting.url)  # the push reached both pages: the guest followed it
    hosting.locator('#conn[data-state="open"]').wait_for()
    guesting.locator('#conn[data-state="open"]').wait_for()
    hosting.screenshot(path=screenshot_dir / "lobby-start-host.png")
    assert game_loads == [hosting.url]
    assert problems == []


def test_a_guest_removed_from_a_private_lobby_is_told_so_on_the_page_they_had_open(
    daphne_server, browser, screenshot_dir, django_user_model
):
    """The guest's open lobby page (seated: its socket carries no invite) is closed out of the
    lobby (4404, no more of its chat) and reloads once, to a page that says why."""
    base = daphne_server
    host, guest = (
        django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
        for n in ("hostess", "guest")
    )
    lobby = services.lobby_create(host=host, name="Private", seat_count=3, is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=guest, invite_code=lobby.invite_code)
    hosting, guesting = (logged_in_context(browser, base, u).new_page() for u in (host, guest))
    for page in (hosting, guesting):
        page.set_default_timeout(15_000)
        page.goto(f"{base}/lobbies/{lobby.pk}/")
        page.locator("#lobby-panel[data-synced]").wait_for()
    hosting.get_by_role("button", name="Remove").click()
    guesting.locator("#error-page", has_text="The host removed you from this lobby.").wait_for()
    guesting.screenshot(path=screenshot_dir / "lobby-removed-guest.png")
    assert "/lobbies/" in guesting.url


def test_a_guest_who_chatted_in_the_lobby_is_taken_to_the_game_when_it_starts(
    daphne_server, browser, django_user_model
):
    """A chat message is sent on the page's socket, not by leaving the page: the guest's page
    still follows the host's start to the game."""
    base = daphne_server
    host, guest = (
        django_user_model.objects.create_user(n, f"{n}@example.com", PASSWORD)
        for n in ("hostess", "guest")
    )
    lobby = services.lobby_create(host=host, name="Chatty", seat_count=2, is_public=True)
    services.lobby_join(lobby_id=lobby.pk, user=guest)
    hosting, guesting = (logged_in_context(browser, base, u).new_page() for u in (host, guest))
    for page in (hosting, guesting):
        page.set_default_timeout(15_000)
        page.goto(f"{base}/lobbies/{lobby.pk}/")
        page.locator("#lobby-panel[data-synced]").wait_for()
    guesting.locator("#chat-input").fill("ready when you are")
    guesting.locator("#chat-input").press("Enter")
    hosting.locator(".chat-log", has_text="ready when you are").wait_for()

    hosting.get_by_role("button", name="Start the game").click()
    hosting.wait_for_url(re.compile(r"/games/\d+/$"))
    guesting.wait_for_url(hosting.url)


def test_a_host_alone_sees_why_the_game_cannot_start_yet(daphne_server, browser, alice):
    """Alone in the lobby, "Start the game" is disabled: it looks so, and the page says why
    (a title shows on hover only, never on a phone); a bot in a seat lets it start."""
    base = daphne_server
    lobby = new_lobby(host=alice, name="Alone", seat_count=3, is_public=True)
    page = logged_in_context(browser, base, alice).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/lobbies/{lobby.pk}/")
    page.locator("#lobby-panel[data-synced]").wait_for()
    start = page.locator("#start-game")
    assert start.is_disabled()
    assert float(start.evaluate("b => getComputedStyle(b).opacity")) < 1
    assert start.evaluate("b => getComputedStyle(b).cursor") == "not-allowed"
    hint = page.locator("#start-hint")
    assert hint.is_visible() and "At least two players are needed" in hint.inner_text()

    page.get_by_role("button", name="Add bot").first.click()
    page.locator("#lobby-summary", has_text="2 of 3 seats taken").wait_for()
    # The button as the last swap left it (the answer to the click and the socket's push each
    # replace the panel: a button read in between is detached, with no style at all).
    page.wait_for_function(
        "() => { const b = document.querySelector('#start-game');"
        " return b && !b.disabled && getComputedStyle(b).opacity === '1'; }"
    )
    assert start.is_enabled()
    assert page.locator("#start-hint").count() == 0
