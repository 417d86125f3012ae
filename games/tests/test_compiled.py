"""games.compiled: the statements of a move, built once, give what the ORM's own would."""

import pytest
from django.db import transaction
from django.db.models import F
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games import compiled
from games.models import Game, GamePlayer, Move
from games.tests.helpers import start_game

pytestmark = pytest.mark.django_db

LOCK = compiled.Select(
    lambda pk: Game.objects.select_for_update(of=("self",)).select_related("lobby").filter(pk=pk)
)
PLAYERS = compiled.Select(lambda game_id: GamePlayer.objects.filter(game=game_id).order_by("seat"))


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_select_gives_the_rows_and_related_rows_the_orm_gives(alice, bob):
    games = [start_game(alice, bob), start_game(bob, alice)]
    for game in games:  # the second call binds new values to the SQL built by the first
        with transaction.atomic():
            got = LOCK.first(game.pk)
        expected = Game.objects.select_related("lobby").get(pk=game.pk)
        assert _fields(got) == _fields(expected)  # datetimes, JSON and all, converted
        assert _fields(got.lobby) == _fields(expected.lobby)
        players = PLAYERS.all(game.pk)
        assert [_fields(p) for p in players] == [
            _fields(p) for p in GamePlayer.objects.filter(game=game).order_by("seat")
        ]
    assert PLAYERS.all(-1) == []


@pytest.mark.django_db(transaction=True)  # a test's own transaction would hide the mistake
def test_a_locking_read_outside_a_transaction_is_refused(alice, bob):
    game = start_game(alice, bob)
    with transaction.atomic():
        LOCK.first(game.pk)  # compiled
    with pytest.raises(TransactionManagementError):
        LOCK.first(game.pk)


def test_a_value_the_sql_does_not_hold_once_is_refused():
    twice = compiled.Select(lambda pk: Game.objects.filter(pk=pk, rematch=pk))
    with pytest.raises(ValueError, match="once"):
        twice.all(1)


def test_update_writes_the_fields_and_sets_auto_now(alice, bob):
    game = start_game(alice, bob)
    before = game.updated_at
    game.version, game.recent, game.phase = 7, [{"v": 7}], "ignored"
    compiled.update(game, ["version", "recent", "updated_at"])
    saved = Game.objects.get(pk=game.pk)
    assert (saved.version, saved.recent) == (7, [{"v": 7}])
    assert saved.phase != "ignored" and saved.updated_at > before


def test_update_of_a_row_that_is_gone_fails(alice, bob):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(Exception, match="not updated"):
        compiled.update(game, ["version"])


def test_insert_writes_a_new_row_with_its_auto_now_add(alice, bob):
    game = start_game(alice, bob)
    compiled.insert(Move(game=game, version=1, round=1, seat=0, action={"reveal": 3}))
    move = Move.objects.get(game=game, version=1)
    assert (move.seat, move.action, move.reshuffle) == (0, {"reveal": 3}, None)
    assert move.created_at is not None


TOUCH = compiled.Update(
    lambda game_id, user_id, now, change: (
        GamePlayer.objects.filter(game_id=game_id, user_id=user_id),
        {"last_seen": now, "connections": F("connections") + change},
    )
)


def test_an_update_writes_what_the_orms_update_writes(alice, bob):
    games = [start_game(alice, bob), start_game(bob, alice)]
    for game in games:  # the second call binds new values to the SQL built by the first
        now = timezone.now()
        assert TOUCH.run(game.pk, alice.pk, now, 2) == 1
        GamePlayer.objects.filter(game=game, user=bob).update(
            last_seen=now, connections=F("connections") + 2
        )
        players = {p.user_id: p for p in GamePlayer.objects.filter(game=game)}
        assert players[alice.pk].last_seen == players[bob.pk].last_seen == now
        assert players[alice.pk].connections == players[bob.pk].connections == 2
    assert TOUCH.run(-1, alice.pk, timezone.now(), 1) == 0  # no such row


def test_an_update_value_the_sql_does_not_hold_once_is_refused():
    twice = compiled.Update(lambda pk: (Game.objects.filter(pk=pk), {"version": pk}))
    with pytest.raises(ValueError, match="once"):
        twice.run(1)
