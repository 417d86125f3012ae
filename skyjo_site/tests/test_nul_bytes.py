"""A NUL character in a path or a query string is no page (skyjo_site.nul_bytes): looked up on
PostgreSQL, which refuses NUL in text, it was a server error."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    from conftest import _make_user
    from core.access import sync_group

    user = _make_user(django_user_model, "maud")
    user.groups.add(sync_group())
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return django_user_model.objects.get(pk=user.pk)


@pytest.mark.parametrize(
    "url",
    [
        "/u/a%00b/",
        "/players/?q=a%00b",
        "/players/?a%00=b",
        "/lobbies/invite/a%00b/",
        "/report/player/a%00b/",
        "/moderation/players/a%00b/",
        "/moderation/log/?player=a%00b",
    ],
)
def test_a_nul_in_a_path_or_a_query_is_a_404(moderator, url):
    client = Client(raise_request_exception=False)
    client.force_login(moderator)
    response = client.get(url)
    assert response.status_code == 404
    assert 'id="error-page"' in response.content.decode()
