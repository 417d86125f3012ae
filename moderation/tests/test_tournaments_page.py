"""The moderators' tournaments page (/moderation/tournaments/): the public tournaments ahead
and the form that schedules one, once or repeating, through tournament_create."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

URL = "/moderation/tournaments/"


def _card(page: str, tournament: Tournament) -> str:
    """The listed card of ``tournament`` on ``page``."""
    start = page.index(f'data-tournament="{tournament.pk}"')
    return page[start : page.index("</li>", start)]


def _form(**options):
    data = {
        "name": "Sunday arena",
        "kind": "arena",
        "starts_at": (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
        "duration": "60",
        "rounds": "5",
        "table_min": "2",
        "table_max": "4",
        "max_players": "100",
        "turn_clock": "30",
        "end_score": "100",
        "rated": "on",
        "bots": "0",
        "bot_level": "medium",
        "repeat": "weekly",
    }
    data.update(options)
    return data


def test_a_moderator_schedules_a_repeating_public_tournament_there(client, moderator, bob):
    assert reverse("moderation:tournaments") == URL
    client.force_login(moderator)
    page = client.get(URL).content.decode()
    assert 'id="schedule-tournament"' in page and 'name="repeat"' in page
    assert 'name="is_public"' not in page  # always public here
    answer = client.post(URL, _form(), follow=True)
    made = Tournament.objects.get()
    assert made.is_public and made.repeat == "weekly" and made.created_by == moderator
    assert answer.redirect_chain[-1][0] == URL
    page = answer.content.decode()
    assert "The tournament is scheduled." in page
    card = _card(page, made)  # listed with its repeat
    assert "Sunday arena" in card and "Weekly" in card
    assert reverse("tournaments:detail", args=[made.pk]) in card
    client.force_login(bob)  # public: every player sees it
    assert "Sunday arena" in client.get(reverse("tournaments:list")).content.decode()


def test_it_lists_the_public_tournaments_running_and_upcoming_only(client, moderator, alice):
    now = timezone.now()
    blitz = tournament_create(
        by=moderator, name="Hourly blitz", kind="arena", starts_at=now + timedelta(hours=1),
        duration=30, is_public=True, repeat="hourly",
    )  # fmt: skip
    live, done = (
        tournament_create(
            by=moderator, name=name, kind="swiss", starts_at=now, rounds=3, is_public=True
        )
        for name in ("Swiss now", "Swiss over")
    )
    Tournament.objects.filter(pk=live.pk).update(status=Tournament.Status.RUNNING)
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    tournament_create(by=alice, name="Secret club", kind="arena", starts_at=now, duration=30)
    client.force_login(moderator)
    page = client.get(URL).content.decode()
    assert "Hourly blitz" in _card(page, blitz) and " · Hourly" in _card(page, blitz)
    assert "Swiss now" in _card(page, live)
    assert page.index("Swiss now") < page.index("Hourly blitz")  # running, then upcoming
    assert "Swiss over" not in page  # over
    assert "Secret club" not in page  # private: not scheduled by moderators


def test_a_player_who_is_not_a_moderator_is_refused(client, alice):
    client.force_login(alice)
    assert client.get(URL).status_code == 403
    assert client.post(URL, _form()).status_code == 403
    client.logout()
    assert client.post(URL, _form()).status_code in (302, 403)
    assert not Tournament.objects.exists()


def test_a_start_in_the_past_is_answered_on_the_page_and_makes_nothing(client, moderator):
    client.force_login(moderator)
    past = (timezone.now() - timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M")
    answer = client.post(URL, _form(starts_at=past))
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'class="form-errors"' in page and "The start must not be in the past." in page
    assert 'id="schedule-tournament"' in page and 'value="Sunday arena"' in page  # kept
    answer = client.post(URL, _form(repeat="monthly"))
    assert answer.status_code == 200 and "monthly" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_moderation_nav_leads_there(client, moderator):
    client.force_login(moderator)
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert f'href="{URL}"' in queue
    mine = client.get(URL).content.decode()
    assert f'href="{URL}" aria-current="page"' in mine
