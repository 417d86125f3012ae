"""In real Chromium against a live Daphne: a third player at the table reports, a moderator
acts from the queue, and both other players' pages change without a reload. Screenshots of
the queue on a desktop and on a phone."""

import pytest
from django.test import Client

from games.tests.helpers import start_game
from moderation.models import AuditEntry, Report

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def page_of(browser, base, user, viewport=DESKTOP):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def open_game(page, base, game):
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector('#conn[data-state="open"]')


def test_a_report_from_the_table_and_the_moderator_stops_the_game(
    daphne_server, browser, screenshot_dir, alice, bob, charlie, maud
):
    base = daphne_server
    game = start_game(alice, bob, charlie)
    players = [page_of(browser, base, user) for user in (alice, bob)]
    for page in players:
        open_game(page, base, game)

    reporter = page_of(browser, base, charlie)
    open_game(reporter, base, game)
    reporter.locator("#report-game").click()
    reporter.get_by_label("The player bob").check()
    reporter.get_by_label("Cheating or playing together against others").check()
    reporter.get_by_label("Tell the moderators more (optional)").fill("bob and alice share cards")
    reporter.get_by_role("button", name="Send the report").click()
    reporter.wait_for_url(f"{base}/games/{game.pk}/")
    reporter.get_by_text("Thank you: your report was received.").wait_for()
    report = Report.objects.get()
    assert (report.reporter, report.player, report.game_id) == (charlie, bob, game.pk)

    queue = page_of(browser, base, maud)
    queue.goto(f"{base}/moderation/")
    card = queue.locator(f"#report-{report.pk}")
    card.get_by_text("bob and alice share cards").wait_for()
    queue.screenshot(path=screenshot_dir / "moderation-queue-desktop.png", full_page=True)
    phone = page_of(browser, base, maud, viewport=PHONE)
    phone.goto(f"{base}/moderation/")
    phone.screenshot(path=screenshot_dir / "moderation-queue-phone.png", full_page=True)

    card.locator(f"#stop-reason-{report.pk}").fill("collusion reported")
    card.get_by_role("button", name="Stop the game (voided)").click()
    queue.get_by_text("The game is stopped and voided.").wait_for()
    for page in players:  # without a reload
        page.get_by_text("This game was stopped by a moderator.").wait_for()
    game.refresh_from_db()
    assert game.voided
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.report_id, entry.reason) == (
        "stop_game",
        report.pk,
        "collusion reported",
    )
    queue.get_by_text("No open reports.").wait_for()
    phone.goto(f"{base}/moderation/players/bob/")
    phone.get_by_text("Cheating or playing together against others").wait_for()
    phone.screenshot(path=screenshot_dir / "moderation-player-file-phone.png", full_page=True)
