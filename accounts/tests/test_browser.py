"""In real Chromium against a live Daphne: register, log out, log back in; the menu at every
width."""

import pytest

from conftest import PASSWORD, _make_moderator

pytestmark = pytest.mark.e2e


def test_register_logout_login(page, daphne_server, screenshot_dir, django_user_model):
    page.set_default_timeout(10_000)
    page.goto(daphne_server + "/")
    page.get_by_role("link", name="Register").first.click()

    page.get_by_label("Player name").fill("dora")
    page.get_by_label("E-mail address").fill("dora@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()

    page.wait_for_url(daphne_server + "/")
    assert page.get_by_text("Welcome to Skyjo Online, dora!").is_visible()
    assert page.locator(".user-name").inner_text() == "dora"
    assert django_user_model.objects.filter(username="dora").exists()
    page.screenshot(path=screenshot_dir / "home-logged-in.png", full_page=True)

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(daphne_server + "/")
    assert page.get_by_role("navigation").get_by_role("link", name="Log in").is_visible()

    page.get_by_role("navigation").get_by_role("link", name="Log in").click()
    page.get_by_label("Player name").fill("dora")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(daphne_server + "/")
    assert page.locator(".user-name").inner_text() == "dora"


def test_home_on_a_phone(browser, daphne_server, screenshot_dir):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    phone = context.new_page()
    phone.goto(daphne_server + "/")
    assert phone.get_by_role("heading", name="Play Skyjo online").is_visible()
    phone.screenshot(path=screenshot_dir / "home-phone.png", full_page=True)
    phone.locator(".nav-toggle-label").click()
    assert phone.get_by_role("link", name="Register").is_visible()
    phone.screenshot(path=screenshot_dir / "home-phone-menu.png")
    context.close()


def log_in(page, base, user) -> None:
    page.goto(base + "/accounts/login/")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(base + "/")


def test_the_menu_never_widens_the_page(browser, daphne_server, screenshot_dir, django_user_model):
    """A player's menu in French, among the longest, with a long name: behind its button below
    1100 px, in a line from there; the page is never wider than the window."""
    user = django_user_model.objects.create_user(
        "joueuse_au_long_nom", password=PASSWORD, language="fr"
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    log_in(page, daphne_server, user)
    for width in (800, 1024, 1099, 1100, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(daphne_server + "/puzzles/")
        assert page.evaluate("document.documentElement.scrollWidth") == width, width
        inline = page.get_by_role("button", name="Se déconnecter").is_visible()
        assert inline is (width >= 1100), width
    page.screenshot(path=screenshot_dir / "menu-fr-1280.png")
    context.close()


def test_a_moderators_longer_menu_never_widens_the_page(
    browser, daphne_server, screenshot_dir, django_user_model
):
    """A moderator's menu in French (Moderation and Admin too), with a long name: where it does
    not fit in a line, their own links take the next; the page is never wider than the
    window."""
    moderator = _make_moderator(django_user_model, "moderateur_au_long_nom")
    moderator.language = "fr"
    moderator.save(update_fields=["language"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    log_in(page, daphne_server, moderator)
    for width in (1100, 1280, 1400, 1600):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(daphne_server + "/puzzles/")
        assert page.evaluate("document.documentElement.scrollWidth") == width, width
        assert page.get_by_role("link", name="Administration").is_visible(), width
    page.screenshot(path=screenshot_dir / "menu-moderator-fr-1280.png")
    context.close()
