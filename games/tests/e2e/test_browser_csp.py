"""In real Chromium against a live Daphne: every page works under the Content-Security-Policy
(skyjo_site/csp.py) with no violation and no script error: htmx, the websocket extension (lobby
and game sockets), the redirect when a lobby's game starts, the "(you)" mark, the chat, a game
over, the replay's arrow keys, the moderation pages, the admin."""

import re

import pytest
from django.test import Client

from conftest import PASSWORD
from games import services
from games.tests.helpers import play_to_end, start_game

pytestmark = pytest.mark.e2e

WATCH_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def watched_page(browser, base, user, problems):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page


def violations(page) -> list:
    return page.evaluate("window.__csp || []")


def test_the_site_works_under_its_content_security_policy(
    daphne_server, browser, screenshot_dir, django_user_model
):
    base = daphne_server
    ann, ben = (
        django_user_model.objects.create_user(
            n, f"{n}@example.com", PASSWORD, is_staff=(n == "ann")
        )
        for n in ("ann", "ben")
    )
    ann.is_superuser = True
    ann.save(update_fields=["is_superuser"])
    problems: list[str] = []
    host = watched_page(browser, base, ann, problems)
    guest = watched_page(browser, base, ben, problems)

    for url in ["/", "/rules/", "/players/", "/lobbies/", "/u/ann/", "/accounts/settings/"]:
        host.goto(base + url)
        assert violations(host) == [], url

    lobby = services.lobby_create(host=ann, name="CSP table", seat_count=2)
    host.goto(f"{base}/lobbies/{lobby.pk}/")
    guest.goto(f"{base}/lobbies/{lobby.pk}/")
    guest.locator("#lobby-panel[data-synced]").wait_for()  # the socket's first frame (page.js)
    guest.get_by_role("button", name="Take a seat").click()
    host.locator("#lobby-seats").get_by_text("ben").wait_for()  # pushed over the socket
    host.locator(".select-on-click").click()
    assert host.evaluate("document.activeElement.selectionEnd") > 0
    host.get_by_role("button", name="Start the game").click()
    for page in (host, guest):  # the guest follows the seats fragment's data-redirect
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        page.wait_for_selector('#conn[data-state="open"]')
    mark = guest.evaluate(
        "getComputedStyle(document.querySelector('#player-1 .player-name'), '::after').content"
    )
    assert "(you)" in mark
    guest.screenshot(path=str(screenshot_dir / "csp-game.png"))
    guest.fill("#chat-input", "good luck")
    guest.keyboard.press("Enter")
    host.locator("#chat").get_by_text("good luck").wait_for()  # pushed over the socket
    assert violations(host) == [] and violations(guest) == []

    finished = start_game(ann, ben, end_score=30)
    play_to_end(finished, [ann, ben], seed=3)
    host.goto(f"{base}/games/{finished.pk}/replay/?step=5")
    host.keyboard.press("ArrowRight")
    host.wait_for_selector('#replay-body[data-step="6"]')
    host.keyboard.press("ArrowLeft")
    host.wait_for_selector('#replay-body[data-step="5"]')
    assert violations(host) == []

    host.goto(f"{base}/games/{finished.pk}/")  # the game over: scores, analysis, rematch
    host.locator("#analysis-slot").wait_for()
    assert violations(host) == []

    moderation = ["/moderation/", "/moderation/log/", "/moderation/players/ben/"]
    moderation.append(f"/moderation/games/{finished.pk}/")
    for url in [
        *moderation,
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{finished.pk}/change/",
    ]:
        host.goto(base + url)
        assert violations(host) == [], url
    assert problems == []
