"""Correspondence games end to end, with simulated days (docs/correspondence.md): players who
move when they like and one whose time runs out, the runner at each deadline, e-mails through
the outbox, a restart in between, and the result in the correspondence rating. Each lobby
option for a timeout has its game."""

import random
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from core import caches
from games import autoplay, engine, services
from games.models import Game, GamePlayer
from games.tests.helpers import restore
from notifications import outbox
from notifications import services as notifications
from notifications.models import Outbox
from stats.models import GameResult, RatingChange
from stats.queries import player_profile

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SKYJO_NOTIFICATIONS = True
    settings.SKYJO_BOT_DELAY = 0


def correspondence_game(users, on_timeout):
    lobby = services.lobby_create(
        host=users[0],
        name="Letters",
        seat_count=len(users),
        move_days=1,
        on_timeout=on_timeout,
        end_score=1,  # one round: the game ends when it is scored
    )
    for user in users[1:]:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    for user in users:  # every turn mailed, however quickly they follow
        notifications.preference_update(
            user=user, turn_email=True, reminder_email=True, digest=False, quiet_minutes=0
        )
    return services.lobby_start(lobby_id=lobby.pk, user=users[0])


def turn_start(game):
    game.refresh_from_db()
    return game.turn_started_at


def mails_to(user, subject_start):
    return [m for m in mail.outbox if m.to == [user.email] and m.subject.startswith(subject_start)]


def play(game, users, idle, rng, *, restart_at: int) -> int:
    """Play ``game`` to its end: every seat but ``idle`` moves at once through the services;
    for ``idle`` the days pass (the runner at three quarters of the time, then at the
    deadline). After ``restart_at`` of the idle player's deadlines, the process restarts: what
    it held is gone. Returns how many deadlines passed."""
    deadlines = 0
    while True:
        state = restore(game)  # the game read anew
        if game.status != Game.Status.PLAYING:
            break
        seats = [s for s in state.to_act() if s != idle and not _forfeited(game, s)]
        if seats:
            seat = seats[0]
            step = rng.choice(state.legal_actions(seat)).to_json()
            services.game_apply_action(
                game_id=game.pk, user=users[seat], action=step, version=game.version
            )
            outbox.send_due()
            continue
        if _forfeited(game, idle):  # the bot has the seat: it plays at once
            assert autoplay.play_due_turns(now=timezone.now()) == 1
            continue
        start = turn_start(game)
        autoplay.play_due_turns(now=start + 0.75 * DAY)  # the reminder
        outbox.send_due()
        while turn_start(game) == start and game.status == Game.Status.PLAYING:
            assert autoplay.play_due_turns(now=start + DAY) == 1
        deadlines += 1
        if deadlines == restart_at:
            caches.clear_all()
    outbox.send_due()
    return deadlines


def _forfeited(game, seat) -> bool:
    return GamePlayer.objects.filter(game=game, seat=seat, forfeited=True).exists()


def test_a_game_where_the_bot_plays_the_turns_that_run_out(alice, bob):
    game = correspondence_game([alice, bob], "bot")
    # Both are to reveal: both are told, by e-mail.
    assert outbox.send_due() == 2
    assert mails_to(alice, "Your turn") and mails_to(bob, "Your turn")
    live_before = (alice.rating_mu, bob.rating_mu)

    deadlines = play(game, [alice, bob], 1, random.Random(3), restart_at=1)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and deadlines >= 2
    bob_row = GamePlayer.objects.get(game=game, seat=1)
    assert not bob_row.forfeited and not bob_row.waiting
    # Bob was reminded before each deadline, and told of each turn that came back to him.
    assert len(mails_to(bob, "Time is running out")) == deadlines
    assert len(mails_to(bob, "Your turn")) >= deadlines
    assert len(mails_to(alice, "Your turn")) >= 2
    assert not Outbox.objects.exclude(state__in=["sent", "skipped"]).exists()
    # The result counts in the correspondence rating only.
    assert GameResult.objects.filter(game=game).count() == 2
    kinds = set(RatingChange.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == {"correspondence"}
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.rating_mu, bob.rating_mu) == live_before
    assert alice.corr_rated_games == bob.corr_rated_games == 1


def test_a_game_that_goes_on_without_the_player_whose_time_ran_out(alice, bob, charlie):
    game = correspondence_game([alice, bob, charlie], "forfeit")
    outbox.send_due()

    deadlines = play(game, [alice, bob, charlie], 2, random.Random(5), restart_at=1)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and deadlines == 1  # then the bot at once
    assert GamePlayer.objects.get(game=game, seat=2).forfeited
    results = {r.seat: r for r in GameResult.objects.filter(game=game)}
    assert results[2].forfeited and results[2].place == 3 and not results[2].won
    assert any(results[s].won for s in (0, 1))
    assert player_profile(charlie, viewer=charlie).people.best_game is None  # partly the bot's
    assert player_profile(alice, viewer=alice).people.best_game["game_id"] == game.pk
    assert len(mails_to(charlie, "Time is running out")) == 1
    assert restore(game).phase == engine.GAME_OVER
    # Last in the correspondence rating too.
    for user in (alice, bob, charlie):
        user.refresh_from_db()
    assert charlie.corr_rating_mu < min(alice.corr_rating_mu, bob.corr_rating_mu)
