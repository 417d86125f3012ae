"""Every bad input gets a clear error and changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments import errors
from tournaments.models import Entry, Tournament
from tournaments.services import (
    entry_pause,
    entry_withdraw,
    tournament_create,
    tournament_join,
    tournaments_tick,
)

pytestmark = pytest.mark.django_db


def _make(by, **options):
    settings = {"name": "Cup", "kind": "arena", "starts_at": timezone.now(), "duration": 30}
    settings.update(options)
    return tournament_create(by=by, **settings)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"starts_at": timezone.now() - timedelta(hours=1)}, "past"),
        ({"duration": 45}, "30, 60, 90, 120 minutes"),
        ({"table_min": 1}, "2 to 4 seats"),
        ({"table_max": 5}, "2 to 4 seats"),
        ({"table_min": 4, "table_max": 3}, "2 to 4 seats"),
        ({"turn_clock": 0}, "turn clock"),
        ({"kind": "swiss", "rounds": 0}, "1 to 11 rounds"),
        ({"name": "  "}, "name"),
        ({"max_players": 1}, "2 to 1000 players"),
    ],
)
def test_a_tournament_out_of_range_is_refused(alice, options, words):
    if "starts_at" in options:
        options["starts_at"] = timezone.now() - timedelta(hours=1)
    with pytest.raises(errors.InvalidTournament) as refused:
        _make(alice, **options)
    assert words in refused.value.message
    assert not Tournament.objects.exists()


def test_only_moderators_make_public_or_repeating_ones(alice, moderator):
    with pytest.raises(errors.NotModerator):
        _make(alice, is_public=True)
    with pytest.raises(errors.NotModerator):
        _make(alice, is_public=True, repeat="daily")
    assert not Tournament.objects.exists()
    made = _make(moderator, is_public=True, repeat="daily")
    assert made.is_public and made.repeat == "daily"


def test_joining_without_the_link_twice_full_or_finished_is_refused(alice, bob, charlie):
    tournament = _make(alice, max_players=2)
    with pytest.raises(errors.NotInvitedToTournament):
        tournament_join(tournament_id=tournament.pk, user=bob, invite_code="wrong")
    code = tournament.invite_code
    tournament_join(tournament_id=tournament.pk, user=bob, invite_code=code)
    with pytest.raises(errors.AlreadyJoined):  # twice, or from a second tab
        tournament_join(tournament_id=tournament.pk, user=bob, invite_code=code)
    tournament_join(tournament_id=tournament.pk, user=alice, invite_code=code)
    with pytest.raises(errors.TournamentFull):
        tournament_join(tournament_id=tournament.pk, user=charlie, invite_code=code)
    assert Entry.objects.count() == 2
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(errors.TournamentClosed):
        entry_withdraw(tournament_id=tournament.pk, user=bob)
    with pytest.raises(errors.TournamentClosed):
        tournament_join(tournament_id=tournament.pk, user=charlie, invite_code=code)


def test_a_started_swiss_takes_nobody_and_cannot_be_paused(alice, bob):
    tournament = _make(alice, kind="swiss", rounds=2, bots=3)
    code = tournament.invite_code
    tournament_join(tournament_id=tournament.pk, user=alice, invite_code=code)
    tournaments_tick(now=tournament.starts_at)
    with pytest.raises(errors.TournamentStarted):
        tournament_join(tournament_id=tournament.pk, user=bob, invite_code=code)
    with pytest.raises(errors.NotEntered):
        entry_withdraw(tournament_id=tournament.pk, user=bob)
    from core.errors import BadRequest

    with pytest.raises(BadRequest):
        entry_pause(tournament_id=tournament.pk, user=alice, paused=True)
    assert Entry.objects.get(user=alice).status == Entry.Status.ACTIVE


def test_a_repeating_tournament_schedules_its_next_when_it_starts(moderator):
    made = _make(moderator, is_public=True, repeat="hourly", bots=2)
    tournaments_tick(now=made.starts_at)
    following = Tournament.objects.exclude(pk=made.pk).get()
    assert following.status == Tournament.Status.SCHEDULED
    assert following.starts_at == made.starts_at + timedelta(hours=1)
    assert following.entries.count() == 2 and following.repeat == "hourly"
