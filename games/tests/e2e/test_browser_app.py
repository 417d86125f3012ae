"""In real Chromium against a live Daphne, on a phone and a desktop: the site installs as an
app (its manifest parsed without errors, a service worker controlling the page after a
reload, the offline page when the network is gone), and the small things of the game page
(the brand link's name, the skip link, the keyboard hint, the "live" mark, the menu's lines)."""

import pytest

from conftest import PASSWORD, _make_moderator
from games import publish
from games.tests.e2e.test_browser_first_screen import VIEWPORTS
from games.tests.e2e.test_browser_phones import finish_quickly
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game

pytestmark = pytest.mark.e2e

# Whether the worker will show its offline page in ``language``: the latest page's language
# is ``language`` and that copy is kept.
KEPT_OFFLINE_IN = """async (language) => {
  const cache = await caches.open((await caches.keys())[0]);
  const latest = await cache.match("/offline/language");
  const kept = await cache.match("/offline/?language=" + language);
  return Boolean(latest && (await latest.text()) === language && kept);
}"""


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_site_installs_as_an_app_and_shows_its_offline_page(
    viewport, daphne_server, browser, alice
):
    context = logged_in_context(browser, daphne_server, alice, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(daphne_server + "/")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    assert '"display":"standalone"' in manifest["data"].replace(" ", "")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    page.goto(daphne_server + "/lobbies/")
    assert page.locator("#offline-page").is_visible()
    context.set_offline(False)
    # A new language: the worker keeps the offline page in it and shows it; then back to
    # English: the copy kept at first is shown again.
    for language, title in (("de", "Keine Verbindung"), ("en", "No connection")):
        page.goto(daphne_server + "/")
        page.locator("#language-switcher").select_option(language)
        page.locator("form.language-switcher button").click()
        page.wait_for_function("l => document.documentElement.lang === l", arg=language)
        page.wait_for_function(KEPT_OFFLINE_IN, arg=language)
        context.set_offline(True)
        page.goto(daphne_server + "/lobbies/")
        assert page.locator("#offline-page h1").inner_text() == title
        context.set_offline(False)
    context.close()
    assert errors == []


def test_the_small_things_of_the_game_page(daphne_server, browser, django_user_model, monkeypatch):
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    ann, bob = (
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("ann", "bob")
    )
    mod = _make_moderator(django_user_model, "moderator_with_a_long_name")
    running = start_game(ann, bob)
    finished = start_game(ann, bob, end_score=1)
    finish_quickly(finished, [ann, bob])

    desktop = logged_in_context(browser, daphne_server, ann, viewport=VIEWPORTS["desktop"])
    page = desktop.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{daphne_server}/games/{running.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    brand = page.locator("a.brand")
    assert brand.inner_text().replace("\n", " ").strip() in brand.get_attribute("aria-label")
    page.keyboard.press("Tab")
    skip = page.locator("#skip-to-move")
    assert skip.evaluate("e => e === document.activeElement") and skip.is_visible()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#controls, #board') !== null")
    assert page.locator("#keys-hint").is_visible()
    assert page.locator("#conn").is_visible()
    page.goto(f"{daphne_server}/games/{finished.pk}/")
    page.locator("[ws-connect][data-synced]").wait_for()
    assert not page.locator("#conn").is_visible()
    desktop.close()

    phone = logged_in_context(browser, daphne_server, ann, viewport=VIEWPORTS["phone"])
    page = phone.new_page()
    page.goto(f"{daphne_server}/games/{running.pk}/")
    assert not page.locator("#keys-hint").is_visible()
    phone.close()

    watcher = logged_in_context(browser, daphne_server, mod, viewport=VIEWPORTS["desktop"])
    page = watcher.new_page()
    page.goto(f"{daphne_server}/games/{running.pk}/")
    assert not page.locator("#keys-hint").is_visible()
    assert page.locator("#skip-to-move").count() == 0
    # A moderator's longer menu: the site's links and their own each in one line, the page
    # no wider than the window.
    for group in (".nav-links", ".nav-user"):
        tops = page.locator(f".site-nav {group} > li").evaluate_all(
            "items => items.map(i => i.getBoundingClientRect().top)"
        )
        assert max(tops) - min(tops) < 10, f"the moderator's menu wraps in {group}: {tops}"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    watcher.close()
