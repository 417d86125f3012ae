"""One rule for player names: 3 to 24 letters, digits, _ and -; longer old names are cut in
display with an ellipsis and a full-name tooltip; bot-game titles fit any name."""

import random
import re

import pytest
from django.urls import reverse

from accounts.names import NAME_MAX, name_html, short_name
from accounts.tests.test_register import register
from chat import services as chat_services
from conftest import PASSWORD
from games import services
from games.tests.helpers import play_one, reveal_all, start_game

pytestmark = pytest.mark.django_db

LONG = "L" * 60 + "ongname" * 10  # 130 characters: an account from before the rule


@pytest.mark.parametrize("name", ["ab", "x" * 25, "two words", "semi;colon", "<b>", "dot.ted"])
def test_registration_refuses_names_outside_the_rule(client, django_user_model, name):
    response = register(client, username=name, email="n@example.com")
    assert response.status_code == 200
    assert b"has-error" in response.content
    assert not django_user_model.objects.filter(email="n@example.com").exists()


@pytest.mark.parametrize("name", ["\u0430nn", "p\u0430ypal_1", "\u03b1lice", "Ivan\u043e\u0432"])
def test_registration_refuses_names_that_mix_alphabets(client, django_user_model, name):
    """A Cyrillic or Greek letter among Latin ones: a name that passes for "ann" or "alice"."""
    django_user_model.objects.create_user(username="ann", password="x" * 12)
    response = register(client, username=name, email="n@example.com")
    assert response.status_code == 200
    assert "Use the letters of one alphabet in a player name" in response.content.decode()
    assert not django_user_model.objects.filter(email="n@example.com").exists()


@pytest.mark.parametrize(
    "name",
    [
        "\u041f\u0451\u0442\u0440",
        "\u5c71\u7530\u305f\u308d\u3046",
        "\ud64d\uae38\ub3d9",
        "\u03b1\u03b8\u03b7\u03bd\u03ac_7",
        "Jos\u00e9-Mar\u00eda",
    ],
)
def test_registration_takes_names_of_one_alphabet_and_the_east_asian_mixes(
    client, django_user_model, name
):
    assert register(client, username=name, email="n@example.com").status_code == 302
    assert django_user_model.objects.filter(username=name).exists()


@pytest.mark.parametrize("name", ["abc", "x" * 24, "Åse_ø-9", "Jörg"])
def test_registration_takes_names_inside_the_rule(client, django_user_model, name):
    assert register(client, username=name, email="n@example.com").status_code == 302
    assert django_user_model.objects.filter(username=name).exists()


def test_the_form_says_the_rule(client):
    page = client.get(reverse("accounts:register")).content.decode()
    assert "3 to 24 characters: letters, digits, _ and -." in page
    assert 'maxlength="24"' in page


def test_short_name_and_its_html():
    assert short_name("alice") == "alice"
    assert short_name("x" * 25) == "x" * 23 + "…" and len(short_name("x" * 25)) == NAME_MAX
    assert name_html("a&b") == '<span class="name-cut" title="a&amp;b">a&amp;b</span>'


@pytest.fixture
def old(django_user_model):
    return django_user_model.objects.create_user(username=LONG, password="x" * 12)


def test_an_old_long_name_plays_against_bots(client, old):
    client.force_login(old)
    response = client.post(
        reverse("games:play_bots"), {"bots": "7", "level": "medium", "end_score": "100"}
    )
    assert response.status_code == 302
    lobby = old.hosted_lobbies.get()
    assert len(lobby.name) <= 60 and lobby.name.startswith(short_name(LONG))


def test_an_old_long_name_is_cut_everywhere_with_its_tooltip(client, old, alice):
    game = start_game(old, alice)
    lobby = services.lobby_create(host=old, name="Long host")
    chat_services.chat_post(user=old, text="hi", game_id=game.pk)
    client.force_login(old)
    cut = short_name(LONG)
    for url in (
        "/",
        f"/games/{game.pk}/",
        f"/lobbies/{lobby.pk}/",
        reverse("games:lobbies"),
        reverse("accounts:profile", args=[LONG]),
        reverse("accounts:settings"),
    ):
        page = client.get(url).content.decode()
        assert cut in page, url
        assert f'title="{LONG}"' in page, url
        assert f">{LONG}<" not in page, url


def _text_outside_tooltips(page: str) -> str:
    """``page`` without its tooltips and links (a profile's address holds the whole name)."""
    return re.sub(r'(title|href)="[^"]*"', "", page)


def test_an_old_long_name_is_cut_in_the_boards_sentences(client, old, alice):
    """The turn pill, the prompt, the last moves and a drawn card's holder say the cut name
    too: only a tooltip holds the whole of it."""
    game = start_game(old, alice)
    client.force_login(old)
    shown = [_text_outside_tooltips(client.get(f"/games/{game.pk}/").content.decode())]
    reveal_all(game, [old, alice])
    rng = random.Random(3)
    for _ in range(3):
        play_one(game, [old, alice], rng)
        shown.append(_text_outside_tooltips(client.get(f"/games/{game.pk}/").content.decode()))
    for page in shown:
        assert short_name(LONG) in page
        assert LONG[: NAME_MAX + 5] not in page


@pytest.mark.parametrize(
    "name", ["admin", "Admin", "moderator", "STAFF", "Medium_bot_1", "strong-bot", "Skyjo"]
)
def test_reserved_names_are_refused_at_registration(client, name, django_user_model):
    response = client.post(
        reverse("accounts:register"),
        {"username": name, "email": "r@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert "This name is kept for the site, its moderators or its bots" in response.content.decode()
    assert not django_user_model.objects.filter(username=name).exists()


def test_a_taken_name_is_worded_as_a_player_name(client, alice):
    response = client.post(
        reverse("accounts:register"),
        {
            "username": alice.username.upper(),
            "email": "r@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE="de",
    )
    page = response.content.decode()
    assert "Es gibt bereits einen Spieler mit diesem Namen." in page
    assert "username" not in re.sub(r'"[^"]*username[^"]*"', "", page)  # only in attributes
