import re

import pytest
from django.test import Client
from django.urls import reverse

from conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "purple-otter-77"


def test_password_change_needs_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    # Still logged in (Django keeps the session valid).
    assert client.get(reverse("accounts:settings")).status_code == 200


def test_it_refuses_a_wrong_old_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert b"Your old password was entered incorrectly" in response.content


def test_it_refuses_a_weak_new_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "123", "new_password2": "123"},
    )
    assert response.status_code == 200
    assert b"This password is too short." in response.content


def test_it_resets_a_forgotten_password_by_email(client, alice, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["alice@example.com"]
    assert mail.subject == "Reset your Skyjo Online password"
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.body).group(1)

    response = client.get(link)
    assert response.status_code == 302  # to the same page with the token in the session
    form_url = response.url
    response = client.get(form_url)
    assert b"Choose a new password" in response.content
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    # The link works only once.
    response = client.get(form_url)
    assert b"This link no longer works" in response.content


def test_reset_for_an_unknown_address_sends_nothing(client, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mailoutbox == []


def test_reset_emails_to_one_address_are_few_whoever_asks(alice, mailoutbox, settings):
    """SKYJO_RATELIMIT_WRITE alone let one address send 60 reset e-mails a minute to one
    inbox; from many addresses, any number."""
    settings.SKYJO_RATELIMIT_RESET_EMAIL = "3/h"
    answers = []
    for n in range(5):
        client = Client(REMOTE_ADDR=f"203.0.113.{n}")
        response = client.post(reverse("password_reset"), {"email": " Alice@Example.com "})
        answers.append(response.status_code)
    assert answers == [302, 302, 302, 429, 429]
    assert len(mailoutbox) == 3


def test_the_reset_limit_answers_a_known_and_an_unknown_address_alike(client, alice, settings):
    settings.SKYJO_RATELIMIT_RESET_EMAIL = "1/h"
    for email in ("alice@example.com", "nobody@example.com"):
        first = client.post(reverse("password_reset"), {"email": email})
        second = client.post(reverse("password_reset"), {"email": email})
        assert (first.status_code, second.status_code) == (302, 429)


def test_one_address_asks_for_few_resets(client, mailoutbox, settings):
    settings.SKYJO_RATELIMIT_RESET = "2/h"
    answers = [
        client.post(reverse("password_reset"), {"email": f"n{n}@example.com"}).status_code
        for n in range(3)
    ]
    assert answers == [302, 302, 429]


def test_a_session_cannot_guess_the_old_password_at_length(client, alice, settings):
    """The change form checks the old password: at the site's 60 POSTs a minute a session left
    open could try 86,400 a day, and keep the account with the one that works."""
    settings.SKYJO_RATELIMIT_PASSWORD = "3/h"
    client.force_login(alice)
    url = reverse("password_change")
    guesses = [f"guess-{n}" for n in range(3)] + [PASSWORD]
    answers = [
        client.post(
            url,
            {"old_password": guess, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        ).status_code
        for guess in guesses
    ]
    assert answers == [200, 200, 200, 429]
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
