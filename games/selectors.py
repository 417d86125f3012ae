"""Reads of the games app: lobby lists, and a game as one user may see it."""

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.access import sees_private_games
from core.errors import NotFound, found
from games import clock, engine, presence
from games.models import Game, GamePlayer, Lobby, Move, Seat, Vacation


@dataclass(frozen=True, slots=True)
class GameState:
    """What one user may know of a game now: their seat's view and the public meta."""

    game: Game
    seat: int | None
    view: engine.View
    meta: dict
    offline: tuple = ()  # game_offline, for a socket that connects (game_state_for_user)


@dataclass(frozen=True, slots=True)
class Offline:
    """A human seat with no game socket open, not yet played by the bot (games.presence)."""

    seat: int
    name: str
    bot_at: datetime  # when the medium bot starts playing for them if they are not back


def open_lobbies():
    """Public lobbies waiting for players, newest first, with their seats."""
    return (
        Lobby.objects.filter(status=Lobby.Status.OPEN, is_public=True)
        .select_related("host")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at")[:50]
    )


def running_public_games():
    return (
        Game.objects.filter(status=Game.Status.PLAYING, lobby__is_public=True)
        .select_related("lobby")
        .prefetch_related("players")
        .order_by("-created_at")[:20]
    )


def games_awaiting(user, limit: int = 50):
    """The correspondence games waiting for ``user`` to act, the most urgent first."""
    if not user.is_authenticated:
        return Game.objects.none()
    return (
        Game.objects.filter(
            status=Game.Status.PLAYING, players__user=user.pk, players__waiting=True
        )
        .select_related("lobby")
        .prefetch_related("players")
        .order_by("turn_started_at")[:limit]
    )


def games_awaiting_deadlines(user, limit: int = 50) -> list[tuple[Game, datetime | None]]:
    """:func:`games_awaiting` with when ``user``'s time for each runs out (their vacations
    counted as the clock counts them; ``None``: no clock), the most urgent first."""
    games = list(games_awaiting(user, limit))
    starts = [g.turn_started_at for g in games if g.turn_started_at is not None]
    vacations = Vacation.objects.filter(user=user.pk, ends_at__gt=min(starts)) if starts else []
    spans = [(v.starts_at, v.ends_at) for v in vacations]
    found = []
    for game in games:
        players = list(game.players.all())
        for player in players:
            player.turn_clock = game.lobby.clock_seconds
        mine = next(p for p in players if p.user_id == user.pk)
        mine.vacations = spans
        found.append((game, clock.deadline(game, players, mine)))
    return found


@dataclass(frozen=True, slots=True)
class InProgress:
    """One of a player's games in play: its row (lobby read with it), its players by seat,
    the player's own seat, the round and the seats the game waits for (bots too)."""

    game: Game
    players: list
    seat: int
    round: int
    waiting: tuple[int, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat in self.waiting

    @property
    def waiting_names(self) -> list[str]:
        return [self.players[s].name for s in self.waiting if s != self.seat]


def games_in_progress(user, limit: int = 40) -> list[InProgress]:
    """``user``'s games in play, live and correspondence, the latest change first: two
    queries."""
    if not user.is_authenticated:
        return []
    rows = (
        Game.objects.filter(status=Game.Status.PLAYING, players__user=user.pk)
        .select_related("lobby")
        .prefetch_related(Prefetch("players", queryset=GamePlayer.objects.order_by("seat")))
        .order_by("-updated_at")[:limit]
    )
    found = []
    for game in rows:
        players = list(game.players.all())
        by_seat = {p.seat: p for p in players}
        state = engine.from_snapshot(game.snapshot)
        waiting = tuple(clock.waiting_for(game, state, by_seat) or ())
        seat = next(p.seat for p in players if p.user_id == user.pk)
        found.append(InProgress(game, players, seat, state.round, waiting))
    return found


def games_awaiting_count(user_id: int) -> int:
    """How many correspondence games wait for user ``user_id`` (the header's count)."""
    return GamePlayer.objects.filter(
        user_id=user_id, waiting=True, game__status=Game.Status.PLAYING
    ).count()


def vacation_of(user, now=None) -> Vacation | None:
    """``user``'s vacation running at ``now`` (default: now), or ``None``."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user.pk, starts_at__lte=now, ends_at__gt=now).first()


def vacation_days_left(user, now=None) -> int:
    """The vacation days ``user`` may still take in the calendar year of ``now`` (the days of
    the vacations begun in it count, a begun day whole)."""
    now = now or timezone.now()
    taken = Vacation.objects.filter(user=user.pk, starts_at__year=now.year)
    used = sum(math.ceil((v.ends_at - v.starts_at) / timedelta(days=1)) for v in taken)
    return max(0, settings.SKYJO_VACATION_DAYS - used)


def my_lobbies(user):
    if not user.is_authenticated:
        return Lobby.objects.none()
    return (
        Lobby.objects.filter(seats__user=user, status__in=[Lobby.Status.OPEN, Lobby.Status.PLAYING])
        .select_related("game")
        .distinct()
        .order_by("-created_at")[:20]
    )


def lobby_for_user(*, lobby_id: int, user, invite_code: str | None = None) -> Lobby:
    """The lobby, if ``user`` may see it (:func:`lobby_seen_by`)."""
    return lobby_seen_by(lobby_with_seats(lobby_id), user=user, invite_code=invite_code)


def lobby_with_seats(lobby_id: int) -> Lobby:
    """The lobby with its host, game and seated users (``NotFound`` if none)."""
    lobbies = Lobby.objects.select_related("host", "game")
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    return found(
        lobbies.prefetch_related(seats).filter(pk=lobby_id).first(), "There is no such lobby."
    )


def lobby_removed_ids(lobby: Lobby) -> frozenset[int]:
    """The users the host removed from ``lobby``."""
    return frozenset(lobby.removed_users.values_list("pk", flat=True))


def was_removed(lobby: Lobby, user, removed: frozenset[int] | None = None) -> bool:
    """Whether the host removed ``user`` from ``lobby`` (``removed``: lobby_removed_ids)."""
    if removed is not None:
        return user.pk in removed
    return lobby.removed_users.filter(pk=user.pk).exists()


def lobby_seen_by(
    lobby: Lobby,
    *,
    user,
    invite_code: str | None,
    removed: frozenset[int] | None = None,
    moderator: bool | None = None,
) -> Lobby:
    """``lobby`` if ``user`` may see it, else ``NotFound``: a private one only its seated
    players, moderators and invite holders the host did not remove. ``removed`` and
    ``moderator``: read already, if given."""
    if lobby.is_public:
        return lobby
    if user.is_authenticated and any(s.user_id == user.pk for s in lobby.seats.all()):
        return lobby
    if moderator if moderator is not None else sees_private_games(user):
        return lobby
    if user.is_authenticated and was_removed(lobby, user, removed):
        raise NotFound(_("The host removed you from this lobby."))  # they knew it was there
    if lobby.invited_by(invite_code):
        return lobby
    raise NotFound("There is no such lobby, or it is private.")


def game_for_user(*, game_id: int, user, invite_code: str | None = None) -> tuple[Game, int | None]:
    """The game and ``user``'s seat in it (``None``: a spectator), if they may see it."""
    game, _seats, seat = _watched(game_id, user, invite_code)
    return game, seat


@dataclass(frozen=True, slots=True)
class Ending:
    """How a player may end a game now: an abort (other people sit at the table, one of them
    has made no move of their own), and whether it counts (never for an abort)."""

    aborts: bool
    counts: bool


def ending(game: Game, seat: int | None) -> Ending | None:
    """How the player in ``seat`` may end ``game`` in play, or ``None`` (not theirs to end):
    the only human of a game against bots (counted once a move was made on their seat, the
    bot's too), or an abort between people."""
    if seat is None or game.status != Game.Status.PLAYING:
        return None
    players = list(game.players.all())
    if presence.is_sole_human(players, seat):
        return Ending(False, Move.objects.filter(game=game, seat=seat).exists())
    humans = {p.seat for p in players if not presence.is_bot(p)}
    own = Move.objects.filter(game=game, seat__in=humans, stand_in=False)
    if len(set(own.values_list("seat", flat=True))) < len(humans):
        return Ending(True, False)
    return None


def _watched(
    game_id: int, user, invite_code: str | None = None
) -> tuple[Game, presence.Seats, int | None]:
    """The game with its lobby, its seats and ``user``'s seat, if ``user`` may see it (a
    player, or :func:`may_watch`), else ``NotFound``."""
    game = found(
        Game.objects.select_related("lobby").filter(pk=game_id).first(), "There is no such game."
    )
    seats = presence.seats_of(game)
    seat = seats.seat_of(user.pk if user.is_authenticated else None)
    if seat is None and not may_watch(game.lobby, user, invite_code):
        raise NotFound("There is no such game, or it is private.")
    return game, seats, seat


def may_watch(lobby: Lobby, user, invite_code: str | None = None) -> bool:
    """Whether a non-player may watch ``lobby``'s games: public, invited, or a moderator."""
    return lobby.is_public or lobby.invited_by(invite_code) or sees_private_games(user)


def game_meta(game: Game, state: engine.Game | None = None, seats=None) -> dict:
    """What everyone may know of ``game`` beside the view (``state`` and ``seats``: if at
    hand)."""
    if game.status != Game.Status.PLAYING:
        seats = None
    elif seats is None:
        seats = presence.seats_of(game)
    away = presence.game_away_seats(game, seats=seats)
    if seats:
        state = state or engine.from_snapshot(game.snapshot)
        turn_clock = clock.public(game, state, seats.players, away)
    else:
        turn_clock = None
    return {
        "game": game.pk,
        "version": game.version,
        "status": game.status,
        "ready": list(game.ready),
        "rematch": game.rematch_id,
        "offers_rematch": game.status == Game.Status.FINISHED and game.lobby.offers_rematch,
        "resigned": game.resigned,
        "recent": game.recent,
        "away": away,
        "clock": turn_clock,
    }


def game_state(*, game: Game, seat: int | None, seats=None) -> GameState:
    """``seat``'s view of ``game`` as saved (``None``: the spectator's)."""
    state = engine.from_snapshot(game.snapshot)
    return GameState(game, seat, engine.view_of(state, seat), game_meta(game, state, seats))


def game_offline(game: Game, seats=None) -> tuple[Offline, ...]:
    """Who the table waits for: the human seats of a game in play with no socket open."""
    if game.status != Game.Status.PLAYING:
        return ()
    seats = seats or presence.seats_of(game)
    now = timezone.now()
    waiting = presence.offline(seats.players, grace=seats.grace, since=game.created_at, now=now)
    return tuple(Offline(p.seat, p.name, at) for p, at in waiting)


def game_offline_by_id(game_id: int) -> tuple[Offline, ...]:
    game = Game.objects.select_related("lobby").filter(pk=game_id).first()
    return () if game is None else game_offline(game)


def game_state_for_user(*, game_id: int, user, invite_code: str | None = None) -> GameState:
    """What ``user`` may see of the game now (``NotFound`` if nothing): two queries."""
    game, seats, seat = _watched(game_id, user, invite_code)
    state = game_state(game=game, seat=seat, seats=seats)
    return replace(state, offline=game_offline(game, seats))


def game_state_by_id(*, game_id: int, seat: int | None) -> GameState:
    return game_state(game=Game.objects.select_related("lobby").get(pk=game_id), seat=seat)


def game_version(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def name_left_in_games(name: str) -> bool:
    """Whether a deleted account played under ``name`` (in any letter case)."""
    return GamePlayer.objects.filter(user__isnull=True, bot_level="", name__iexact=name).exists()
