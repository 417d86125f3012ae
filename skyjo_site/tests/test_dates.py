"""Dates and times: one format (core.when), in the reader's language and time zone (the
``skyjo_tz`` cookie page.js sets), the zone named."""

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from accounts.tests.test_login import login
from core.when import day, when, zone_named
from moderation import services as moderation

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 12, 4, 6, 7, tzinfo=UTC)


def test_a_moment_is_written_in_the_active_zone_and_language_with_the_zone_named():
    with translation.override("en"), timezone.override(zone_named("Europe/Oslo")):
        assert when(MOMENT) == "4 Dec 2026 07:07 CET"
        assert day(MOMENT) == "4 Dec 2026"
    with translation.override("de"), timezone.override(zone_named("America/New_York")):
        assert when(MOMENT) == "4. Dez. 2026 01:07 EST"  # failed on main: "4 Dez 2026"
    for language, written in (("nb", "4. des. 2026"), ("sv", "4 dec 2026"), ("fr", "4 déc. 2026")):
        with translation.override(language), timezone.override(zone_named("Europe/Oslo")):
            assert day(MOMENT) == written


@pytest.mark.parametrize("name", ["", "Mars/Olympus", "../etc/passwd", "x" * 100, None])
def test_an_unknown_zone_is_ignored(name):
    assert zone_named(name) is None


def test_the_log_in_page_gives_a_bans_end_in_the_players_zone(client, alice, settings):
    alice.ban("cheating", until=MOMENT.replace(year=2099))
    client.cookies["skyjo_tz"] = "Asia/Tokyo"
    page = login(client).content.decode()
    assert "This account is banned until 4 Dec 2099 15:07 JST: cheating" in page


def test_the_moderation_log_uses_the_same_words(client, alice, moderator):
    until = MOMENT.replace(year=2099)
    moderation.player_ban(moderator=moderator, user_id=alice.pk, reason="spam", until=until)
    client.force_login(moderator)
    client.cookies["skyjo_tz"] = "Asia/Tokyo"
    page = client.get(reverse("moderation:log")).content.decode()
    assert 'until <time datetime="2099-12-04T06:07:00+00:00">4 Dec 2099 15:07 JST</time>' in page


def test_a_players_zone_is_remembered_once_for_the_e_mails(client, alice):
    client.force_login(alice)
    client.cookies["skyjo_tz"] = "Asia/Tokyo"
    client.get(reverse("home"))
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Tokyo"
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("home"))
    assert not [q for q in queries if q["sql"].startswith("UPDATE") and "time_zone" in q["sql"]]
    client.cookies["skyjo_tz"] = "Mars/Olympus"  # unknown: the page in the site's zone, kept
    client.get(reverse("home"))
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Tokyo"
