"""A player joins, pauses (an arena seats them no more until they come back) or withdraws.
Each runs holding the tournament's lock and refuses, changing nothing, what does not fit."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import BadRequest
from tournaments import locks, publish
from tournaments.errors import (
    AlreadyJoined,
    NotEntered,
    NotInvitedToTournament,
    TournamentClosed,
    TournamentFull,
    TournamentStarted,
)
from tournaments.models import Entry, Tournament

OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def tournament_join(*, tournament_id: int, user, invite_code: str | None = None) -> Entry:
    """Enter ``user``: before the start, or while an arena runs (before its end). A player who
    withdrew themself may come back; one withdrawn by the tournament may not."""
    with transaction.atomic():
        tournament = locks.tournament(tournament_id)
        if not tournament.is_public and not tournament.invited_by(invite_code):
            raise NotInvitedToTournament()
        if tournament.status in OVER:
            raise TournamentClosed()
        now = timezone.now()
        if tournament.status == Tournament.Status.RUNNING:
            if not tournament.is_arena:
                raise TournamentStarted()
            if now >= tournament.ends_at:
                raise TournamentClosed()
        entry = tournament.entries.filter(user=user).first()
        if entry is not None:
            if entry.status != Entry.Status.WITHDRAWN:
                raise AlreadyJoined()
            if entry.withdrawn_because:
                raise BadRequest(_("You were withdrawn from this tournament: you cannot rejoin."))
            entry.status, entry.free_since = Entry.Status.ACTIVE, now
            entry.save(update_fields=["status", "free_since"])
        else:
            if tournament.entries.count() >= tournament.max_players:
                raise TournamentFull()
            entry = Entry.objects.create(
                tournament=tournament,
                user=user,
                name=user.username,
                rating=user.rating,
                free_since=now,
            )
        bump(tournament)
    return entry


def entry_pause(*, tournament_id: int, user, paused: bool) -> Entry:
    """Pause (``paused``) or come back in an arena; a paused player keeps their points."""
    with transaction.atomic():
        tournament, entry = _mine(tournament_id, user)
        if not tournament.is_arena:
            raise BadRequest(_("Only an arena can be paused: withdraw from a Swiss tournament."))
        if entry.status == Entry.Status.WITHDRAWN:
            raise NotEntered()
        entry.status = Entry.Status.PAUSED if paused else Entry.Status.ACTIVE
        entry.free_since = timezone.now()
        entry.save(update_fields=["status", "free_since"])
        bump(tournament)
    return entry


def entry_withdraw(*, tournament_id: int, user) -> Entry:
    """Leave for good: seated no more (a game in play is played to its end); points stay."""
    with transaction.atomic():
        tournament, entry = _mine(tournament_id, user)
        if entry.status == Entry.Status.WITHDRAWN:
            raise NotEntered()
        withdraw(entry)
        bump(tournament)
    return entry


def withdraw(entry: Entry, because: str = "") -> None:
    entry.status, entry.withdrawn_because = Entry.Status.WITHDRAWN, because
    entry.save(update_fields=["status", "withdrawn_because"])


def bump(tournament: Tournament) -> None:
    """A change the live pages show: a new version, told after the commit."""
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version + 1)
    tournament.version += 1
    publish.changed(tournament.pk, tournament.version)


def _mine(tournament_id: int, user) -> tuple[Tournament, Entry]:
    tournament = locks.tournament(tournament_id)
    if tournament.status in OVER:
        raise TournamentClosed()
    entry = tournament.entries.filter(user=user).first()
    if entry is None:
        raise NotEntered()
    return tournament, entry
