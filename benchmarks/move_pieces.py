"""CPU of each database piece of a move, in one process: the access check and the locks, as
they are now and as they were before the third sitting (docs/performance.md).

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/skyjo_x .venv/bin/python \
         benchmarks/move_pieces.py [--calls 200] [--repeats 7]
(without DATABASE_URL: SQLite). A fresh test database is created and dropped here. Each piece
is called ``--calls`` times in a row, ``--repeats`` rounds, the pieces taking turns, so that
all see the same machine; printed: the best and the median round's CPU per call
(``time.process_time``: this process only, not the database server's).
"""

import argparse
import os
import statistics
import sys
import time
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    settings.SKYJO_AUTOPLAY = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        pieces = make_pieces()
        spent = {name: [] for name in pieces}
        for _ in range(args.repeats):
            for name, piece in pieces.items():
                start = time.process_time()
                for _ in range(args.calls):
                    piece()
                spent[name].append((time.process_time() - start) / args.calls * 1000)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"{connection.vendor}, {args.calls} calls x {args.repeats}: CPU ms per call")
    for name, times in spent.items():
        print(f"  {name:<34} best {min(times):6.3f}  median {statistics.median(times):6.3f}")


def make_pieces() -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.db.models import F
    from django.test import Client

    from accounts.models import User
    from games import presence, services
    from games.models import Game, Lobby
    from games.services import locks
    from web.sockets import access as sockets

    users = [get_user_model().objects.create_user(username=f"p{i}", password="x") for i in range(4)]
    lobby = services.lobby_create(host=users[0], name="bench", seat_count=4)
    for user in users[1:]:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    game = services.lobby_start(lobby_id=lobby.pk, user=users[0])
    client = Client()
    client.force_login(users[0])
    store = import_module(settings.SESSION_ENGINE).SessionStore
    session = store(client.cookies["sessionid"].value)
    scope = {"user": users[0], "session": session}

    def access_check_two_orm_reads():  # before: the user, then the session
        User.objects.filter(pk=users[0].pk).values("is_active", "is_banned", "password").first()
        store(session.session_key).load()

    def access_check_one_statement():  # now: web.sockets.access.session_alive
        assert sockets.session_alive(scope)

    def locks_lobby_game_players():  # before: lobby lock, game lock, players with lobby joined
        with transaction.atomic():
            Lobby.objects.select_for_update(of=("self",)).filter(games=game.pk).first()
            locked = Game.objects.select_for_update().get(pk=game.pk)
            list(
                locked.players.annotate(
                    grace=F("game__lobby__disconnect_grace"),
                    turn_clock=F("game__lobby__turn_clock"),
                )
            )

    def locks_game_and_players():  # now: services.locks.game + presence.seats_of
        with transaction.atomic():
            presence.seats_of(locks.game(game.pk))

    def empty_transaction():  # the floor: a transaction with one trivial statement
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    return {
        name: piece
        for name, piece in locals().items()
        if callable(piece) and name.startswith(("access", "locks", "empty"))
    }


if __name__ == "__main__":
    main()
