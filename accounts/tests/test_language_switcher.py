"""The language switcher in every page's footer: a visitor's choice is a cookie, a player's
is also their own setting."""

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/players/", "/rules/", "/accounts/login/"])
def test_every_page_has_the_switcher(client, url):
    page = client.get(url).content.decode()
    assert f'action="{reverse("accounts:language")}"' in page
    for code, _name in settings.LANGUAGES:
        assert f'value="{code}"' in page


def test_a_visitor_switches_with_a_cookie_and_the_page_reloads(client):
    response = client.post(reverse("accounts:language"), {"language": "de"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["HX-Refresh"] == "true"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert 'lang="de"' in client.get("/rules/").content.decode()


def test_without_htmx_it_goes_back_where_it_was(client):
    response = client.post(reverse("accounts:language"), {"language": "nl", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"


def test_a_player_keeps_the_language_in_their_account(client, alice):
    client.force_login(alice)
    client.post(reverse("accounts:language"), {"language": "fr", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "fr"
    client.cookies.clear()  # another browser: the account's choice still holds
    client.force_login(alice)
    assert 'lang="fr"' in client.get("/").content.decode()


def test_an_unknown_language_changes_nothing(client, alice):
    client.force_login(alice)
    client.post(reverse("accounts:language"), {"language": "xx", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == ""
