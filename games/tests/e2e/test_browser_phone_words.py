"""In real Chromium on phones (360 and 390 px) against a live Daphne: short words stay whole.
A name such as "chloe" or a header such as "Gemeinsame Partien" must never be cut in the middle
of a word where the page has room for it ("Geg|ner", "chloe|e"), and the host's "Empty seat"
beside the bot menu must stay readable. Screenshots: test-artifacts/screenshots/words-*.png."""

import pytest

from conftest import PASSWORD
from games import publish, services
from games.tests.e2e.test_browser_phones import finish_quickly
from games.tests.e2e.test_browser_replay import logged_in_context
from games.tests.helpers import start_game
from stats.tests.factories import finished_game

pytestmark = pytest.mark.e2e

PHONES = ({"width": 360, "height": 740}, {"width": 390, "height": 844})
LANGUAGES = ("en", "de", "fr", "nb", "nl", "sv")

# The words of ``selector``'s text that the page draws on more than one line.
SPLIT_WORDS = """selector => {
  const split = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(match[0]);
      }
    }
  }
  return split;
}"""

# Whether the first ``selector`` scrolls sideways (its content wider than its box).
SCROLLS = "s => { const e = document.querySelector(s); return e.scrollWidth > e.clientWidth; }"

# The empty seats whose label is squeezed under its text or under the bot menu beside it.
SQUEEZED_SEATS = """() => [...document.querySelectorAll("li.seat-empty")].filter(seat => {
  const name = seat.querySelector(".seat-name").getBoundingClientRect();
  const menu = seat.querySelector(".add-bot").getBoundingClientRect();
  const text = seat.querySelector(".seat-name").scrollWidth;
  const overlaps = name.right > menu.left + 1 && name.bottom > menu.top + 1
    && menu.bottom > name.top + 1;
  return text > name.width + 1 || overlaps;
}).map(seat => seat.dataset.seat)"""


def phone_pages(browser, base, someone):
    """``(language-width, page)`` for each language of ``someone`` and each phone, a new
    context each (closed after its turn)."""
    for language in LANGUAGES:
        someone.language = language
        someone.save(update_fields=["language"])
        for phone in PHONES:
            context = logged_in_context(browser, base, someone, viewport=phone)
            page = context.new_page()
            page.set_default_timeout(15_000)
            yield f"{language}-{phone['width']}", page
            context.close()


def user(django_user_model, name):
    return django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)


def test_names_and_headers_of_the_tables_are_never_cut_mid_word_on_a_phone(
    daphne_server, browser, screenshot_dir, django_user_model, monkeypatch
):
    """Failed on main: the favourite opponents read "Geg|ner", "Gemeinsam|e Partien", "bert|e",
    the game-over analysis "chloe|e" and the scores' badge "avslutt|er" on a phone, where every
    word fits whole."""
    monkeypatch.setattr(publish, "_send", lambda group, message: None)
    from analysis.services import analysis_compute

    anne, berte, chloee, dage = (
        user(django_user_model, n) for n in ("anne", "berte", "chloee", "dage")
    )
    finished_game(
        [anne, berte, chloee, dage],
        [[(10, 10, True, 0), (20, 20, False, 0), (30, 30, False, 0), (40, 40, False, 0)]],
    )
    game = start_game(chloee, anne, end_score=1)
    finish_quickly(game, [chloee, anne])
    analysis_compute(game_id=game.pk)
    # A round just over at a table of four: the scores' table, its ender marked.
    four = [dage, anne, berte, chloee]
    round_over = start_game(*four, end_score=1000)
    finish_quickly(round_over, four, round_only=True)
    split = {}
    for where, page in phone_pages(browser, daphne_server, anne):
        page.goto(f"{daphne_server}/u/anne/")
        table = page.locator(".stats-table").last
        table.screenshot(path=screenshot_dir / f"words-opponents-{where}.png")
        if found := page.evaluate(SPLIT_WORDS, ".stats-table th, .stats-table td"):
            split[f"profile {where}"] = found
        page.goto(f"{daphne_server}/games/{game.pk}/")
        page.locator(".analysis-table").wait_for()
        if found := page.evaluate(SPLIT_WORDS, ".analysis-table th, .analysis-table td"):
            split[f"analysis {where}"] = found
        page.goto(f"{daphne_server}/games/{round_over.pk}/")
        page.locator("[ws-connect][data-synced]").wait_for()
        page.locator(".table-scroll").first.screenshot(
            path=screenshot_dir / f"words-round-over-{where}.png"
        )
        if found := page.evaluate(SPLIT_WORDS, ".score-table th, .score-table td"):
            split[f"round over {where}"] = found
        # ... and whole: the sum does not scroll out of sight.
        if page.evaluate(SCROLLS, ".table-scroll"):
            split[f"round over {where}"] = ["the table scrolls"]
    assert split == {}


def test_the_hosts_empty_seats_stay_readable_beside_the_bot_menu_on_a_phone(
    daphne_server, browser, screenshot_dir, django_user_model
):
    """Failed on main: "Empty seat" was squeezed to a sliver under the bot menu beside it."""
    host = user(django_user_model, "hostess")
    lobby = services.lobby_create(host=host, name="Open table", seat_count=8)
    squeezed = {}
    for where, page in phone_pages(browser, daphne_server, host):
        page.goto(f"{daphne_server}/lobbies/{lobby.pk}/")
        page.locator("#lobby-panel[data-synced]").wait_for()
        page.locator("#lobby-seats").screenshot(path=screenshot_dir / f"words-seats-{where}.png")
        if found := page.evaluate(SQUEEZED_SEATS) + page.evaluate(SPLIT_WORDS, ".seat-name"):
            squeezed[where] = found
    assert squeezed == {}
