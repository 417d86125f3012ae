"""In real Chromium against a live Daphne: two players chat during a game, one on a desktop,
one on a phone; what one sends appears on the other's page without a reload, typed HTML stays
text. Screenshots of both."""

import pytest
from django.test import Client

from chat.models import Message
from games.tests.e2e.test_browser_a11y import audit
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def page_of(browser, base, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    return page


def test_two_players_chat_during_a_game(daphne_server, browser, screenshot_dir, alice, bob):
    base = daphne_server
    game = start_game(alice, bob)
    desk = page_of(browser, base, alice, DESKTOP)
    phone = page_of(browser, base, bob, PHONE)
    for page in (desk, phone):
        page.goto(f"{base}/games/{game.pk}/")
        page.wait_for_selector('#conn[data-state="open"]')

    desk.get_by_label("Message").fill("Good luck! <b>bold</b><script>alert(1)</script>")
    desk.get_by_role("button", name="Send").click()
    line = phone.locator("#chat-log-players .chat-msg").last
    line.locator(".chat-text").get_by_text("<b>bold</b>", exact=False).wait_for()
    assert line.locator("b").count() == 0
    assert desk.get_by_label("Message").input_value() == ""

    phone.get_by_role("button", name="Well played").click()
    desk.locator("#chat-log-players .chat-msg").last.get_by_text("Well played").wait_for()
    assert list(Message.objects.order_by("id").values_list("author__username", "quick")) == [
        ("alice", ""),
        ("bob", "wp"),
    ]
    # Nothing overflows sideways on the phone; the chat with its messages passes axe-core.
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert audit(desk, "chat-desktop") + audit(phone, "chat-phone") == []
    desk.screenshot(path=screenshot_dir / "chat-game-desktop.png", full_page=True)
    phone.screenshot(path=screenshot_dir / "chat-game-phone.png", full_page=True)


def test_an_old_long_name_never_widens_a_phone_page(
    daphne_server, browser, screenshot_dir, django_user_model, alice
):
    """A name from before the rule (130 characters) on a phone: cut with an ellipsis, the page
    no wider than the screen, in the lobby with its chat and on the profile."""
    from chat import services as chat_services
    from games import services

    base = daphne_server
    long = django_user_model.objects.create_user(username="W" * 130, password="x" * 12)
    lobby = services.lobby_create(host=long, name="M" * 60)
    services.lobby_join(lobby_id=lobby.pk, user=alice)
    chat_services.chat_post(user=long, text="W" * 300, lobby_id=lobby.pk)
    phone = page_of(browser, base, long, PHONE)
    for path, shot in ((f"/lobbies/{lobby.pk}/", "lobby"), (f"/u/{long.username}/", "profile")):
        phone.goto(base + path)
        phone.wait_for_load_state()
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
        phone.screenshot(path=screenshot_dir / f"long-name-{shot}-phone.png", full_page=True)


def test_a_message_too_long_is_refused_with_its_length_and_kept_to_shorten(
    daphne_server, browser, alice, bob
):
    """A paste past 300 characters was cut by the field's maxlength without a word: the whole
    text now goes, the refusal says the limit and its length, and the text comes back."""
    game = start_game(alice, bob)
    page = page_of(browser, daphne_server, alice, DESKTOP)
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.wait_for_selector('#conn[data-state="open"]')
    long = " ".join(["Skyjo"] * 70)  # 419 characters
    field = page.get_by_label("Message")
    field.fill(long)
    page.get_by_role("button", name="Send").click()
    flash = page.locator('#chat-flash[data-code="chat_too_long"]')
    flash.wait_for()
    assert flash.inner_text() == "A message may hold at most 300 characters (yours has 419)."
    assert field.input_value() == long
    field.fill("Good luck!")
    page.get_by_role("button", name="Send").click()
    page.locator("#chat-log-players .chat-msg").last.get_by_text("Good luck!").wait_for()
    assert field.input_value() == "" and flash.count() == 0
    assert list(Message.objects.values_list("text", flat=True)) == ["Good luck!"]
