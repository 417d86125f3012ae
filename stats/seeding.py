"""Fill a database with realistic finished games quickly (``manage.py seed_games``): a pool of
games the easy bot played to the end, dealt to players sampled with a skew, written in chunks
(COPY on PostgreSQL). Deterministic for a ``seed``."""

import itertools
import json
import random
import secrets
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.color import no_style
from django.db import DatabaseError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import shown_rating
from games import engine
from games.bots import LEVEL_LABELS, get_bot
from games.models import Game, GamePlayer, Lobby, Move, Round
from games.services.lobbies import seat_names
from stats.models import GameResult, RatingChange, RoundResult
from stats.ratings import MODEL
from stats.recording import columns_removed, figures_changed

PLAYER_COUNTS = (2, 3, 4, 5, 6)
PLAYER_WEIGHTS = (30, 25, 25, 12, 8)
BOT_GAMES = 0.2
PUBLIC = 0.9


@dataclass
class Played:
    n: int
    snapshot: dict
    rounds: list[dict]
    moves: list[tuple[int, int, str, str | None]]
    totals: list[int]

    @cached_property
    def move_lines(self) -> list[bytes]:
        """The moves as COPY text without the game and the time (nothing to escape)."""
        return [
            f"{v}\t{number}\t{seat}\t{action}\t{reshuffle or chr(92) + 'N'}".encode()
            for v, (number, seat, action, reshuffle) in enumerate(self.moves, start=1)
        ]


def play(n: int, seed: int) -> Played:
    """One game of ``n`` easy bots, to the end, with what its rows need."""
    rng = random.Random(seed)
    bot = get_bot("easy")
    state = engine.Game([f"p{i}" for i in range(n)], seed=seed)
    rounds = [{"deck": list(state.log.deck)}]
    moves = []
    while not state.finished:
        if state.phase == engine.ROUND_OVER:
            state.next_round()
            rounds.append({"deck": list(state.log.deck)})
            continue
        seat = state.to_act()[0]
        action = bot.choose(engine.view_of(state, seat), rng)
        number, before = state.round, len(state.results)
        state.apply(seat, action)
        reshuffle = json.dumps(state.last_reshuffle) if state.last_reshuffle else None
        moves.append((number, seat, json.dumps(action.to_json()), reshuffle))
        if len(state.results) > before:
            result = state.results[-1]
            rounds[-1].update(
                starter=result.starter,
                ender=result.ender,
                raw=list(result.raw),
                scores=list(result.scores),
                doubled=result.doubled,
                columns=[columns_removed(c) for c in state.cards],
                turned=list(state.turned_at_end),
            )
    return Played(n, engine.to_snapshot(state), rounds, moves, list(state.totals))


class Writer:
    """Rows by model: COPY on PostgreSQL, bulk_create elsewhere; columns not given take their
    field's default."""

    def __init__(self):
        self.rows: dict[type, list[dict]] = {}
        self.moves: list[bytes] = []
        self.copy = connection.vendor == "postgresql"

    def add(self, model, **values) -> None:
        self.rows.setdefault(model, []).append(values)

    def flush(self) -> None:
        """Write the rows, in the caller's transaction; on PostgreSQL without foreign-key checks
        when the role may (they doubled the time; the rows are consistent by construction)."""
        if self.copy:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
                try:
                    with transaction.atomic():
                        cursor.execute("SET LOCAL session_replication_role = replica")
                except DatabaseError:
                    pass
        if self.moves:
            self._copy_text(
                Move,
                [
                    "game_id",
                    "version",
                    "round",
                    "seat",
                    "action",
                    "reshuffle",
                    "created_at",
                    "stand_in",
                ],
                self.moves,
            )
        for model, rows in self.rows.items():
            if self.copy:
                self._copy(model, rows)
            else:
                model.objects.bulk_create([model(**row) for row in rows], batch_size=500)
        self.rows = {}

    @staticmethod
    def _copy_text(model, names: list[str], chunks: list[bytes]) -> None:
        """COPY lines already in COPY's text format (the columns ``names``, in order)."""
        fields = model._meta.concrete_fields
        extra = [f for f in fields if f.attname not in names and not f.primary_key]
        if extra:
            raise NotImplementedError(f"{model.__name__} has new columns: {extra}")
        with _copy_into(model, names) as copy:
            for chunk in chunks:
                copy.write(chunk)

    @staticmethod
    def _copy(model, rows: list[dict]) -> None:
        given = rows[0].keys()
        fields = [f for f in model._meta.concrete_fields if f.attname in given or not f.primary_key]
        defaults = {f.attname: _json(f.get_default()) for f in fields if f.attname not in given}
        with _copy_into(model, [f.attname for f in fields]) as copy:
            for row in rows:
                copy.write_row(
                    [
                        _json(row[f.attname]) if f.attname in row else defaults[f.attname]
                        for f in fields
                    ]
                )


@contextmanager
def _copy_into(model, names: list[str]):
    """A COPY into ``model``'s table, of the columns of the fields ``names``."""
    fields = {f.attname: f for f in model._meta.concrete_fields}
    columns = ", ".join(connection.ops.quote_name(fields[n].column) for n in names)
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        yield copy


def _json(value):
    return json.dumps(value) if isinstance(value, list | dict) else value


def _next_id(model) -> int:
    return (model.objects.aggregate(m=Max("pk"))["m"] or 0) + 1


def seed_games(
    *, games: int, players: int, seed: int, pool: int = 400, chunk: int = 2000, log=print
):
    rng = random.Random(seed)
    log(f"playing a pool of {pool} games with the engine")
    played = [
        play(rng.choices(PLAYER_COUNTS, PLAYER_WEIGHTS)[0], seed * 100_003 + i) for i in range(pool)
    ]
    by_n = {n: [p for p in played if p.n == n] for n in PLAYER_COUNTS}
    User = get_user_model()
    now = timezone.now()
    start = now - timedelta(days=365)
    password = make_password(secrets.token_urlsafe(16))
    first_user = _next_id(User)
    users = [
        User(id=first_user + k, username=f"s{seed}p{k:05d}", password=password, date_joined=start)
        for k in range(players)
    ]
    User.objects.bulk_create(users, batch_size=1000)
    ratings = {u.pk: [25.0, 25.0 / 3, 0] for u in users}
    weights = list(itertools.accumulate(1 / (k + 5) for k in range(players)))
    game_id, lobby_id = _next_id(Game), _next_id(Lobby)
    step = timedelta(days=365) / max(games, 1)
    done = 0
    while done < games:
        writer = Writer()
        for i in range(done, min(games, done + chunk)):
            _one(writer, rng, by_n, users, weights, ratings, game_id, lobby_id, start + step * i)
            game_id += 1
            lobby_id += 1
        with transaction.atomic():
            writer.flush()
        done = min(games, done + chunk)
        log(f"{done} games")
    for user in users:
        user.rating_mu, user.rating_sigma, user.rated_games = ratings[user.pk]
    with transaction.atomic():
        User.objects.bulk_update(
            users, ["rating_mu", "rating_sigma", "rated_games"], batch_size=1000
        )
        figures_changed(u.pk for u in users)
        models = [User, Lobby, Game, GamePlayer, Round, Move, RoundResult, GameResult, RatingChange]
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(sql)


def _one(writer, rng, by_n, users, weights, ratings, game_id, lobby_id, when) -> None:
    n = rng.choices(PLAYER_COUNTS, PLAYER_WEIGHTS)[0]
    game = rng.choice(by_n[n] or [p for ps in by_n.values() for p in ps])
    n = game.n
    bots = rng.randint(1, n - 1) if rng.random() < BOT_GAMES else 0
    humans = []
    while len(humans) < n - bots:
        user = users[rng.choices(range(len(users)), cum_weights=weights)[0]]
        if user not in humans:
            humans.append(user)
    level = rng.choice(tuple(LEVEL_LABELS))
    seats = humans + [None] * bots
    rng.shuffle(seats)
    names = seat_names([(user, "" if user else level) for user in seats])
    public = rng.random() < PUBLIC
    with_bots = bots > 0
    host = next(u for u in seats if u is not None)
    finished_at = when + timedelta(minutes=20)
    writer.add(
        Lobby,
        id=lobby_id,
        name=f"{host.username}'s table",
        host_id=host.pk,
        seat_count=n,
        is_public=public,
        invite_code=f"seed{game_id}x{rng.getrandbits(48):x}",
        status=Lobby.Status.FINISHED,
        created_at=when,
        game_id=game_id,
    )
    snapshot = {**game.snapshot, "players": names}
    writer.add(
        Game,
        id=game_id,
        lobby_id=lobby_id,
        seed=rng.getrandbits(62),
        version=len(game.moves) + len(game.rounds) - 1,
        snapshot=snapshot,
        phase=engine.GAME_OVER,
        status=Game.Status.FINISHED,
        created_at=when,
        updated_at=finished_at,
        finished_at=finished_at,
    )
    best = min(game.totals)
    for seat, user in enumerate(seats):
        result = {"total": game.totals[seat], "won": game.totals[seat] == best}
        user_id = user.pk if user else None
        row = {"game_id": game_id, "seat": seat, "user_id": user_id}
        writer.add(GamePlayer, **row, **result, bot_level="" if user else level, name=names[seat])
        common = dict(
            **row, is_bot=user is None, player_count=n, with_bots=with_bots, is_public=public
        )
        writer.add(
            GameResult,
            **common,
            **result,
            place=1 + sum(t < game.totals[seat] for t in game.totals),
            rounds=len(game.rounds),
            finished_at=finished_at,
        )
        for number, rnd in enumerate(game.rounds, start=1):
            ended = rnd["ender"] == seat
            writer.add(
                RoundResult,
                **common,
                number=number,
                counted=True,
                score=rnd["scores"][seat],
                raw=rnd["raw"][seat],
                ended=ended,
                doubled=ended and rnd["doubled"],
                columns_removed=rnd["columns"][seat],
                turned_at_end=rnd["turned"][seat],
                scored_at=when + timedelta(minutes=2 * number),
            )
    for number, rnd in enumerate(game.rounds, start=1):
        row = {name: rnd[name] for name in ("deck", "starter", "ender", "raw", "scores")}
        writer.add(
            Round,
            **row,
            game_id=game_id,
            number=number,
            dealt_at=when + timedelta(minutes=2 * number - 2),
            scored_at=when + timedelta(minutes=2 * number),
        )
    if writer.copy:
        # The seeded players made every move themselves: no stand-in.
        prefix, suffix = f"{game_id}\t".encode(), f"\t{when.isoformat()}\tf\n".encode()
        writer.moves.append(b"".join(prefix + line + suffix for line in game.move_lines))
        return _rate(writer, game, seats, ratings, game_id, finished_at)
    for version, (number, seat, action, reshuffle) in enumerate(game.moves, start=1):
        writer.add(
            Move,
            game_id=game_id,
            version=version,
            round=number,
            seat=seat,
            action=json.loads(action),
            reshuffle=json.loads(reshuffle) if reshuffle else None,
            created_at=when,
        )
    _rate(writer, game, seats, ratings, game_id, finished_at)


def _rate(writer, game, seats, ratings, game_id, finished_at) -> None:
    rated = sorted(
        (user.pk, game.totals[seat]) for seat, user in enumerate(seats) if user is not None
    )
    if len(rated) < 2:
        return
    before = [ratings[pk] for pk, _ in rated]
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
    result = MODEL.rate(teams, ranks=[total for _, total in rated])
    for (pk, _), (mu, sigma, count), [new] in zip(rated, before, result, strict=True):
        ratings[pk] = [new.mu, new.sigma, count + 1]
        writer.add(
            RatingChange,
            user_id=pk,
            game_id=game_id,
            mu_before=mu,
            sigma_before=sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
            rating_before=shown_rating(mu, sigma),
            rating_after=shown_rating(new.mu, new.sigma),
            rated_at=finished_at,
        )
