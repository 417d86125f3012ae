"""Driving a tournament in tests: the runner's steps with a clock the test moves."""

from datetime import timedelta

from django.utils import timezone

from games import autoplay
from games import services as games_services
from games.models import GamePlayer
from tournaments.models import Table, Tournament
from tournaments.services import tournaments_tick

LATER = timedelta(days=1)


def play_games_out(limit: int = 20000) -> int:
    """Play every due turn (humans too: their clock has run out a day from now)."""
    steps = 0
    while steps < limit:
        played = autoplay.play_due_turns(now=timezone.now() + LATER, limit=200)
        if not played:
            return steps
        steps += played
    raise AssertionError("the games did not end")


def show_up(tournament: Tournament, users) -> None:
    """``users`` open their tables' game pages (a sign of life: no no-show)."""
    rows = GamePlayer.objects.filter(
        game__tournament_table__tournament=tournament,
        game__tournament_table__status=Table.Status.PLAYING,
        user__in=users,
        last_seen__isnull=True,
    ).select_related("user")
    for player in rows:
        games_services.game_player_seen(game_id=player.game_id, user=player.user, change=1)


def run(tournament: Tournament, *, start, step=timedelta(minutes=2), users=(), cycles=200):
    """Tick, show up, play out, move the clock by ``step``, until it is over. The times."""
    now = start
    for _ in range(cycles):
        tournaments_tick(now=now)
        tournament.refresh_from_db()
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return now
        show_up(tournament, users)
        play_games_out()
        now += step
    raise AssertionError("the tournament did not end")
