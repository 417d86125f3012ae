"""The vacation page (games.services.vacation_start and vacation_end): the days left this year,
a vacation started with a form whose errors are shown, ended early; linked from the settings."""

import pytest
from django.urls import reverse

from games.models import Vacation

pytestmark = pytest.mark.django_db

URL = reverse("games:vacation")


def test_the_settings_page_links_to_the_vacation_page(client, alice):
    client.force_login(alice)
    assert f'href="{URL}"' in client.get(reverse("accounts:settings")).content.decode()


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_start_and_end_a_vacation(client, alice, settings):
    settings.SKYJO_VACATION_DAYS = 21
    client.force_login(alice)
    page = client.get(URL).content.decode()
    assert "<strong>21 days</strong> left this year." in page and 'id="vacation-start"' in page
    response = client.post(URL, {"start": "1", "days": "5"}, follow=True)
    page = response.content.decode()
    assert "Your vacation has started" in page and 'id="vacation-now"' in page
    assert "<strong>16 days</strong> left this year." in page
    vacation = Vacation.objects.get(user=alice)
    assert (vacation.ends_at - vacation.starts_at).days == 5
    response = client.post(URL, {"end": "1"}, follow=True)
    assert "Your vacation is over" in response.content.decode()
    planned = vacation.ends_at
    vacation.refresh_from_db()
    assert vacation.ends_at < planned  # ended early
    assert 'id="vacation-start"' in client.get(URL).content.decode()  # another may begin


@pytest.mark.parametrize(
    ("days", "error"),
    [
        ("", "Say how many days your vacation lasts."),
        ("two", "The number of days is a whole number."),
        ("0", "A vacation lasts at least one day."),
        ("30", "A vacation lasts from 1 to 21 days: the days you have left this year."),
    ],
)
def test_a_bad_number_of_days_is_shown_on_the_form_and_starts_nothing(
    client, alice, settings, days, error
):
    settings.SKYJO_VACATION_DAYS = 21
    client.force_login(alice)
    response = client.post(URL, {"start": "1", "days": days})
    page = response.content.decode()
    assert response.status_code == 400
    assert error in page and 'class="field-error"' in page
    assert not Vacation.objects.exists()


def test_ending_without_a_vacation_says_so(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"end": "1"}, follow=True)
    assert "You are not on vacation." in response.content.decode()


def test_a_second_vacation_while_one_runs_is_refused_on_the_page(client, alice, settings):
    """Failed on main: the page showed the running vacation and said nothing of the refusal
    (a start sent from a page opened before the first one began)."""
    settings.SKYJO_VACATION_DAYS = 21
    client.force_login(alice)
    client.post(URL, {"start": "1", "days": "3"})
    response = client.post(URL, {"start": "1", "days": "5"})
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="vacation-refused"' in page and "You are on vacation already." in page
    assert Vacation.objects.count() == 1
