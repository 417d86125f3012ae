"""A form that saves a player must not put back what another writer stored meanwhile (a rating
at the end of a game, a ban): each writes only its own columns. The other writer commits
between the request's read of the user and its save, as a concurrent request or game would."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import forms as auth_forms
from django.test import Client
from django.urls import reverse

from accounts.models import User
from conftest import PASSWORD
from stats import ratings
from web.accounts import forms

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
        {
            "email": "alice@skyjo.test",
            "current_password": PASSWORD,
            "language": "de",
            "bio": "Hallo",
            "show_online_status": "",
        },
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


# The admin's change form of a user, posted as a browser posts it. ------------------------


class _FormFields(HTMLParser):
    """The values a browser would post for the admin change form as rendered."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self._select = None
        self._textarea = None
        self._in_form = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id", "").endswith("_form"):
            self._in_form = True
        if not self._in_form:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("submit", "button", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.data.setdefault(name, []).append(
                a.get("value", "on" if kind in ("checkbox", "radio") else "")
            )
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select].append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = [""]

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea][0] += data

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            if self._textarea:
                self.data[self._textarea][0] = self.data[self._textarea][0].lstrip("\n")
            self._textarea = None
        elif tag == "form":
            self._in_form = False


def rendered_form(response) -> dict:
    parser = _FormFields()
    parser.feed(response.content.decode())
    return parser.data


@pytest.fixture
def root_client(client, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "x-admin-pw-9")
    client.force_login(root)
    return client


def test_an_admin_edit_keeps_the_settings_the_player_saved_while_the_page_was_open(
    root_client, alice
):
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    data = rendered_form(root_client.get(url))  # the moderator opens alice's page
    assert data["username"] == ["alice"]

    # Meanwhile alice changes her own settings.
    player = Client()
    player.force_login(alice)
    response = player.post(
        reverse("accounts:settings"),
        {
            "email": "new@skyjo.test",
            "current_password": PASSWORD,
            "language": "de",
            "bio": "Hallo",
            "show_online_status": "",
        },
    )
    assert response.status_code == 302

    # The moderator only edits the last name, and saves.
    data["last_name"] = ["Liddell"]
    response = root_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]

    alice.refresh_from_db()
    assert alice.last_name == "Liddell"
    assert (alice.email, alice.language, alice.bio, alice.show_online_status) == (
        "new@skyjo.test",
        "de",
        "Hallo",
        False,
    )


def test_an_admin_edit_keeps_a_log_in_made_while_the_page_was_open(root_client, alice):
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    data = rendered_form(root_client.get(url))
    assert (
        Client().post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )
    alice.refresh_from_db()
    logged_in = alice.last_login
    assert logged_in is not None
    data["last_name"] = ["Liddell"]
    assert root_client.post(url, data).status_code == 302
    alice.refresh_from_db()
    assert alice.last_name == "Liddell"
    assert alice.last_login == logged_in


def test_an_admin_edit_keeps_groups_given_while_the_page_was_open(root_client, alice):
    from core.access import sync_group

    url = reverse("admin:accounts_user_change", args=[alice.pk])
    data = rendered_form(root_client.get(url))
    alice.groups.add(sync_group())  # manage.py moderators --add alice, meanwhile
    data["last_name"] = ["Liddell"]
    assert root_client.post(url, data).status_code == 302
    assert alice.groups.filter(name="Moderators").exists()


def test_an_admin_edit_still_writes_what_the_moderator_changed(root_client, alice, bob):
    url = reverse("admin:accounts_user_change", args=[alice.pk])
    data = rendered_form(root_client.get(url))
    data["email"] = ["changed@skyjo.test"]
    data["is_active"] = []  # unticked
    assert root_client.post(url, data).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "changed@skyjo.test" and not alice.is_active


def test_a_staff_members_own_password_change_in_the_admin_keeps_a_rating_and_a_ban(
    client, alice, bob, monkeypatch
):
    """/admin/password_change/ (skyjo_site.admin_site): Django's own page saves the whole row."""
    from skyjo_site.admin_site import OwnPasswordChangeForm

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    clean = OwnPasswordChangeForm.clean

    def clean_then_others_write(self):
        ratings.rate_finished_game(totals_by_user={alice.pk: 10, bob.pk: 80})
        User.objects.get(pk=alice.pk).ban("cheating")
        return clean(self)

    monkeypatch.setattr(OwnPasswordChangeForm, "clean", clean_then_others_write)
    client.force_login(alice)
    new = "another-horse-43"
    response = client.post(
        reverse("admin:password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    assert_rating_and_ban_kept(alice)
    assert alice.check_password(new)
