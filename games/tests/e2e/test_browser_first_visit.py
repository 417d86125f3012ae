"""In real Chromium against a live Daphne, on a phone and a desktop: the language switcher
(the page reloads in the language chosen, and the account keeps it), a late invitee watching
a private game, and dates in the browser's own time zone; no console error on the way."""

from datetime import UTC, datetime

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


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_newcomers_first_minutes_in_words_of_the_site(
    viewport, daphne_server, browser, django_user_model, settings
):
    """A mistyped address gets the site's own page in the visitor's language; refused
    registration forms do not use up the accounts limit; a ban's end is written in the
    reader's time zone, named."""
    context = browser.new_context(
        viewport=VIEWPORTS[viewport], locale="fr-FR", timezone_id="Asia/Tokyo"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(f"{daphne_server}/games/abc/")
    assert page.get_by_role("heading", name="Rien à voir à cette adresse").is_visible()
    assert page.locator("a.brand").is_visible()  # the site's page, with its menu

    page.goto(f"{daphne_server}/accounts/register/")
    page.goto(f"{daphne_server}/")  # page.js has set the time zone cookie by now
    for attempt in range(3):  # a typo each time: refused, counted apart
        page.goto(f"{daphne_server}/accounts/register/")
        page.fill("#id_username", f"new_{viewport}")
        page.fill("#id_email", f"new_{viewport}@example.com")
        page.fill("#id_password1", "a-long-Passw0rd!")
        page.fill("#id_password2", f"other-{attempt}")
        page.locator("#id_password2").press("Enter")
        page.wait_for_load_state()
    page.fill("#id_password1", "a-long-Passw0rd!")
    page.fill("#id_password2", "a-long-Passw0rd!")
    page.locator("#id_password2").press("Enter")
    page.wait_for_url(f"{daphne_server}/")
    user = django_user_model.objects.get(username=f"new_{viewport}")

    user.ban("spam", until=datetime(2099, 12, 4, 6, 7, tzinfo=UTC))
    page.goto(f"{daphne_server}/accounts/settings/")  # logged out on the next request
    page.get_by_text("4 déc. 2099 15:07 JST").wait_for()
    context.close()
    assert errors == []
