"""A running arena at scale for the benchmark (``manage.py seed_arena``): ``players`` players
with a history of finished tables (no games behind them: they only feed the pairing and the
standings), and ``tables`` tables in play, each a real game opened by games.services."""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from games import services as games_services
from tournaments import pairing, points
from tournaments.models import Entry, Table, TableSeat, Tournament


def seed_arena(*, players: int, tables: int, history: int, seed: int, log=print) -> Tournament:
    rng = random.Random(seed)
    now = timezone.now()
    User = get_user_model()
    password = make_password(None)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Benchmark arena {seed}",
            kind=Tournament.Kind.ARENA,
            status=Tournament.Status.RUNNING,
            is_public=True,
            starts_at=now - timedelta(minutes=30),
            started_at=now - timedelta(minutes=30),
            duration=90,
            max_players=max(players, 2),
            turn_clock=30,
            end_score=100,
            room=games_services.room_open(name=f"Benchmark arena {seed}", is_public=True),
        )
        prefix = f"a{tournament.pk}p"
        users = User.objects.bulk_create(
            User(
                username=f"{prefix}{i:04d}",
                password=password,
                rating_mu=rng.gauss(25, 4),
            )
            for i in range(players)
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, user=u, name=u.username, rating=u.rating, free_since=now)
            for u in users
        )
        log(f"{players} players")
        by_id = {e.pk: e for e in entries}
        for wave in range(history):
            order = [pairing.Player(id=e.pk, points=e.points, rating=e.rating) for e in entries]
            seated, _out = pairing.pair(order, 2, 4)
            made = Table.objects.bulk_create(
                Table(tournament=tournament, round=0, status=Table.Status.FINISHED, finished_at=now)
                for _ in seated
            )
            rows = []
            for table, ids in zip(made, seated, strict=True):
                totals = [rng.randint(0, 120) for _ in ids]
                for seat, (entry_id, place) in enumerate(
                    zip(ids, points.places(totals), strict=True)
                ):
                    entry = by_id[entry_id]
                    scored = points.arena_points(place, len(ids), entry.streak)
                    entry.points += scored.points
                    entry.streak = scored.streak
                    entry.games += 1
                    entry.wins += place == 1
                    rows.append(
                        TableSeat(
                            table=table,
                            entry_id=entry_id,
                            seat=seat,
                            playing=False,
                            place=place,
                            points=scored.points,
                        )
                    )
            TableSeat.objects.bulk_create(rows)
            log(f"history wave {wave + 1}: {len(made)} tables")
        Entry.objects.bulk_update(entries, ["points", "streak", "games", "wins"])
        rng.shuffle(entries)
        at, sizes = 0, [3] * tables
        for number, size in enumerate(sizes):
            seated = entries[at : at + size]
            if len(seated) < 2:
                break
            at += size
            game = games_services.table_open(
                name=f"{tournament.name} · {number + 1}",
                players=[(e.user, "") for e in seated],
                is_public=True,
                end_score=100,
                double_on_tie=True,
                final_reveal_clears_columns=True,
                turn_clock=30,
                disconnect_grace=60,
                rated=True,
            )
            table = Table.objects.create(tournament=tournament, game=game)
            TableSeat.objects.bulk_create(
                TableSeat(table=table, entry=e, seat=i) for i, e in enumerate(seated)
            )
            for entry in seated:  # each has opened their table: no no-show
                games_services.game_player_seen(game_id=game.pk, user=entry.user)
        log(f"{min(tables, len(entries) // 3)} tables in play, {len(entries) - at} players free")
    return tournament
