"""Correspondence games (docs/correspondence.md): days per move, nobody away, the 'your turn'
flags and signals, reminders, timeouts by the lobby's option, late moves and vacations. Time is
simulated: the runner is given ``now``, and rows' times are moved back."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from core import caches
from core.errors import Forfeited, InvalidLobby, InvalidVacation, TimeRanOut, TooManyTables
from games import autoplay, engine, selectors, services, signals
from games.models import Game, GamePlayer, Lobby, Move, Vacation
from games.tests.helpers import restore, reveal_all

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _no_delay(settings):
    settings.SKYJO_BOT_DELAY = 0


@pytest.fixture
def told():
    """Every turn_waits and turn_reminder sent, as (kind, game id, {user id: deadline})."""
    heard = []

    def waits(sender, game, deadlines, **kwargs):
        heard.append(("waits", game.pk, deadlines))

    def reminder(sender, game, deadlines, **kwargs):
        heard.append(("reminder", game.pk, deadlines))

    signals.turn_waits.connect(waits)
    signals.turn_reminder.connect(reminder)
    yield heard
    signals.turn_waits.disconnect(waits)
    signals.turn_reminder.disconnect(reminder)


def corr_game(host, *others, days=2, on_timeout="bot", end_score=100):
    lobby = services.lobby_create(
        host=host,
        name="Letters",
        seat_count=1 + len(others),
        move_days=days,
        on_timeout=on_timeout,
        end_score=end_score,
    )
    for user in others:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    return services.lobby_start(lobby_id=lobby.pk, user=host)


def waiting(game):
    rows = GamePlayer.objects.filter(game=game).order_by("seat")
    return [p.seat for p in rows if p.waiting]


def started(game):
    game.refresh_from_db()
    return game.turn_started_at


def to_play(game, users):
    reveal_all(game, users)
    state = restore(game)
    assert state.phase == engine.PLAY
    return state


def play_turn(game, user):
    """``user``, to play, draws from the deck and makes the first legal placement."""
    seat = restore(game).current
    services.game_apply_action(
        game_id=game.pk, user=user, action={"take": "deck"}, version=game.version
    )
    step = restore(game).legal_actions(seat)[0].to_json()
    services.game_apply_action(game_id=game.pk, user=user, action=step, version=game.version)
    assert restore(game).current != seat


def run_until_turn_changes(game, now):
    """The runner plays at ``now`` until the seat to play changes; returns the steps."""
    seat, steps = restore(game).current, 0
    while restore(game).current == seat and game.status == Game.Status.PLAYING:
        assert autoplay.play_due_turns(now=now) == 1
        steps += 1
        game.refresh_from_db()
    return steps


# ------------------------------------------------------------------------ the lobby's option


@pytest.mark.parametrize("days", [1, 2, 3, 7])
def test_a_lobby_keeps_its_days_per_move(alice, days):
    lobby = services.lobby_create(host=alice, name="c", move_days=days, turn_clock=30)
    lobby.refresh_from_db()
    assert lobby.move_days == days and lobby.is_correspondence
    assert lobby.turn_clock == 0 and lobby.clock_seconds == days * 86400


@pytest.mark.parametrize("days", [-1, 4, 14, "2", 2.0, None])
def test_it_refuses_a_time_per_move_not_offered(alice, days):
    with pytest.raises(InvalidLobby, match="1, 2, 3, 7 days"):
        services.lobby_create(host=alice, name="c", move_days=days)
    assert not Lobby.objects.exists()


def test_it_refuses_an_unknown_timeout_option(alice):
    with pytest.raises(InvalidLobby, match="the player loses"):
        services.lobby_create(host=alice, name="c", move_days=2, on_timeout="nothing")
    assert not Lobby.objects.exists()


def test_correspondence_tables_have_a_limit_of_their_own(settings, alice):
    settings.SKYJO_MAX_TABLES, settings.SKYJO_MAX_CORRESPONDENCE_TABLES = 1, 2
    services.lobby_create(host=alice, name="live")
    services.lobby_create(host=alice, name="c1", move_days=1)
    services.lobby_create(host=alice, name="c2", move_days=3)
    with pytest.raises(TooManyTables):
        services.lobby_create(host=alice, name="c3", move_days=7)
    with pytest.raises(TooManyTables):
        services.lobby_create(host=alice, name="live 2")
    assert Lobby.objects.count() == 3


# ------------------------------------------------------------------ whose turn, told once


def test_the_game_waits_for_everyone_to_reveal_then_for_the_player_to_play(alice, bob, told):
    game = corr_game(alice, bob, days=2)
    assert waiting(game) == [0, 1]
    [(kind, game_id, deadlines)] = told
    assert (kind, game_id) == ("waits", game.pk)
    assert deadlines == {alice.pk: started(game) + 2 * DAY, bob.pk: started(game) + 2 * DAY}
    assert [g.pk for g in selectors.games_awaiting(alice)] == [game.pk]
    assert selectors.games_awaiting_count(bob.pk) == 1
    state = to_play(game, [alice, bob])
    assert waiting(game) == [state.current]
    player, other = [alice, bob][state.current], [alice, bob][1 - state.current]
    assert selectors.games_awaiting_count(other.pk) == 0
    assert list(selectors.games_awaiting(other)) == []
    told.clear()
    play_turn(game, player)
    assert waiting(game) == [1 - state.current]
    assert told == [("waits", game.pk, {other.pk: started(game) + 2 * DAY})]
    assert selectors.games_awaiting_count(player.pk) == 0


def test_a_live_game_keeps_no_turn_flags(alice, bob, told):
    lobby = services.lobby_create(host=alice, name="live", seat_count=2, turn_clock=30)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    assert waiting(game) == [] and told == []


def test_nobody_is_away_only_the_clock_counts(alice, bob):
    game = corr_game(alice, bob, days=1)
    state = to_play(game, [alice, bob])
    long_ago = timezone.now() - timedelta(hours=20)
    GamePlayer.objects.filter(game=game).update(last_seen=long_ago, connections=0)
    start = started(game)
    assert autoplay.play_due_turns(now=start + DAY - timedelta(seconds=1)) == 0
    assert restore(game).current == state.current and Move.objects.filter(game=game).count() == 4
    assert selectors.game_offline(game) == ()  # no bot countdown for anyone


def test_the_runner_reminds_at_a_quarter_of_the_time_left_once(alice, bob, told):
    game = corr_game(alice, bob, days=2)
    state = to_play(game, [alice, bob])
    start, player = started(game), [alice, bob][state.current]
    assert game.bot_due_at == start + 1.5 * DAY
    before = len(told)
    assert autoplay.play_due_turns(now=start + 1.5 * DAY - timedelta(seconds=1)) == 0
    assert len(told) == before
    assert autoplay.play_due_turns(now=start + 1.5 * DAY) == 0  # a reminder is no step
    assert told[-1] == ("reminder", game.pk, {player.pk: start + 2 * DAY})
    game.refresh_from_db()
    assert game.bot_due_at == start + 2 * DAY  # next: the deadline, no second reminder
    assert autoplay.play_due_turns(now=start + 1.9 * DAY) == 0
    assert len(told) == before + 1


# ---------------------------------------------------------------------------- time runs out


def test_out_of_time_the_medium_bot_plays_the_turn(alice, bob, told):
    game = corr_game(alice, bob, days=1, on_timeout="bot")
    state = to_play(game, [alice, bob])
    idle, start = state.current, started(game)
    assert autoplay.play_due_turns(now=start + DAY - timedelta(seconds=1)) == 0
    assert run_until_turn_changes(game, start + DAY) in (1, 2)
    rows = GamePlayer.objects.filter(game=game).order_by("seat")
    assert not any(p.forfeited for p in rows) and rows[idle].timeouts >= 1
    assert waiting(game) == [1 - idle]
    assert told[-1][0] == "waits" and set(told[-1][2]) == {[alice, bob][1 - idle].pk}
    # The player's next turn is theirs again, with a full period.
    assert started(game) > start


def test_out_of_time_the_player_forfeits_and_the_game_goes_on(alice, bob, charlie):
    game = corr_game(alice, bob, charlie, days=1, on_timeout="forfeit")
    state = to_play(game, [alice, bob, charlie])
    idle = state.current
    loser = [alice, bob, charlie][idle]
    run_until_turn_changes(game, started(game) + DAY)
    player = GamePlayer.objects.get(game=game, seat=idle)
    assert player.forfeited and not player.waiting
    assert game.status == Game.Status.PLAYING
    # From now on the medium bot plays that seat at once, and its player may not move.
    game.refresh_from_db()
    with pytest.raises(Forfeited):
        services.game_apply_action(
            game_id=game.pk, user=loser, action={"take": "deck"}, version=game.version
        )
    while restore(game).current != idle:
        seat = restore(game).current
        user = [alice, bob, charlie][seat]
        step = restore(game).legal_actions(seat)[0].to_json()
        services.game_apply_action(game_id=game.pk, user=user, action=step, version=game.version)
    assert autoplay.play_due_turns(now=timezone.now()) == 1  # no waiting for the clock
    assert idle not in waiting(game)


def test_a_move_after_the_deadline_is_refused_and_changes_nothing(alice, bob):
    game = corr_game(alice, bob, days=1)
    state = to_play(game, [alice, bob])
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - DAY)
    caches.clear_all()
    game.refresh_from_db()
    version = game.version
    with pytest.raises(TimeRanOut):
        services.game_apply_action(
            game_id=game.pk,
            user=[alice, bob][state.current],
            action={"take": "deck"},
            version=game.version,
        )
    game.refresh_from_db()
    assert game.version == version and restore(game).drawn is None


def test_a_deadline_passed_while_the_server_was_down_is_handled_at_start(alice, bob):
    game = corr_game(alice, bob, days=3)
    state = to_play(game, [alice, bob])
    start = started(game)
    caches.clear_all()  # a new process: nothing held, only the rows
    assert run_until_turn_changes(game, start + 5 * DAY) in (1, 2)
    assert restore(game).current == 1 - state.current


# -------------------------------------------------------------------------------- vacations


def test_a_vacation_moves_the_deadline_on(alice, bob):
    game = corr_game(alice, bob, days=1)
    state = to_play(game, [alice, bob])
    player, start = [alice, bob][state.current], started(game)
    services.vacation_start(user=player, days=3)
    assert selectors.vacation_of(player) is not None
    game.refresh_from_db()
    assert game.bot_due_at > start + 3 * DAY
    assert autoplay.play_due_turns(now=start + 2 * DAY) == 0
    assert restore(game).current == state.current
    # Back early: the clock runs again from where it stood.
    services.vacation_end(user=player)
    assert selectors.vacation_of(player) is None
    game.refresh_from_db()
    assert game.bot_due_at < start + 1.1 * DAY
    assert run_until_turn_changes(game, start + 1.1 * DAY) in (1, 2)


def test_vacation_days_are_limited_by_the_year(settings, alice):
    settings.SKYJO_VACATION_DAYS = 5
    now = timezone.now()
    assert selectors.vacation_days_left(alice, now) == 5
    services.vacation_start(user=alice, days=3, now=now)
    with pytest.raises(InvalidVacation, match="on vacation already"):
        services.vacation_start(user=alice, days=1, now=now + timedelta(hours=1))
    services.vacation_end(user=alice, now=now + timedelta(hours=30))  # two begun days
    assert selectors.vacation_days_left(alice, now) == 3
    with pytest.raises(InvalidVacation, match="1 to 3 days"):
        services.vacation_start(user=alice, days=4, now=now + 2 * DAY)
    with pytest.raises(InvalidVacation):
        services.vacation_start(user=alice, days="2", now=now + 2 * DAY)
    assert Vacation.objects.count() == 1
    with pytest.raises(InvalidVacation, match="not on vacation"):
        services.vacation_end(user=alice, now=now + 2 * DAY)


def test_the_clock_counts_days_and_hours_in_the_readers_language(client, alice, bob):
    game = corr_game(alice, bob, days=3)
    alice.language = "de"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-text-days="%(days)s T. %(hours)s h"' in page
    assert 'data-text-hours="%(hours)s h %(minutes)s min"' in page
    left = re.search(r'<span class="clock-left">([^<]*)</span>', page).group(1)
    assert re.fullmatch(r"[23] T\. \d\d h", left), left
