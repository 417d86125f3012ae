"""The guard of a move's cost: the statements a move writes between BEGIN and COMMIT, named
one by one. An ordinary move reads nothing (its game, state and seats are held in the process,
games.services.held) and writes two: the conditional UPDATE of the game and its Move row. A
change that adds a statement to a move fails here; one that adds it on purpose names it."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.models import Game, GamePlayer
from games.tests.helpers import restore, reveal_all, start_game

pytestmark = pytest.mark.django_db(transaction=True)  # holds are kept on commit

ORDINARY = ["UPDATE games_game", "INSERT games_move"]
TRANSACTION = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def shape(sql: str) -> str:
    """``UPDATE "games_game" SET ...`` -> ``UPDATE games_game``."""
    words = sql.replace('"', "").split()
    verb = words[0]
    table = {"SELECT": "FROM", "INSERT": "INTO", "UPDATE": None, "DELETE": "FROM"}[verb]
    name = words[1] if table is None else words[words.index(table) + 1]
    return f"{verb} {name}"


def statements_of(call) -> list[str]:
    """The statements ``call()`` runs, as shapes, without the transaction's own."""
    with CaptureQueriesContext(connection) as queries:
        call()
    return [shape(q["sql"]) for q in queries if not q["sql"].startswith(TRANSACTION)]


def move(game_id: int, user, rng: random.Random):
    """One random legal step of ``user``'s seat, on the saved version."""
    row = Game.objects.get(pk=game_id)
    state = engine.from_snapshot(row.snapshot)
    seat = GamePlayer.objects.get(game=row, user=user).seat
    step = rng.choice(engine.view_of(state, seat).legal_actions())
    version = row.version

    def call():
        services.game_apply_action(
            game_id=game_id, user=user, action=step.to_json(), version=version
        )

    return call


def to_play(game, users) -> list:
    reveal_all(game, users)
    return users


def current_user(game, users):
    return users[restore(game).current]


def test_an_ordinary_move_is_one_conditional_update_and_its_move_row(alice, bob):
    game = start_game(alice, bob, end_score=100)
    users = to_play(game, [alice, bob])
    rng = random.Random(1)
    move(game.pk, current_user(game, users), rng)()  # held from here on
    for _ in range(6):
        game.refresh_from_db()
        if restore(game).phase != engine.PLAY:
            break
        assert statements_of(move(game.pk, current_user(game, users), rng)) == ORDINARY


def test_a_move_after_the_seats_changed_reads_them_again(alice, bob):
    """A socket opened (no new version): the next move reads the game and its seats."""
    game = start_game(alice, bob, end_score=100)
    users = to_play(game, [alice, bob])
    rng = random.Random(2)
    move(game.pk, current_user(game, users), rng)()
    services.game_player_seen(game_id=game.pk, user=bob, change=+1)
    game.refresh_from_db()
    read = ["SELECT games_game", "SELECT games_gameplayer"]
    assert statements_of(move(game.pk, current_user(game, users), rng)) == read + ORDINARY


def test_a_move_after_a_timeout_clears_it(alice, bob):
    """The turn clock ran out once on the mover (the seats changed): the move reads the game
    and its seats again, and clears that timeout, one statement more."""
    game = start_game(alice, bob, end_score=100)
    users = to_play(game, [alice, bob])
    rng = random.Random(3)
    move(game.pk, current_user(game, users), rng)()
    game.refresh_from_db()
    services.game_seat_timed_out(game_id=game.pk, seat=restore(game).current)
    statements = statements_of(move(game.pk, current_user(game, users), rng))
    read = ["SELECT games_game", "SELECT games_gameplayer"]
    clear = ["UPDATE games_gameplayer"]  # the mover's timeouts back to 0, beside the game's
    assert statements == read + ORDINARY[:1] + clear + ORDINARY[1:]


def first_move_not_ordinary(game, users, seed: int) -> list[str]:
    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        statements = statements_of(move(game.pk, current_user(game, users), rng))
        if statements != ORDINARY:
            game.refresh_from_db()
            return statements


def test_a_round_end_adds_its_scores_by_name(alice, bob):
    game = start_game(alice, bob, end_score=1000)
    statements = first_move_not_ordinary(game, to_play(game, [alice, bob]), seed=4)
    assert game.phase == engine.ROUND_OVER and game.status == Game.Status.PLAYING
    assert statements == [
        *ORDINARY,
        "UPDATE games_round",  # the round's scores
        "UPDATE games_gameplayer",  # the totals and winners, one statement
        "INSERT stats_roundresult",  # stats.recording: a row per player
    ]


def test_a_game_end_adds_its_results_by_name(alice, bob):
    game = start_game(alice, bob, end_score=1)  # the first round ends the game
    statements = first_move_not_ordinary(game, to_play(game, [alice, bob]), seed=5)
    assert game.status == Game.Status.FINISHED
    assert statements == [
        "UPDATE games_lobby",  # finished: the lobby's row first (the lock order)
        *ORDINARY,
        "UPDATE games_round",
        "UPDATE games_gameplayer",
        "INSERT stats_roundresult",
        # stats.recording: the game's results
        "SELECT games_lobby",
        "UPDATE stats_roundresult",
        "INSERT stats_gameresult",
        "INSERT stats_profileversion",
        # stats.ratings: a rated game between people
        "SELECT accounts_user",
        "UPDATE accounts_user",
        "INSERT stats_ratingchange",
        "INSERT stats_profileversion",
        # tournaments: is it a tournament's table?
        "SELECT tournaments_table",
    ]


def test_a_correspondence_turn_reads_its_seats_and_writes_whose_turn_it_is(alice, bob):
    """Days per move: the seats are read at every move (with their vacations since the turn
    began), and a move that passes the turn writes who is waited for (one statement)."""
    game = start_game(alice, bob, end_score=100, move_days=2)
    users = to_play(game, [alice, bob])
    rng = random.Random(6)
    read = ["SELECT games_gameplayer", "SELECT games_vacation"]
    waiting = ["UPDATE games_gameplayer"]  # GamePlayer.waiting (games.services.turns)
    passed = kept = 0
    while not (passed and kept):
        game.refresh_from_db()
        before = restore(game).current
        statements = statements_of(move(game.pk, users[before], rng))
        game.refresh_from_db()
        if restore(game).current != before:
            passed += 1
            assert statements == read + ORDINARY[:1] + waiting + ORDINARY[1:]
        else:
            kept += 1
            assert statements == read + ORDINARY
