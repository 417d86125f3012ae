"""In real Chromium against a live Daphne: the analysis of a finished game, made by the live
server's own bot runner, on the game-over screen and in the replay (labels, the best move's
card, jumping to one's own mistakes), desktop and phone, with axe-core audits."""

import random
import secrets

import pytest

from analysis.models import GameAnalysis
from conftest import PASSWORD
from games.tests.e2e.test_browser_a11y import audit
from games.tests.e2e.test_browser_replay import caption_step, logged_in_context
from games.tests.helpers import play_to_end, start_game

pytestmark = pytest.mark.e2e


def test_the_analysis_of_a_finished_game(daphne_server, browser, screenshot_dir, django_user_model):
    base = daphne_server
    game, users = finished_game(django_user_model)
    context = logged_in_context(browser, base, users[0], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)

    # The game-over screen fetches the summary ("being prepared" and polled until it is there):
    # the live server's own bot runner analyses the finished game in the background.
    page.goto(f"{base}/games/{game.pk}/")
    you = page.locator("#analysis-you")
    you.wait_for(timeout=30_000)
    data = GameAnalysis.objects.get(game=game).data
    mine = [d for d in data["decisions"] if d["seat"] == 0 and d["label"]]
    assert you.inner_text().startswith("You lost ")
    page.locator("#analysis-summary").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "analysis-game-over.png", full_page=False)
    problems = audit(page, "analysis-game-over")

    # The replay: labels in the move list, then jump to my first and second mistakes.
    page.goto(f"{base}/games/{game.pk}/replay/")
    labelled = sum(1 for d in data["decisions"] if d["label"])
    assert page.locator(
        ".move .ann-inaccuracy, .move .ann-mistake, .move .ann-blunder"
    ).count() == (labelled)
    page.locator("#mistake-next").click()
    page.wait_for_url(f"**/replay/?step={mine[0]['step']}")
    assert caption_step(page) == mine[0]["step"]
    note = page.locator("#analysis-note")
    assert "points lost" in note.inner_text() and "Best:" in note.inner_text()
    page.locator("#mistake-next").click()
    page.wait_for_url(f"**/replay/?step={mine[1]['step']}")
    page.screenshot(path=screenshot_dir / "analysis-replay.png", full_page=False)
    problems += audit(page, "analysis-replay")
    page.locator("#mistake-prev").click()
    page.wait_for_url(f"**/replay/?step={mine[0]['step']}")

    # A mistake whose best move is a card of the grid: that card is outlined on the board.
    placed = next(d for d in mine if "swap" in d["best"] or "flip" in d["best"])
    pos = placed["best"].get("swap", placed["best"].get("flip"))
    page.goto(f"{base}/games/{game.pk}/replay/?step={placed['step']}")
    best = page.locator("#board .cell.is-best")
    assert best.count() == 1
    assert best.get_attribute("data-seat") == "0" and best.get_attribute("data-pos") == str(pos)
    assert (
        f"row {pos // 4 + 1}, column {pos % 4 + 1}" in page.locator("#analysis-note").inner_text()
    )
    page.locator("#analysis-note").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "analysis-replay-best.png", full_page=False)
    context.close()

    phone = logged_in_context(
        browser, base, users[0], viewport={"width": 390, "height": 844}, is_mobile=True
    )
    page = phone.new_page()
    page.goto(f"{base}/games/{game.pk}/replay/?step={mine[1]['step']}")
    page.locator("#analysis-summary").wait_for()
    page.screenshot(path=screenshot_dir / "analysis-replay-phone.png", full_page=False)
    page.locator("#analysis-note").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "analysis-replay-phone-note.png", full_page=False)
    problems += audit(page, "analysis-replay-phone")
    phone.close()
    assert problems == []


def finished_game(django_user_model):
    """A finished game of alice and bob, the same every run (random legal moves: plenty of
    mistakes to label)."""
    users = [
        django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)
        for name in ("alice", "bob")
    ]
    original = secrets.randbits
    secrets.randbits = random.Random(4).getrandbits
    try:
        game = start_game(*users, end_score=100)
        play_to_end(game, users, seed=1)
    finally:
        secrets.randbits = original
    return game, users


def analysed_game(django_user_model):
    """finished_game, analysed."""
    from analysis.services import analysis_compute

    game, users = finished_game(django_user_model)
    analysis_compute(game_id=game.pk)
    return game, users


def test_the_game_over_summary_stays_when_the_socket_sends_the_board(
    daphne_server, browser, django_user_model
):
    """The socket's first frame brings the board again, the summary's slot with it: the summary
    on screen stays (fetched once), not blanked and fetched anew for that frame and every later
    one."""
    game, users = analysed_game(django_user_model)
    context = logged_in_context(browser, daphne_server, users[0])
    page = context.new_page()
    page.set_default_timeout(15_000)
    summary_url = f"/games/{game.pk}/analysis/"
    fetches = []
    page.on("request", lambda r: fetches.append(r.url) if r.url.endswith(summary_url) else None)
    page.add_init_script(
        """document.addEventListener("htmx:wsAfterMessage", e => {
             if (e.detail.message.includes('id="board"')) window.boardFrames = (window.boardFrames || 0) + 1;
           });"""
    )
    page.goto(f"{daphne_server}/games/{game.pk}/")
    page.locator("#analysis-summary").wait_for()
    page.evaluate("document.getElementById('analysis-summary').dataset.first = '1'")
    page.wait_for_function("() => window.boardFrames >= 1")  # a function: no eval (CSP)
    page.wait_for_load_state("networkidle")
    assert page.locator("#analysis-summary").get_attribute("data-first") == "1"
    assert len(fetches) == 1
    context.close()


def analysed_game_page(browser, base, django_user_model, page_path: str):
    """Alice's browser on a page of her analysed game: ``/games/<id>/`` + ``page_path``."""
    game, users = analysed_game(django_user_model)
    context = logged_in_context(browser, base, users[0], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/games/{game.pk}/{page_path}")
    return context, page


def test_the_replays_labelled_move_list_ends_with_the_page(
    daphne_server, browser, django_user_model
):
    """The move list scrolls in its own box: its labels' hidden words (for screen readers) stay
    inside it too, and leave no empty screens below the footer."""
    context, page = analysed_game_page(browser, daphne_server, django_user_model, "replay/")
    assert page.locator(".move .ann-sr").count() > 10
    page_end, footer_end = page.evaluate(
        """() => [document.documentElement.scrollHeight,
                 document.querySelector(".site-footer").getBoundingClientRect().bottom + scrollY]"""
    )
    assert page_end <= footer_end + 1
    context.close()


def test_the_summarys_figures_stand_under_their_headings(daphne_server, browser, django_user_model):
    """Numbers are right-aligned in their columns: so are their headings, or "Points lost"
    reads over empty space and its figure stands nearer the next heading."""
    context, page = analysed_game_page(browser, daphne_server, django_user_model, "")
    page.locator("#analysis-summary").wait_for(timeout=30_000)
    # Each column's heading and figures: the same alignment, and their text ends together.
    columns = page.evaluate(
        """() => {
          const end = e => { const r = document.createRange(); r.selectNodeContents(e);
                             return Math.round(r.getBoundingClientRect().right); };
          const heads = [...document.querySelectorAll(".analysis-table thead th")];
          const cells = [...document.querySelector(".analysis-table tbody tr").children];
          return cells.filter(c => c.classList.contains("num")).map(c => {
            const head = heads[cells.indexOf(c)];
            return [head.innerText, getComputedStyle(head).textAlign, end(head) - end(c)];
          });
        }"""
    )
    assert len(columns) == 5
    assert [(name, align, gap) for name, align, gap in columns if align != "right" or gap] == []
    context.close()
