"""With DEBUG off every error is the site's own page, in the visitor's language: an address
that matches no pattern, one whose id fails its converter, a view's 404, a 403, a 400, a 500."""

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import Client
from django.urls import path

from skyjo_site import urls as site_urls

pytestmark = pytest.mark.django_db

NOT_FOUND = ["/lobbies/abc/", "/games/abc/", "/games/99999999999999999999/", "/nonexistent/"]


@pytest.fixture(autouse=True)
def production(settings):
    settings.DEBUG = False


@pytest.mark.parametrize("url", NOT_FOUND)
def test_an_address_that_is_no_page_is_the_sites_404(url):
    response = Client(headers={"accept-language": "fr"}).get(url)
    assert response.status_code == 404
    page = response.content.decode()
    assert 'data-status="404"' in page and '<html lang="fr">' in page
    assert "Rien à voir à cette adresse" in page
    assert "URLconf" not in page


@pytest.mark.parametrize("url", NOT_FOUND)
def test_a_player_gets_the_404_in_their_own_language(url, alice):
    alice.language = "de"
    alice.save(update_fields=["language"])
    client = Client(headers={"accept-language": "fr"})
    client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 404
    assert '<html lang="de">' in response.content.decode()


def refuse(request):
    raise PermissionDenied


def bad(request):
    raise SuspiciousOperation("a forged header")


def broken(request):
    raise RuntimeError("a bug")


@pytest.fixture
def failing_urls(settings, monkeypatch):
    patterns = [path("t/403/", refuse), path("t/400/", bad), path("t/500/", broken)]
    monkeypatch.setattr(site_urls, "urlpatterns", patterns + site_urls.urlpatterns)
    from django.urls import clear_url_caches

    clear_url_caches()
    yield
    clear_url_caches()


@pytest.mark.parametrize("status", [400, 403, 500])
def test_the_other_errors_are_the_sites_pages_in_the_visitors_language(status, failing_urls):
    client = Client(raise_request_exception=False, headers={"accept-language": "nl"})
    response = client.get(f"/t/{status}/")
    assert response.status_code == status
    page = response.content.decode()
    assert f'data-status="{status}"' in page and '<html lang="nl">' in page


def test_only_a_missing_lobby_or_game_speaks_of_invite_links(alice):
    client = Client()
    client.force_login(alice)
    hint = "A private lobby opens only with its invite link"
    for url, hinted in (
        ("/games/99999/", True),
        ("/lobbies/99999/", True),
        ("/puzzles/99999/", False),
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert (hint in response.content.decode()) is hinted, url
