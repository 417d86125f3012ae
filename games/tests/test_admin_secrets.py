"""The admin never shows a non-superuser what the players may not see: the engine snapshot
(face-down cards, the draw pile, a drawn card), the seed that dealt the first round, a round's
deck or a reshuffled draw pile, a private lobby's invite code. A moderator has no permission on these models at all (403); a
staff member a superuser gave the view permissions sees the rows without those fields."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games import engine, services
from games.models import Game, Move, Round
from games.tests.helpers import reveal_all, start_game

pytestmark = pytest.mark.django_db

SECRET_FIELDS = {
    Game: ("snapshot", "seed"),
    Round: ("deck",),
    Move: ("reshuffle",),
}


@pytest.fixture
def game(alice, bob):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    game.refresh_from_db()
    seat = engine.from_snapshot(game.snapshot).current
    services.game_apply_action(
        game_id=game.pk, user=[alice, bob][seat], action={"take": "deck"}, version=game.version
    )
    game.refresh_from_db()
    assert game.snapshot["drawn"] is not None
    return game


def _pages(game) -> dict:
    return {
        Game: reverse("admin:games_game_change", args=[game.pk]),
        Round: reverse("admin:games_round_change", args=[game.rounds.get().pk]),
        Move: reverse("admin:games_move_change", args=[game.moves.last().pk]),
    }


def test_a_moderator_opens_no_game_row_in_the_admin(client, moderator, game):
    client.force_login(moderator)
    for model, url in _pages(game).items():
        assert client.get(url).status_code == 403, model
        changelist = reverse(f"admin:games_{model._meta.model_name}_changelist")
        assert client.get(changelist).status_code == 403, model


def test_staff_who_may_view_games_see_no_secret_field(client, staff, game, django_user_model):
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="games", codename__startswith="view_")
    )
    client.force_login(staff)
    for model, url in _pages(game).items():
        html = client.get(url).content.decode()
        assert 'class="form-row' in html, model  # the page is shown
        for name in SECRET_FIELDS[model]:
            assert f"field-{name}" not in html, (model, name)
    html = client.get(_pages(game)[Round]).content.decode()
    assert str(game.rounds.get().deck) not in html.replace("&quot;", "")

    superuser = django_user_model.objects.create_superuser("root", "root@example.com", "x-9-y")
    client.force_login(superuser)
    for model, url in _pages(game).items():  # the superuser still sees everything
        html = client.get(url).content.decode()
        for name in SECRET_FIELDS[model]:
            assert f"field-{name}" in html, (model, name)


def test_staff_who_may_view_lobbies_see_no_invite_code(client, staff, alice, django_user_model):
    lobby = services.lobby_create(host=alice, name="Private", is_public=False)
    staff.user_permissions.add(Permission.objects.get(codename="view_lobby"))
    client.force_login(staff)
    page = client.get(reverse("admin:games_lobby_change", args=[lobby.pk])).content.decode()
    assert 'class="form-row' in page and "field-invite_code" not in page
    assert lobby.invite_code not in page
    changelist = reverse("admin:games_lobby_changelist")
    found = client.get(changelist, {"q": lobby.invite_code}).content.decode()
    assert "0 lobbies" in found, "a search by the code tells whether it exists"

    superuser = django_user_model.objects.create_superuser("root", "root@example.com", "x-9-y")
    client.force_login(superuser)
    page = client.get(reverse("admin:games_lobby_change", args=[lobby.pk])).content.decode()
    assert lobby.invite_code in page
    assert "1 lobby" in client.get(changelist, {"q": lobby.invite_code}).content.decode()
