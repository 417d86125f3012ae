"""A tournament's table (games.services.table_open): a game like any other, except that its
players cannot start a rematch, neither through the service nor from the game-over screen,
since the tournament pairs the next game."""

import pytest
from django.urls import reverse

from core.errors import NoRematch
from games import services
from games.models import Game
from games.tests.helpers import play_to_end, start_game

pytestmark = pytest.mark.django_db


def open_table(*users):
    return services.table_open(
        name="Round 1, table 1",
        players=[(user, "") for user in users],
        is_public=True,
        end_score=10,
        double_on_tie=True,
        final_reveal_clears_columns=True,
        turn_clock=60,
        disconnect_grace=60,
        rated=True,
    )


def test_a_finished_table_has_no_rematch(alice, bob):
    table = open_table(alice, bob)
    play_to_end(table, [alice, bob])
    with pytest.raises(NoRematch) as refused:
        services.game_rematch(game_id=table.pk, user=alice)
    assert "tournament" in refused.value.message
    table.refresh_from_db()
    table.lobby.refresh_from_db()
    assert table.rematch_id is None and table.lobby.game_id == table.pk
    assert Game.objects.count() == 1


def test_the_game_over_screen_offers_a_rematch_only_outside_tournaments(client, alice, bob):
    table = open_table(alice, bob)
    game = start_game(alice, bob, end_score=10)
    for finished in (table, game):
        play_to_end(finished, [alice, bob])
    client.force_login(alice)
    at_table = client.get(reverse("games:game", args=[table.pk])).content.decode()
    elsewhere = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "The game is over." in at_table and "The game is over." in elsewhere
    assert 'id="act-rematch"' not in at_table
    assert 'id="act-rematch"' in elsewhere


def test_asking_a_table_for_a_rematch_by_the_page_says_why_not(client, alice, bob):
    table = open_table(alice, bob)
    play_to_end(table, [alice, bob])
    client.force_login(alice)
    response = client.post(reverse("games:rematch", args=[table.pk]), follow=True)
    assert "the tournament pairs the next one" in response.content.decode()
    assert Game.objects.count() == 1
