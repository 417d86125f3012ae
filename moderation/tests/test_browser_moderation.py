"""In real Chromium against a live Daphne: a third player at the table reports (a chat
message; a player), a moderator acts from the queue (hides the message; stops the game), and
both other players' pages change without a reload. Screenshots of the queue on a desktop and
on a phone, and of a player's file on a phone."""

import pytest
from django.test import Client

from chat import services as chat_services
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


def test_a_reported_message_hidden_from_the_queue_leaves_both_players_pages(
    daphne_server, browser, screenshot_dir, alice, bob, charlie, maud
):
    base = daphne_server
    game = start_game(alice, bob, charlie)
    kind = chat_services.chat_post(user=alice, text="Good luck, all!", game_id=game.pk)
    rude = chat_services.chat_post(user=bob, text="You are all idiots", game_id=game.pk)
    players = [page_of(browser, base, user) for user in (alice, bob)]
    for page in players:
        open_game(page, base, game)
        page.locator(f"#chat-msg-{rude.pk}").wait_for()

    reporter = page_of(browser, base, charlie)
    open_game(reporter, base, game)
    reporter.locator(f"#chat-msg-{rude.pk} .chat-report").click()
    reporter.get_by_label("Insults or harassment").check()
    reporter.get_by_role("button", name="Send the report").click()
    reporter.wait_for_url(f"{base}/games/{game.pk}/")
    reporter.get_by_text("Thank you: your report was received.").wait_for()
    reporter.screenshot(path=screenshot_dir / "moderation-report-received.png", full_page=True)
    report = Report.objects.get()
    assert (report.reporter, report.player, report.message_id) == (charlie, bob, rude.pk)

    queue = page_of(browser, base, maud)
    queue.goto(f"{base}/moderation/")
    card = queue.locator(f"#report-{report.pk}")
    context = card.locator(".mod-chat").first
    context.locator(f"[data-message='{rude.pk}'].mod-msg-reported").wait_for()
    context.locator(f"[data-message='{kind.pk}']").wait_for()
    queue.screenshot(path=screenshot_dir / "moderation-queue-desktop.png", full_page=True)
    phone = page_of(browser, base, maud, viewport=PHONE)
    phone.goto(f"{base}/moderation/")
    phone.screenshot(path=screenshot_dir / "moderation-queue-phone.png", full_page=True)

    card.locator(f"#hide-note-{report.pk}").fill("insult")
    card.get_by_role("button", name="Hide the message").click()
    queue.get_by_text("The message is hidden.").wait_for()
    for page in players:  # gone without a reload; the other message stays
        page.locator(f"#chat-msg-{rude.pk}").wait_for(state="detached")
        assert page.locator(f"#chat-msg-{kind.pk}").is_visible()
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.message_id, entry.report_id) == ("hide_message", rude.pk, report.pk)
    queue.get_by_text("No open reports.").wait_for()


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
    card.get_by_text("Stop the game or close the lobby").click()
    card.locator(f"#stop-reason-{report.pk}").fill("collusion reported")
    card.get_by_role("button", name="Stop the game (voided)").click()
    queue.get_by_text("The game is stopped and voided.").wait_for()
    for page in players:  # without a reload
        page.get_by_text("This game was stopped before its end.").wait_for()
    game.refresh_from_db()
    assert game.voided
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.report_id, entry.reason) == (
        "stop_game",
        report.pk,
        "collusion reported",
    )
    queue.get_by_text("No open reports.").wait_for()
    phone = page_of(browser, base, maud, viewport=PHONE)
    phone.goto(f"{base}/moderation/players/bob/")
    phone.get_by_text("Cheating or playing together against others").wait_for()
    phone.screenshot(path=screenshot_dir / "moderation-player-file-phone.png", full_page=True)
