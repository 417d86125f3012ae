import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_profile_is_public(client, alice):
    alice.bio = "Column clearer."
    alice.save()
    response = client.get(reverse("accounts:profile", args=["alice"]))
    assert response.status_code == 200
    assert reverse("accounts:profile", args=["alice"]) == "/u/alice/"
    assert b"alice" in response.content
    assert b"Column clearer." in response.content
    assert b"No finished games yet." in response.content
    assert b"Edit profile" not in response.content


def test_own_profile_links_to_settings(client, alice):
    client.force_login(alice)
    response = client.get("/u/alice/")
    assert b"Edit profile" in response.content


def test_unknown_player_is_404(client):
    assert client.get("/u/nobody/").status_code == 404


def test_the_bio_is_escaped(client, alice):
    alice.bio = "<script>alert(1)</script>"
    alice.save()
    response = client.get("/u/alice/")
    assert b"<script>alert(1)</script>" not in response.content


@pytest.mark.parametrize("page", ["461168601842738792", "9" * 30, "-5", "x"])
def test_any_history_page_number_is_a_page(client, alice, page):
    """A page past the database's OFFSET was a 500: it is capped, and shows no games."""
    response = client.get(f"/u/alice/?page={page}")
    assert response.status_code == 200
