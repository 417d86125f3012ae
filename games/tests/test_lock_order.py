"""One lock order everywhere (Lobby, then Game, then GamePlayer): a moderator closing a lobby
and the game's last move (or a rematch) never deadlock, and the end is consistent. Every lock is
FOR NO KEY UPDATE: a chat post never waits for a move's write of the game (games.services).

The race is made exact, not left to luck: the test holds the game's row lock while the two
services queue up behind it in a chosen order (checked in ``pg_locks``), then lets go. Row
locks need PostgreSQL (scripts/test runs this suite on PostgreSQL too)."""

import random
import threading
import time

import pytest
from django.db import connection, connections, transaction

from core.errors import GameOver, ServiceError
from games import engine, services
from games import services as moderation
from games.models import Game, Lobby, Move
from games.tests.helpers import start_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: scripts/test runs this on PostgreSQL (DATABASE_URL)",
    ),
]


def _one_move_before(alice, bob, *, end_score: int, ends) -> tuple:
    """A two-player game, played by random legal steps until the next step (returned, with the
    game and the user to make it) would make ``ends(state)`` true."""
    game = start_game(alice, bob, end_score=end_score)
    users, rng = [alice, bob], random.Random(4)
    while True:
        game.refresh_from_db()
        state = engine.from_snapshot(game.snapshot)
        seat = state.to_act()[0]
        step = rng.choice(state.legal_actions(seat))
        trial = state.copy()
        trial.apply(seat, step)
        if ends(trial):
            return game, users[seat], step.to_json()
        services.game_apply_action(
            game_id=game.pk, user=users[seat], action=step.to_json(), version=game.version
        )


def _one_move_from_the_end(alice, bob):
    return _one_move_before(alice, bob, end_score=1, ends=lambda state: state.finished)


def _one_move_from_a_round_end(alice, bob):
    return _one_move_before(
        alice, bob, end_score=1000, ends=lambda state: state.phase == engine.ROUND_OVER
    )


class Racer(threading.Thread):
    """Runs one service call in a thread (its own connection); keeps its backend pid."""

    def __init__(self, call):
        super().__init__()
        self.call, self.pid, self.outcome = call, None, None
        self.ready = threading.Event()

    def run(self):
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self.ready.set()
            self.outcome = self.call()
        except Exception as exc:  # a deadlock or a refusal: the assertions look at it
            self.outcome = exc
        finally:
            self.ready.set()
            connections.close_all()


def _wait_until_blocked(racer: Racer) -> None:
    """Wait (not a timed assertion: a synchronisation) until ``racer`` waits for a lock."""
    racer.ready.wait(timeout=30)
    deadline = time.monotonic() + 30
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", [racer.pid]
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError(f"{racer.call} never waited for a lock: {racer.outcome!r}")


def _race(game: Game, first, second, hold: str = "game") -> tuple[object, object]:
    """Hold the game's (or its lobby's) row lock; start ``first`` and ``second`` in that order,
    each queued behind a lock; then let go and return both outcomes."""
    racers = [Racer(first), Racer(second)]
    with transaction.atomic():
        if hold == "game":
            Game.objects.select_for_update().get(pk=game.pk)
        else:
            Lobby.objects.select_for_update().get(pk=game.lobby_id)
        for racer in racers:
            racer.start()
            _wait_until_blocked(racer)
    for racer in racers:
        racer.join(timeout=60)
    return racers[0].outcome, racers[1].outcome


@pytest.mark.parametrize(
    "hold,move_first",
    [("lobby", True), ("lobby", False), ("game", True), ("game", False)],
)
def test_closing_the_lobby_and_the_last_move_never_deadlock(alice, bob, hold, move_first):
    """The last move writes the lobby's row before the game's (the lock order), so whichever
    lock the two wait for, the first in line goes first: the other finds the game over."""
    game, player, last = _one_move_from_the_end(alice, bob)

    def move():
        return services.game_apply_action(
            game_id=game.pk, user=player, action=last, version=game.version
        )

    def close():
        return moderation.lobby_close(lobby_id=game.lobby_id)

    calls = (move, close) if move_first else (close, move)
    outcomes = dict(zip(calls, _race(game, *calls, hold=hold), strict=True))
    moved, closed = outcomes[move], outcomes[close]
    assert isinstance(closed, moderation.LobbyClosure), closed  # closed it, raised nothing
    game.refresh_from_db()
    lobby = Lobby.objects.get(pk=game.lobby_id)
    assert lobby.status == Lobby.Status.CLOSED
    if isinstance(moved, services.MoveResult):  # the move came first: the game was finished
        assert game.status == Game.Status.FINISHED and game.version == moved.version
        assert Move.objects.filter(game=game, version=moved.version).exists()
        alice.refresh_from_db()
        assert alice.rated_games == 1
        assert closed.game_id is None  # the close found the game over: it stopped none
    else:  # the close came first: the game was stopped, the move refused
        assert isinstance(moved, GameOver), moved
        assert game.status == Game.Status.ABORTED and closed.game_id == game.pk
        assert not Move.objects.filter(game=game, version=game.version).exists()
    assert move_first == (game.status == Game.Status.FINISHED)


def test_closing_the_lobby_and_a_rematch_never_deadlock(alice, bob):
    game, player, last = _one_move_from_the_end(alice, bob)
    services.game_apply_action(game_id=game.pk, user=player, action=last, version=game.version)

    def rematch():
        return services.game_rematch(game_id=game.pk, user=alice)

    def close():
        return moderation.lobby_close(lobby_id=game.lobby_id)

    new, closed = _race(game, rematch, close)
    assert isinstance(closed, moderation.LobbyClosure), closed
    assert isinstance(new, Game), new
    lobby = Lobby.objects.get(pk=game.lobby_id)
    new.refresh_from_db()
    assert lobby.status == Lobby.Status.CLOSED and lobby.game_id == new.pk
    assert new.status == Game.Status.ABORTED  # closing the lobby stopped the new game
    assert closed.game_id == new.pk
    assert not isinstance(new, ServiceError)


@pytest.mark.parametrize("abandon_first", [True, False])
def test_a_player_ending_a_bot_game_and_a_moderator_closing_its_lobby_never_deadlock(
    alice, abandon_first
):
    """Both lock the lobby, then the game: whoever is first in line stops it, the other finds
    it over (the player is told so; the close still closes the lobby)."""
    game = services.bot_game_create(user=alice, bots=1)

    def abandon():
        return services.game_abandon(game_id=game.pk, user=alice)

    def close():  # as moderation.services.lobby_close calls it
        return moderation.lobby_close(lobby_id=game.lobby_id, void=True)

    calls = (abandon, close) if abandon_first else (close, abandon)
    outcomes = dict(zip(calls, _race(game, *calls, hold="lobby"), strict=True))
    ended, closed = outcomes[abandon], outcomes[close]
    assert isinstance(closed, moderation.LobbyClosure), closed
    game.refresh_from_db()
    assert (game.status, game.voided) == (Game.Status.ABORTED, True)
    assert Lobby.objects.get(pk=game.lobby_id).status == Lobby.Status.CLOSED
    if abandon_first:
        assert ended is False and closed.game_id is None  # voided: no move of hers yet
    else:
        assert isinstance(ended, GameOver) and closed.game_id == game.pk


@pytest.mark.parametrize("ends", ["game", "round"])
def test_a_chat_post_never_waits_for_a_move_that_ends_the_game_or_a_round(
    alice, bob, monkeypatch, settings, ends
):
    """The move holds the game's row and then needs the players' rows: their ratings at the
    game's end, the foreign keys of its round results at a round's end. A chat post in the game
    holds its author's row and inserts a message that refers to the game. With every lock FOR
    NO KEY UPDATE the post does not wait for the game, so the two cannot wait in a circle (with
    FOR UPDATE, PostgreSQL found a deadlock and refused one of them)."""
    from chat.services import chat_post
    from games import signals

    settings.RATELIMIT_ENABLE = False
    if ends == "game":
        game, player, last = _one_move_from_the_end(alice, bob)
    else:
        game, player, last = _one_move_from_a_round_end(alice, bob)
    holding_game, go_on = threading.Event(), threading.Event()
    real = signals.round_scored.send

    def then_wait(*args, **kwargs):  # the move, holding the game's row, about to tell stats
        holding_game.set()
        go_on.wait(timeout=60)
        return real(*args, **kwargs)

    monkeypatch.setattr(signals.round_scored, "send", then_wait)
    move = Racer(
        lambda: services.game_apply_action(
            game_id=game.pk, user=player, action=last, version=game.version
        )
    )
    move.start()
    try:
        assert holding_game.wait(timeout=60)
        chat = Racer(lambda: chat_post(user=alice, text="gg", game_id=game.pk))
        chat.start()
        chat.join(timeout=30)  # a synchronisation: it waits for nothing the move holds
        waited = chat.is_alive()
    finally:
        go_on.set()
    move.join(timeout=60)
    chat.join(timeout=60)
    assert not waited, "the chat post waited for the move's lock on the game"
    assert not isinstance(chat.outcome, Exception), repr(chat.outcome)
    assert not isinstance(move.outcome, Exception), repr(move.outcome)
    game.refresh_from_db()
    assert game.phase == (engine.GAME_OVER if ends == "game" else engine.ROUND_OVER)
