"""The e-mail settings page and the unsubscribe link: bad input gets a clear error and
changes nothing."""

from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from notifications import services, tokens
from notifications.errors import InvalidPreference
from notifications.models import Preference

pytestmark = pytest.mark.django_db
SETTINGS = "/notifications/settings/"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _link(user, kind="turn", generation=0) -> str:
    token = tokens.make(user_id=user.pk, kind=kind, generation=generation)
    return reverse("notifications:unsubscribe", args=[token])


def test_the_settings_page_shows_the_defaults_and_saves(alice):
    client = _client(alice)
    page = client.get(SETTINGS)
    assert page.status_code == 200
    assert page.context["form"].initial == {
        "turn_email": True,
        "reminder_email": True,
        "digest": False,
        "quiet_minutes": 60,
    }
    answer = client.post(SETTINGS, {"reminder_email": "on", "digest": "on", "quiet_minutes": "30"})
    assert answer.status_code == 302
    pref = Preference.objects.get(user=alice)
    assert (pref.turn_email, pref.reminder_email, pref.digest, pref.quiet_minutes) == (
        False,
        True,
        True,
        30,
    )


def test_the_settings_page_names_the_zone_of_the_deadlines(alice):
    client = _client(alice)
    page = client.get(SETTINGS).content.decode()
    assert "written in the site's time zone, UTC." in page
    client.cookies["skyjo_tz"] = "Europe/Oslo"
    page = client.get(SETTINGS).content.decode()
    assert "written in your time zone, Europe/Oslo (this browser's)." in page


@pytest.mark.parametrize("quiet", ["-5", "1441", "abc", "", "2.5"])
def test_a_bad_quiet_time_is_refused_and_nothing_saved(alice, quiet):
    answer = _client(alice).post(SETTINGS, {"turn_email": "on", "quiet_minutes": quiet})
    assert answer.status_code == 400
    assert answer.context["form"].errors["quiet_minutes"]
    assert not Preference.objects.exists()


def test_the_settings_page_needs_a_log_in():
    answer = Client().get(SETTINGS)
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_the_account_settings_link_to_the_e_mail_settings(alice):
    page = _client(alice).get(reverse("accounts:settings"))
    assert SETTINGS in page.content.decode()


def test_a_get_of_the_link_only_asks(alice):
    link = _link(alice)
    page = Client().get(link)
    assert page.status_code == 200
    assert 'id="unsubscribe-confirm"' in page.content.decode()
    assert not Preference.objects.exists()


def test_the_button_unsubscribes_once(alice):
    link = _link(alice)
    client = Client(enforce_csrf_checks=True)  # a mail client's one-click POST has no token
    answer = client.post(link, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and 'id="unsubscribe-done"' in answer.content.decode()
    pref = Preference.objects.get(user=alice)
    assert (pref.turn_email, pref.reminder_email, pref.token_generation) == (False, True, 1)
    pref.turn_email = True
    pref.save()
    again = client.post(link)
    assert again.status_code == 400
    assert "already used" in again.content.decode()
    assert Preference.objects.get(user=alice).turn_email is True
    assert Client().get(link).status_code == 400


@pytest.mark.parametrize(
    ("kind", "off"),
    [("reminder", {"reminder_email": False}), ("digest", {"digest": False, "turn_email": False})],
)
def test_each_kind_of_link_turns_its_kind_off(alice, kind, off):
    Preference.objects.create(user=alice, digest=True, token_generation=3)
    assert Client().post(_link(alice, kind, 3)).status_code == 200
    pref = Preference.objects.get(user=alice)
    assert {name: getattr(pref, name) for name in off} == off
    assert pref.token_generation == 4


def test_a_forged_link_changes_nothing(alice, bob):
    token = tokens.make(user_id=alice.pk, kind="turn", generation=0)
    payload, rest = token.split(":", 1)
    forged = signing.dumps({"u": bob.pk, "k": "turn", "g": 0}, salt="another salt")
    for bad in (forged, payload + ":x" + rest, "nonsense"):
        link = reverse("notifications:unsubscribe", args=[bad])
        for method in (Client().get, Client().post):
            answer = method(link)
            assert answer.status_code == 400
            assert "not valid" in answer.content.decode()
    assert not Preference.objects.exists()


def test_an_expired_link_changes_nothing(alice, monkeypatch):
    link = _link(alice)
    monkeypatch.setattr(tokens, "MAX_AGE", timedelta(seconds=-1))
    answer = Client().post(link)
    assert answer.status_code == 400 and "expired" in answer.content.decode()
    assert not Preference.objects.exists()


def test_a_link_of_a_deleted_account_changes_nothing(alice):
    link = _link(alice)
    alice.delete()
    assert Client().post(link).status_code == 400
    assert not Preference.objects.exists()


@pytest.mark.parametrize("quiet", [-1, 1441, "30", 2.0, None])
def test_the_service_refuses_a_bad_quiet_time(alice, quiet):
    with pytest.raises(InvalidPreference) as refused:
        services.preference_update(
            user=alice, turn_email=True, reminder_email=True, digest=False, quiet_minutes=quiet
        )
    assert refused.value.message == "The quiet time is from 0 to 1440 minutes."
    assert not Preference.objects.exists()
