"""The way back to a game: the home page lists the player's games in play, live and by
correspondence, each linked, with whose turn it is."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, services
from games.tests.helpers import play_to_end, restore, reveal_all, start_game

pytestmark = pytest.mark.django_db


def home(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("games:home")).content.decode()


def item_of(page: str, game) -> str:
    link = f'href="{reverse("games:game", args=[game.pk])}"'
    assert link in page, f"game {game.pk} not listed"
    return page.split(link, 1)[1].split("</li>", 1)[0]


def test_the_home_page_lists_live_and_correspondence_games_with_whose_turn(
    client, alice, bob, charlie
):
    live = start_game(alice, bob)
    reveal_all(live, [alice, bob])
    corr = start_game(charlie, alice, move_days=2)
    reveal_all(corr, [charlie, alice])
    done = start_game(alice, charlie, end_score=1)
    play_to_end(done, [alice, charlie])
    live_turn = [alice, bob][restore(live).current]
    corr_turn = [charlie, alice][restore(corr).current]

    page = home(client, alice)
    assert 'id="in-progress"' in page
    for game, turn in ((live, live_turn), (corr, corr_turn)):
        item = item_of(page, game)
        if turn == alice:
            assert "Your turn" in item
        else:
            assert f"Waiting for {turn.username}" in item
    assert "by correspondence" in item_of(page, corr)
    assert "by correspondence" not in item_of(page, live)
    assert reverse("games:game", args=[done.pk]) + '"' not in page  # over: not in progress


def test_the_reveal_waits_for_everyone_and_a_bot_is_named(client, alice):
    game = services.bot_game_create(user=alice, bots=1, level="medium", end_score=100)
    assert restore(game).phase == engine.REVEAL_PHASE
    item = item_of(home(client, alice), game)
    assert "Your turn" in item  # alice still has two cards to turn


def test_no_list_for_a_visitor_or_a_player_with_no_game(client, alice):
    assert 'id="in-progress"' not in client.get(reverse("games:home")).content.decode()
    assert 'id="in-progress"' not in home(client, alice)


def test_the_list_costs_the_same_queries_whatever_the_games(client, alice, bob):
    for _ in range(2):
        start_game(alice, bob)
    client.force_login(alice)
    client.get(reverse("games:home"))  # warm: session, user, caches
    with CaptureQueriesContext(connection) as two:
        client.get(reverse("games:home"))
    start_game(alice, bob)
    with CaptureQueriesContext(connection) as three:
        assert client.get(reverse("games:home")).content.decode().count("my-turn") == 3
    assert len(three) == len(two), [q["sql"][:60] for q in three]
