"""Who is at the table, from saved rows: a human seat is *away* after no sign of life for
longer than the lobby's grace (a crashed process's connections count ``STALE_HEARTBEATS``
heartbeats), or after ``AWAY_AFTER_TIMEOUTS`` turn-clock timeouts in a row. In a
correspondence game nobody is away: players come and go, and only its clock counts."""

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import GamePlayer, Vacation

STALE_HEARTBEATS = 3
AWAY_AFTER_TIMEOUTS = 2
NEVER = datetime(9999, 1, 1, tzinfo=UTC)


def away_at(player, *, grace: int | None, since: datetime) -> datetime:
    """When ``player`` counts as away if nothing changes (``since``: if never seen); ``grace``
    ``None`` (correspondence): never."""
    if grace is None:
        return NEVER
    if player.timeouts >= AWAY_AFTER_TIMEOUTS:  # idle at an open socket: away already
        return since
    seen = player.last_seen or since
    wait = grace
    if player.connections > 0:
        wait = max(grace, STALE_HEARTBEATS * settings.SKYJO_HEARTBEAT)
    return seen + timedelta(seconds=wait)


def is_bot(player) -> bool:
    """A bot seat, a seat whose account is gone or one that lost on time (the medium bot
    plays the last two)."""
    return player.user_id is None or player.forfeited


def is_sole_human(players, seat: int) -> bool:
    """Whether ``seat`` is the only human among ``players``."""
    return all(is_bot(p) for p in players if p.seat != seat)


def is_away(player, *, grace: int | None, since: datetime, now: datetime) -> bool:
    return not is_bot(player) and away_at(player, grace=grace, since=since) <= now


@dataclass(frozen=True, slots=True)
class Seats:
    """A game's GamePlayer rows by seat order, its lobby's disconnect grace in seconds (``None``
    for a correspondence game), what a timeout does there (``Lobby.on_timeout``) and when the
    rows were read (``time.monotonic``)."""

    players: list
    grace: int | None
    on_timeout: str = ""
    read_at: float = field(default_factory=time.monotonic, compare=False)

    @property
    def correspondence(self) -> bool:
        return self.grace is None

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        return next((p.seat for p in self.players if p.user_id == user_id), None)

    def by_seat(self) -> dict:
        return {p.seat: p for p in self.players}


def seats_of(game) -> Seats:
    """``game``'s seats, each row with the lobby's seconds per turn as ``turn_clock`` (and, in a
    correspondence game, its player's ``vacations`` since the turn began): one query if the
    lobby was read with the game (two for a correspondence game)."""
    lobby = game.lobby
    players = list(GamePlayer.objects.filter(game=game.pk).order_by("seat"))
    for player in players:
        player.game = game
        player.turn_clock = lobby.clock_seconds
    if not lobby.is_correspondence:
        return Seats(players, lobby.disconnect_grace)
    _add_vacations(players, game.turn_started_at or game.created_at)
    return Seats(players, None, lobby.on_timeout)


def _add_vacations(players, since: datetime | None) -> None:
    humans = {p.user_id: p for p in players if p.user_id is not None}
    for player in players:
        player.vacations = []
    rows = Vacation.objects.filter(user_id__in=humans, ends_at__gt=since) if since else ()
    for vacation in rows:
        humans[vacation.user_id].vacations.append((vacation.starts_at, vacation.ends_at))


def offline(players, *, grace: int | None, since: datetime, now: datetime) -> list[tuple]:
    """``(player, away_at)`` of the human seats with no socket open, not away yet."""
    waiting = []
    if grace is None:  # correspondence: no bot waits for anyone's return
        return waiting
    for player in players:
        if is_bot(player) or player.connections > 0:
            continue
        at = away_at(player, grace=grace, since=since)
        if at > now:
            waiting.append((player, at))
    return waiting


def game_away_seats(game, now: datetime | None = None, seats: Seats | None = None) -> list[int]:
    """Human seats of ``game`` played by the medium bot now (away longer than the grace)."""
    if game.status != "playing":
        return []
    seats = seats or seats_of(game)
    now = now or timezone.now()
    away = [
        p for p in seats.players if is_away(p, grace=seats.grace, since=game.created_at, now=now)
    ]
    return [p.seat for p in away]
