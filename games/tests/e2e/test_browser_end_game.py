"""In real Chromium against a live Daphne: the player of a game against bots ends it from the
game page ("End this game", then "Yes, end it") and lands on the home page."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from accounts.models import User
from games import services
from games.models import Game, Lobby
from games.tests.e2e.test_browser_game import register

pytestmark = pytest.mark.e2e


def game_against_bots(browser, base, name: str, bots: int):
    """A new player's browser on the page of their new game against ``bots`` bots (a long one)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    register(page, base, name)
    page.get_by_label("Bots").select_option(str(bots))
    page.get_by_label("End score").fill("1000")
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector('#conn[data-state="open"]')
    return context, page, int(page.url.rstrip("/").split("/")[-1])


CONTRAST = """(selector) => {
  const numbers = (css) => css.match(/[\\d.]+/g).map(Number);
  const linear = (c) => (c /= 255) <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const element = document.querySelector(selector);
  const layers = [];
  for (let node = element; node; node = node.parentElement) {
    const color = numbers(getComputedStyle(node).backgroundColor);
    if (color.length < 4) color.push(1);
    if (color[3] > 0) layers.push(color);
    if (color[3] >= 1) break;
  }
  let below = [0, 0, 0];  // under every layer: the dark page
  for (const [r, g, b, a] of layers.reverse()) {
    below = [r * a + below[0] * (1 - a), g * a + below[1] * (1 - a), b * a + below[2] * (1 - a)];
  }
  const [high, low] = [luminance(numbers(getComputedStyle(element).color)), luminance(below)]
    .sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}"""


def contrast(page, selector: str) -> float:
    """The contrast ratio of an element's text with its backgrounds, translucent ones blended
    (what axe leaves for review)."""
    return page.evaluate(CONTRAST, selector)


def test_the_player_ends_a_game_against_bots_and_lands_home(daphne_server, browser, screenshot_dir):
    base = daphne_server
    context, page, game_id = game_against_bots(browser, base, "quitter", 3)
    confirm = page.get_by_role("button", name="Yes, end it")
    assert not confirm.is_visible()  # a second click, after the first opened it
    page.screenshot(path=screenshot_dir / "end-game-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=screenshot_dir / "end-game-phone.png")

    page.get_by_text("End this game", exact=True).click()
    confirm.wait_for()
    page.screenshot(path=screenshot_dir / "end-game-phone-confirm.png")
    assert contrast(page, "#end-game-confirm") >= 4.5  # failed on main: 1.2, dark on dark red
    confirm.click()
    page.wait_for_url(base + "/")
    page.get_by_text("The game has ended").wait_for()
    game = Game.objects.select_related("lobby").get(pk=game_id)
    assert (game.status, game.voided) == (Game.Status.ABORTED, True)
    assert game.lobby.status == Lobby.Status.FINISHED
    context.close()


def test_the_button_goes_when_the_game_ends_while_the_page_is_open(
    daphne_server, browser, screenshot_dir
):
    """Ended from another tab: the pushed board says so, and the button with nothing left to
    end is gone from this one."""
    context, page, game_id = game_against_bots(browser, daphne_server, "twotabs", 2)
    end = page.get_by_text("End this game", exact=True)
    assert end.is_visible()

    user = User.objects.get(username="twotabs")
    # In a thread of its own, as a request is served: this one runs Playwright's event loop,
    # where the service could not publish after its commit.
    with ThreadPoolExecutor(1) as other_tab:
        other_tab.submit(services.game_abandon, game_id=game_id, user=user).result()
    page.get_by_text("This game was stopped before its end.").wait_for()
    page.screenshot(path=screenshot_dir / "end-game-ended-elsewhere.png")
    assert not end.is_visible()
    context.close()


def turn_her_first_card(page):
    page.locator('#player-0 .cell[data-pos="0"]').click()
    page.wait_for_selector('#player-0 .cell[data-pos="0"]:not([aria-label*="face down"])')


def confirm_it_counts(page, base, game_id, shot):
    """The open confirmation says the game counts; "Yes, end it" ends it as her loss."""
    page.get_by_text("counts as a loss, in last place, in your statistics").wait_for()
    page.screenshot(path=shot)
    page.get_by_role("button", name="Yes, end it").click()
    page.wait_for_url(base + "/")
    page.get_by_text("it counts as a loss, in last place").wait_for()
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.voided, game.resigned) == (Game.Status.ABORTED, False, 0)


def test_after_a_card_of_her_own_ending_it_counts_as_a_loss(daphne_server, browser, screenshot_dir):
    """The page said it would count nowhere; she turns a card, then confirms: she is sent back
    to read that it now counts as a loss, and ending it again does so."""
    context, page, game_id = game_against_bots(browser, daphne_server, "resigner", 1)
    page.get_by_text("End this game", exact=True).click()
    page.get_by_text("You have not played yet").wait_for()
    turn_her_first_card(page)
    page.get_by_role("button", name="Yes, end it").click()
    page.get_by_text("You have played since this page was loaded").wait_for()
    page.get_by_text("End this game", exact=True).click()
    confirm_it_counts(page, daphne_server, game_id, screenshot_dir / "end-game-counts-confirm.png")
    context.close()


def test_opened_after_a_card_of_her_own_the_confirmation_says_it_counts(
    daphne_server, browser, screenshot_dir
):
    """The page was loaded before her first card: opening "End this game" afterwards reads
    what ending does now, and the first "Yes, end it" ends it."""
    context, page, game_id = game_against_bots(browser, daphne_server, "lateender", 1)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()  # heard from its first line
    page.wait_for_selector('#conn[data-state="open"]')
    turn_her_first_card(page)
    page.get_by_text("End this game", exact=True).click()
    shot = screenshot_dir / "end-game-fetched-confirm-phone.png"
    confirm_it_counts(page, daphne_server, game_id, shot)
    assert errors == []
    context.close()
