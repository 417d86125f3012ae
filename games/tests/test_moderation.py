"""Moderators: the admin shows game state read-only; closing a lobby and stopping a game go
through games.moderation, which locks (Lobby, then Game), writes only its columns and publishes.
"""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.errors import GameOver, LobbyClosed
from games import publish, services
from games import services as moderation
from games.models import Game, Lobby, Move, Round, Seat
from games.tests.helpers import play_one, play_to_end, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("mod", "mod@example.com", "x-mod-pw-9")


@pytest.fixture
def admin_client(client, moderator):
    client.force_login(moderator)
    return client


@pytest.fixture
def game(alice, bob):
    game = start_game(alice, bob)
    rng = random.Random(1)
    for _ in range(4):
        play_one(game, [alice, bob], rng)
    game.refresh_from_db()
    return game


@pytest.fixture
def published(monkeypatch):
    """What was published after the commit: ("game", event kind) and ("lobby", id)."""
    sent = []
    monkeypatch.setattr(
        publish, "game_changed", lambda view, meta, event: sent.append(("game", event["kind"]))
    )
    monkeypatch.setattr(publish, "lobby_changed", lambda lobby_id: sent.append(("lobby", lobby_id)))
    return sent


def _admin_urls(game):
    lobby = game.lobby
    return {
        Lobby: reverse("admin:games_lobby_change", args=[lobby.pk]),
        Game: reverse("admin:games_game_change", args=[game.pk]),
        Round: reverse("admin:games_round_change", args=[game.rounds.first().pk]),
        Move: reverse("admin:games_move_change", args=[game.moves.first().pk]),
    }


def test_the_admin_shows_game_state_read_only(admin_client, game):
    """Failed on main: Lobby (and its seats), Game.status and bot_due_at were editable."""
    for model, url in _admin_urls(game).items():
        page = admin_client.get(url)
        assert page.status_code == 200, model
        assert 'name="_save"' not in page.content.decode(), model
        assert admin_client.post(url, {"status": "closed"}).status_code == 403, model
        add = reverse(f"admin:games_{model._meta.model_name}_add")
        assert admin_client.get(add).status_code == 403, model
        delete = url.replace("/change/", "/delete/")
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403, model
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.lobby.status == Lobby.Status.PLAYING
    assert Seat.objects.filter(lobby=game.lobby).count() == 2


def test_closing_a_lobby_stops_its_game_and_tells_everyone(
    admin_client, game, published, django_capture_on_commit_callbacks
):
    url = reverse("admin:games_lobby_changelist")
    version = game.version
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            url, {"action": "close_lobbies", "_selected_action": [game.lobby_id]}, follow=True
        )
    assert "Closed 1 lobby(ies)." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.version == version + 1
    assert game.bot_due_at is None and game.finished_at is not None
    assert game.lobby.status == Lobby.Status.CLOSED
    assert ("game", "aborted") in published and ("lobby", game.lobby_id) in published
    again = admin_client.post(
        url, {"action": "close_lobbies", "_selected_action": [game.lobby_id]}, follow=True
    )
    assert "Closed 0 lobby(ies)." in again.content.decode()  # it was closed already


def test_stopping_a_game_closes_its_lobby_and_tells_everyone(
    admin_client, game, published, django_capture_on_commit_callbacks
):
    url = reverse("admin:games_game_changelist")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            url, {"action": "stop_games", "_selected_action": [game.pk]}, follow=True
        )
    assert "Stopped 1 game(s)." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.lobby.status == Lobby.Status.CLOSED
    assert published == [("game", "aborted"), ("lobby", game.lobby_id)]
    # A second stop changes and tells nothing.
    with django_capture_on_commit_callbacks(execute=True):
        assert moderation.game_stop(game_id=game.pk) is False
        assert moderation.lobby_close(lobby_id=game.lobby_id) is None
    assert len(published) == 2


def test_a_stopped_game_takes_no_more_moves(game, alice, bob):
    moderation.game_stop(game_id=game.pk)
    with pytest.raises(GameOver):
        play_one(game, [alice, bob], random.Random(2))


def test_moderation_locks_the_lobby_before_the_game_and_writes_only_its_columns(game):
    with CaptureQueriesContext(connection) as queries:
        moderation.game_stop(game_id=game.pk)
    sql = [q["sql"] for q in queries.captured_queries]
    selects = [s for s in sql if s.startswith("SELECT")]
    lobby_lock = next(i for i, s in enumerate(selects) if 'FROM "games_lobby"' in s)
    game_lock = next(  # the whole row, not the lobby_id looked up first
        i for i, s in enumerate(selects) if 'FROM "games_game"' in s and '"version"' in s
    )
    assert lobby_lock < game_lock
    if connection.vendor == "postgresql":
        assert all("FOR NO KEY UPDATE" in selects[i] for i in (lobby_lock, game_lock))
    [game_update] = [s for s in sql if s.startswith('UPDATE "games_game"')]
    assert '"record"' not in game_update and '"status"' in game_update
    [lobby_update] = [s for s in sql if s.startswith('UPDATE "games_lobby"')]
    assert lobby_update.split(" WHERE ")[0].count("=") == 1  # status alone


def test_a_rematch_does_not_reopen_a_lobby_a_moderator_closed(alice, bob):
    game = start_game(alice, bob, end_score=1)
    play_to_end(game, [alice, bob])
    closed = moderation.lobby_close(lobby_id=game.lobby_id, void=True)
    assert closed == moderation.LobbyClosure(lobby_id=game.lobby_id, game_id=None)
    with pytest.raises(LobbyClosed):
        services.game_rematch(game_id=game.pk, user=bob)
    lobby = Lobby.objects.get(pk=game.lobby_id)
    assert lobby.status == Lobby.Status.CLOSED
    assert Game.objects.filter(lobby=lobby).count() == 1
    game.refresh_from_db()
    assert game.rematch_id is None
    assert game.status == Game.Status.FINISHED and not game.voided  # it counts
