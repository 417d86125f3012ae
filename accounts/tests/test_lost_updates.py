"""A form that saves a player must not put back what another writer stored meanwhile (a rating
at the end of a game, a ban): each writes only its own columns. The other writer commits
between the request's read of the user and its save, as a concurrent request or game would."""

import pytest
from django.contrib.auth import forms as auth_forms
from django.urls import reverse

from accounts import forms
from accounts.models import User
from conftest import PASSWORD
from games import ratings

pytestmark = pytest.mark.django_db


@pytest.fixture
def writes_meanwhile(monkeypatch, alice, bob):
    """While a form is being validated (the user already read), alice's rating changes in a
    finished game and a moderator bans her."""

    def meanwhile(form_class):
        clean = form_class.clean

        def clean_then_others_write(self):
            ratings.rate_finished_game(totals_by_user={alice.pk: 10, bob.pk: 80})
            User.objects.get(pk=alice.pk).ban("cheating")
            return clean(self)

        monkeypatch.setattr(form_class, "clean", clean_then_others_write)

    return meanwhile


def assert_rating_and_ban_kept(alice):
    alice.refresh_from_db()
    assert alice.rated_games == 1 and alice.rating_mu > 25.0
    assert alice.is_banned and alice.ban_reason == "cheating" and alice.banned_at is not None


def test_a_settings_save_keeps_a_rating_and_a_ban_written_meanwhile(
    client, alice, writes_meanwhile
):
    writes_meanwhile(forms.SettingsForm)
    client.force_login(alice)
    response = client.post(
        reverse("accounts:settings"),
        {"email": "alice@skyjo.test", "language": "de", "bio": "Hallo", "show_online_status": ""},
    )
    assert response.status_code == 302
    assert_rating_and_ban_kept(alice)
    assert (alice.email, alice.language, alice.bio) == ("alice@skyjo.test", "de", "Hallo")
    assert alice.show_online_status is False


def test_a_password_change_keeps_a_rating_and_a_ban_written_meanwhile(
    client, alice, writes_meanwhile
):
    writes_meanwhile(auth_forms.PasswordChangeForm)
    client.force_login(alice)
    new = "another-horse-43"
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    assert_rating_and_ban_kept(alice)
    assert alice.check_password(new)


def test_a_password_reset_keeps_a_rating_and_a_ban_written_meanwhile(
    client, alice, writes_meanwhile, mailoutbox
):
    writes_meanwhile(auth_forms.SetPasswordForm)
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    link = next(line for line in mailoutbox[0].body.splitlines() if "/accounts/reset/" in line)
    form_url = client.get(link.strip()).url  # the token moves to the session
    new = "another-horse-43"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert_rating_and_ban_kept(alice)
    assert alice.check_password(new)


@pytest.fixture
def moderator_client(client, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "x-admin-pw-9")
    client.force_login(root)
    return client


def test_an_admin_edit_keeps_a_rating_and_a_ban_written_meanwhile(
    moderator_client, alice, writes_meanwhile
):
    writes_meanwhile(auth_forms.UserChangeForm)
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    joined = alice.date_joined
    response = moderator_client.post(
        url,
        {
            "username": "alice",
            "email": "alice@example.com",
            "is_active": "on",
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
            "bio": "Edited by a moderator",
            "show_online_status": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert_rating_and_ban_kept(alice)
    assert alice.bio == "Edited by a moderator"


def test_an_admin_password_change_keeps_a_rating_and_a_ban_written_meanwhile(
    moderator_client, alice, writes_meanwhile
):
    writes_meanwhile(auth_forms.AdminPasswordChangeForm)
    url = reverse("admin:auth_user_password_change", args=[alice.pk])
    new = "another-horse-43"
    response = moderator_client.post(url, {"password1": new, "password2": new})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert_rating_and_ban_kept(alice)
    assert alice.check_password(new)
