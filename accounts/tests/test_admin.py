import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "x-admin-pw-9")
    client.force_login(admin)
    return client


def test_admin_bans_and_unbans_selected_users(staff_client, alice, bob):
    url = reverse("admin:accounts_user_changelist")
    staff_client.post(url, {"action": "ban_users", "_selected_action": [alice.pk]})
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.is_banned and alice.banned_at is not None
    assert not bob.is_banned
    staff_client.post(url, {"action": "unban_users", "_selected_action": [alice.pk]})
    alice.refresh_from_db()
    assert not alice.is_banned and alice.banned_at is None


def test_admin_filters_banned_users(staff_client, alice, bob):
    alice.ban("spam")
    response = staff_client.get(reverse("admin:accounts_user_changelist") + "?is_banned__exact=1")
    assert response.status_code == 200
    assert b">alice<" in response.content
    assert b">bob<" not in response.content
