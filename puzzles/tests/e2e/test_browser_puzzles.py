"""In real Chromium on a phone (390×844) against a live Daphne: the puzzle of the day from the
home page, answered with the keyboard, its answer, the next puzzle (a drawn card to place) and
streak mode. No page scrolls sideways. Screenshots: test-artifacts/screenshots/puzzle-*.png."""

import re

import pytest

from games.tests.e2e.test_browser_phones import OVERFLOW
from games.tests.e2e.test_browser_replay import logged_in_context
from puzzles.tests.factories import make_puzzle

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def test_a_player_solves_puzzles_on_a_phone(daphne_server, browser, screenshot_dir, alice):
    base = daphne_server
    first = make_puzzle(seed=1)
    second = make_puzzle(seed=2, drawing=True, rating=24.0)
    page = logged_in_context(browser, base, alice, viewport=PHONE).new_page()
    page.set_default_timeout(20_000)
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    page.goto(f"{base}/")
    daily = page.locator("#puzzle-of-the-day")
    daily.scroll_into_view_if_needed()
    assert page.evaluate(OVERFLOW) == []
    daily.screenshot(path=screenshot_dir / "puzzle-home.png")
    daily.get_by_role("link").click()
    page.wait_for_url(re.compile(r"/puzzles/\d+/$"))
    shown = int(page.locator("#puzzle").get_attribute("data-puzzle"))
    puzzle = first if shown == first.pk else second
    assert page.evaluate(OVERFLOW) == []
    page.screenshot(path=screenshot_dir / "puzzle-question.png", full_page=True)

    # the keyboard: the answer's button takes the focus and Enter sends it
    answer = page.locator(f"#option-{puzzle.answer}")
    assert answer.get_attribute("aria-label")
    answer.focus()
    page.keyboard.press("Enter")
    page.locator("#puzzle-result").wait_for()
    assert page.locator("#result-title").inner_text() == "Solved!"
    page.screenshot(path=screenshot_dir / "puzzle-answer-top.png")  # opened at the result
    assert page.locator("#puzzle-options tbody tr").count() == len(puzzle.options)
    assert page.evaluate(OVERFLOW) == []
    page.screenshot(path=screenshot_dir / "puzzle-answer.png", full_page=True)

    # the next one, in streak mode: the other puzzle, missed, ends the streak at 0
    page.locator("#streak-mode").click()
    page.wait_for_url(re.compile(r"/puzzles/\d+/\?mode=streak$"))
    other = second if puzzle == first else first
    assert int(page.locator("#puzzle").get_attribute("data-puzzle")) == other.pk
    assert page.locator("#streak").inner_text() == "Streak 0"
    assert page.evaluate(OVERFLOW) == []
    page.screenshot(path=screenshot_dir / "puzzle-streak.png", full_page=True)
    wrong = next(o["code"] for o in other.options if o["code"] != other.answer)
    page.locator(f"#option-{wrong}").click()
    page.locator("#puzzle-result").wait_for()
    assert page.locator("#result-title").inner_text() == "Not the best move."
    assert page.get_by_role("link", name="Start a new streak").is_visible()
    assert problems == []
