"""Making a tournament: a private one by any player (joined by its invite link), a public one,
once or repeating, by a moderator. Bots may be entered at once."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from core.access import is_moderator
from core.text import has_nothing_to_see, one_line
from games import services as games_services
from games.bots import LEVEL_LABELS, LEVELS
from games.models import TURN_CLOCKS
from games.services import MAX_END_SCORE
from tournaments import publish
from tournaments.errors import InvalidTournament, NotModerator
from tournaments.models import (
    DURATIONS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TABLE,
    MIN_TABLE,
    Entry,
    Tournament,
)

MAX_NAME = 60
MAX_AHEAD = timedelta(days=60)
PAST_SLACK = timedelta(minutes=1)


def tournament_create(
    *,
    by,
    name: str,
    kind: str,
    starts_at,
    duration: int | None = None,
    rounds: int | None = None,
    table_min: int = 2,
    table_max: int = 4,
    max_players: int = 100,
    turn_clock: int = 30,
    end_score: int = 100,
    double_on_tie: bool = True,
    final_reveal_clears_columns: bool = True,
    rated: bool = True,
    is_public: bool = False,
    repeat: str = "",
    bots: int = 0,
    bot_level: str = "medium",
    now=None,
) -> Tournament:
    """A tournament starting at ``starts_at``: an arena of ``duration`` minutes (DURATIONS) or
    ``rounds`` Swiss rounds (1 to MAX_ROUNDS), tables of ``table_min`` to ``table_max`` seats,
    the turn clock on. Public and repeating ones are for moderators only."""
    now = now or timezone.now()
    name = one_line(name or "")
    if has_nothing_to_see(name) or len(name) > MAX_NAME:
        raise InvalidTournament(
            format_lazy(_("A tournament needs a name of 1 to {max} characters."), max=MAX_NAME)
        )
    if kind not in Tournament.Kind.values:
        raise InvalidTournament(_("Choose a format: arena or Swiss."))
    if (is_public or repeat) and not is_moderator(by):
        raise NotModerator()
    if repeat not in Tournament.Repeat.values or (repeat and not is_public):
        raise InvalidTournament(_("Only public tournaments repeat: hourly, daily or weekly."))
    if starts_at is None or starts_at < now - PAST_SLACK:
        raise InvalidTournament(_("The start must not be in the past."))
    if starts_at > now + MAX_AHEAD:
        raise InvalidTournament(_("The start must be within 60 days."))
    if kind == Tournament.Kind.ARENA:
        rounds = None
        if duration not in DURATIONS:
            raise InvalidTournament(
                format_lazy(
                    _("An arena lasts {minutes} minutes."),
                    minutes=", ".join(str(d) for d in DURATIONS),
                )
            )
    else:
        duration = None
        if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidTournament(
                format_lazy(_("A Swiss tournament has 1 to {max} rounds."), max=MAX_ROUNDS)
            )
    sizes = (table_min, table_max)
    if any(type(s) is not int for s in sizes) or not MIN_TABLE <= table_min <= table_max <= 4:
        raise InvalidTournament(
            format_lazy(_("Tables have {min} to {max} seats."), min=MIN_TABLE, max=MAX_TABLE)
        )
    if type(max_players) is not int or not 2 <= max_players <= MAX_PLAYERS:
        raise InvalidTournament(
            format_lazy(_("A tournament takes 2 to {max} players."), max=MAX_PLAYERS)
        )
    if type(turn_clock) is not int or turn_clock not in TURN_CLOCKS or not turn_clock:
        raise InvalidTournament(
            format_lazy(
                _("Tournament games have a turn clock of {seconds} seconds."),
                seconds=", ".join(str(s) for s in TURN_CLOCKS if s),
            )
        )
    if type(end_score) is not int or not 1 <= end_score <= MAX_END_SCORE:
        raise InvalidTournament(
            format_lazy(_("The end score must be from 1 to {max}."), max=MAX_END_SCORE)
        )
    if type(bots) is not int or not 0 <= bots <= max_players or bot_level not in LEVELS:
        raise InvalidTournament(_("Add bots of one level, no more than the players allowed."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            kind=kind,
            created_by=by,
            is_public=bool(is_public),
            starts_at=starts_at,
            duration=duration,
            rounds=rounds,
            table_min=table_min,
            table_max=table_max,
            max_players=max_players,
            turn_clock=turn_clock,
            end_score=end_score,
            double_on_tie=bool(double_on_tie),
            final_reveal_clears_columns=bool(final_reveal_clears_columns),
            rated=bool(rated),
            repeat=repeat,
            room=games_services.room_open(name=name, is_public=bool(is_public)),
        )
        add_bots(tournament, bots, bot_level)
        publish.changed(tournament.pk, tournament.version)
    return tournament


def add_bots(tournament: Tournament, count: int, level: str) -> None:
    label = LEVEL_LABELS[level]
    Entry.objects.bulk_create(
        Entry(tournament=tournament, bot_level=level, name=f"{label} bot {i + 1}")
        for i in range(count)
    )


def next_of(tournament: Tournament) -> Tournament | None:
    """The next tournament of a repeating one (same settings), made when it starts."""
    step = {"hourly": timedelta(hours=1), "daily": timedelta(days=1)}.get(
        tournament.repeat, timedelta(weeks=1)
    )
    if not tournament.repeat:
        return None
    copy = Tournament.objects.get(pk=tournament.pk)
    copy.pk = None
    copy.invite_code = Tournament._meta.get_field("invite_code").get_default()
    copy.status, copy.round, copy.version = Tournament.Status.SCHEDULED, 0, 0
    copy.starts_at, copy.started_at, copy.finished_at = tournament.starts_at + step, None, None
    copy.room = games_services.room_open(name=copy.name, is_public=copy.is_public)
    copy.save(force_insert=True)
    bots = list(tournament.entries.filter(user__isnull=True).exclude(bot_level=""))
    if bots:
        add_bots(copy, len(bots), bots[0].bot_level)
    return copy
