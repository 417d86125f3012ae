"""In real Chromium against a live Daphne, on a phone and a desktop: the language switcher
(the page reloads in the language chosen, and the account keeps it), a late invitee watching
a private game, and dates in the browser's own time zone; no console error on the way."""

import pytest

from accounts.models import User
from games import services
from games.tests.e2e.test_browser_first_screen import VIEWPORTS
from games.tests.e2e.test_browser_replay import logged_in_context

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_player_switches_language_and_an_invitee_watches(
    viewport, daphne_server, browser, alice, bob, charlie, screenshot_dir
):
    lobby = services.lobby_create(host=alice, name="Secret", seat_count=2, is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)

    context = logged_in_context(
        browser, daphne_server, charlie, viewport=VIEWPORTS[viewport], timezone_id="Asia/Tokyo"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))

    page.goto(f"{daphne_server}/lobbies/invite/{lobby.invite_code}/")
    assert page.url.endswith(f"/games/{game.pk}/?invite={lobby.invite_code}")
    page.locator("[ws-connect][data-synced]").wait_for()
    page.get_by_text("You are watching this game.").wait_for()
    page.screenshot(path=screenshot_dir / f"invitee-watching-{viewport}.png")

    page.select_option("#language-switcher", "de")
    page.get_by_role("button", name="Change language").click()
    page.get_by_text("Du schaust diesem Spiel zu.").wait_for()
    assert page.locator("html").get_attribute("lang") == "de"
    assert User.objects.get(pk=charlie.pk).language == "de"
    assert any(c["name"] == "skyjo_tz" and c["value"] == "Asia/Tokyo" for c in context.cookies())
    context.close()
    assert errors == []
