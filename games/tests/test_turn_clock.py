"""The turn clock (games.clock): a lobby's seconds per turn, and what happens when they run out."""

import random
import re
import time
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.urls import reverse

from core.errors import InvalidLobby
from games import autoplay, engine, selectors, services
from games.models import Game, GamePlayer, Lobby, Move
from games.tests.helpers import play_one, restore, reveal_all
from games.tests.ws import db, game_socket, receive_json, send
from web.sockets import game as consumers

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seconds", [0, 15, 30, 60, 120])
def test_a_lobby_keeps_its_turn_clock(alice, seconds):
    lobby = services.lobby_create(host=alice, name="t", turn_clock=seconds)
    assert Lobby.objects.get(pk=lobby.pk).turn_clock == seconds


@pytest.mark.parametrize("seconds", [-1, 1, 45, 3600, "30", 30.0, None])
def test_it_refuses_a_turn_clock_not_offered(alice, seconds):
    with pytest.raises(InvalidLobby):
        services.lobby_create(host=alice, name="t", turn_clock=seconds)


def test_the_clock_is_off_unless_asked_for(alice):
    assert services.lobby_create(host=alice, name="t").turn_clock == 0
    game = services.bot_game_create(user=alice, bots=2)
    assert game.lobby.turn_clock == 0  # alone against bots, nobody waits for you


def test_the_form_offers_the_clock_preselected_at_60_seconds(client, alice):
    client.force_login(alice)
    page = client.get(reverse("games:lobbies")).content.decode()
    assert '<option value="60" selected>60 seconds</option>' in page
    assert '<option value="0">Off</option>' in page


def test_the_form_sets_the_clock_and_the_lobby_page_tells_it(client, alice):
    client.force_login(alice)
    form = {"name": "Quick", "seat_count": "2", "end_score": "100", "turn_clock": "30"}
    response = client.post(reverse("games:lobbies"), form)
    lobby = Lobby.objects.get()
    assert response.status_code == 302 and lobby.turn_clock == 30
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    assert "Turn clock: <strong>30 seconds</strong> per turn" in page


def test_a_form_without_the_field_gets_no_clock(client, alice):
    client.force_login(alice)
    client.post(reverse("games:lobbies"), {"name": "Old", "seat_count": "2", "end_score": "100"})
    lobby = Lobby.objects.get()
    assert lobby.turn_clock == 0
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    assert "No turn clock" in page


def test_the_form_refuses_a_clock_not_offered(client, alice):
    client.force_login(alice)
    form = {"name": "Odd", "seat_count": "2", "end_score": "100", "turn_clock": "45"}
    response = client.post(reverse("games:lobbies"), form)
    assert response.status_code == 200 and not Lobby.objects.exists()


# ------------------------------------------------------------------------- the clock in play


@pytest.fixture
def _no_delay(settings):
    settings.SKYJO_BOT_DELAY = 0


def clock_game(host, *others, seconds=30, grace=60, bots=(), end_score=100):
    """A started game of ``host`` and ``others`` (and bots of ``bots`` levels), every human
    connected (an open socket each, as the consumers note it)."""
    lobby = services.lobby_create(
        host=host,
        name="Clock table",
        seat_count=1 + len(others) + len(bots),
        turn_clock=seconds,
        disconnect_grace=grace,
        end_score=end_score,
    )
    for user in others:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    for i, level in enumerate(bots, start=1 + len(others)):
        services.lobby_add_bot(lobby_id=lobby.pk, host=host, seat_index=i, level=level)
    game = services.lobby_start(lobby_id=lobby.pk, user=host)
    for user in (host, *others):
        services.game_player_seen(game_id=game.pk, user=user, change=+1)
    return game


def after(game, seconds):
    """``seconds`` after the turn clock of ``game`` (as saved now) started."""
    game.refresh_from_db()
    return game.turn_started_at + timedelta(seconds=seconds)


def timeouts(game):
    return list(
        GamePlayer.objects.filter(game=game).order_by("seat").values_list("timeouts", flat=True)
    )


def alive_until(game, when):
    """Every human's socket kept beating until ``when`` (nobody is away by presence)."""
    GamePlayer.objects.filter(game=game, user__isnull=False).update(last_seen=when)


def play_turn(game, users, rng):
    """The seat to play makes its whole turn itself."""
    seat = restore(game).current
    while restore(game).current == seat:
        play_one(game, users, rng)


def run_out(game, seconds):
    """Let the clock run out on the seat to play: the runner plays its whole turn (a draw and
    a placement, or taking the discard) at the deadline; returns how many steps it took."""
    state = restore(game)
    idle, due = state.current, after(game, seconds)
    alive_until(game, due)
    steps = 0
    while restore(game).current == idle:
        assert autoplay.play_due_turns(now=due) == 1
        steps += 1
    assert steps in (1, 2)
    return steps


def to_play_phase(game, users):
    reveal_all(game, users)
    state = restore(game)
    assert state.phase == engine.PLAY
    return state


@pytest.mark.usefixtures("_no_delay")
def test_a_turn_that_runs_out_is_played_by_the_medium_bot(alice, bob, client):
    game = clock_game(alice, bob, seconds=30)
    state = to_play_phase(game, [alice, bob])
    idle, started = state.current, game.turn_started_at
    moves = Move.objects.filter(game=game).count()
    assert autoplay.play_due_turns(now=after(game, 29)) == 0  # still their time
    steps = run_out(game, 30)
    state = restore(game)
    assert state.current == 1 - idle and state.drawn is None
    played = list(Move.objects.filter(game=game).order_by("version")[moves:])
    assert [m.seat for m in played] == [idle] * steps
    assert timeouts(game)[idle] == 1 and timeouts(game)[1 - idle] == 0
    # The next player's clock starts afresh with their turn.
    assert game.turn_started_at > started
    assert game.bot_due_at == game.turn_started_at + timedelta(seconds=30)
    assert autoplay.play_due_turns(now=after(game, 29)) == 0
    # The board's last moves say why the player's turn was played for them.
    client.force_login(alice)
    name = [alice, bob][idle].username
    log = client.get(f"/games/{game.pk}/").content.decode()
    assert f"Time ran out for {name}: the medium bot played for them." in log


@pytest.mark.usefixtures("_no_delay")
def test_a_step_inside_the_turn_keeps_the_clock(alice, bob):
    game = clock_game(alice, bob, seconds=30)
    state = to_play_phase(game, [alice, bob])
    started = game.turn_started_at
    user = [alice, bob][state.current]
    services.game_apply_action(
        game_id=game.pk, user=user, action={"take": "deck"}, version=game.version
    )
    game.refresh_from_db()
    assert game.turn_started_at == started
    assert autoplay.play_due_turns(now=started + timedelta(seconds=30)) == 1  # the placement
    state = restore(game)
    assert state.drawn is None and timeouts(game)[1 - state.current] == 1


@pytest.mark.usefixtures("_no_delay")
def test_the_reveal_phase_runs_out_for_everyone_who_has_not_revealed(alice, bob, charlie):
    game = clock_game(alice, bob, charlie, seconds=15)
    game.refresh_from_db()
    services.game_apply_action(game_id=game.pk, user=bob, action={"reveal": 3}, version=0)
    services.game_apply_action(game_id=game.pk, user=charlie, action={"reveal": 3}, version=1)
    services.game_apply_action(game_id=game.pk, user=charlie, action={"reveal": 4}, version=2)
    assert autoplay.play_due_turns(now=after(game, 14)) == 0
    due = after(game, 15)
    played = 0
    while autoplay.play_due_turns(now=due):
        played += 1
    state = restore(game)
    assert played == 3 and state.phase == engine.PLAY  # alice's two reveals, bob's second
    assert timeouts(game) == [1, 1, 0]  # one timeout per seat, not per step


@pytest.mark.usefixtures("_no_delay")
def test_getting_ready_at_the_end_of_a_round_runs_out_too(alice, bob):
    game = clock_game(alice, bob, seconds=60, end_score=1000)
    rng = random.Random(4)
    while restore(game).phase != engine.ROUND_OVER:
        play_one(game, [alice, bob], rng)
    services.game_set_ready(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.ready == [1]
    alive_until(game, after(game, 60))
    assert autoplay.play_due_turns(now=after(game, 59)) == 0
    assert autoplay.play_due_turns(now=after(game, 60)) == 1
    state = restore(game)
    assert state.round == 2 and state.phase == engine.REVEAL_PHASE
    assert timeouts(game) == [1, 0]


@pytest.mark.usefixtures("_no_delay")
def test_timing_out_twice_in_a_row_marks_the_player_away_until_they_move(alice, bob, client):
    game = clock_game(alice, bob, seconds=15)
    state = to_play_phase(game, [alice, bob])
    idle, other = state.current, 1 - state.current
    users = {0: alice, 1: bob}
    rng = random.Random(1)

    run_out(game, 15)
    play_turn(game, users, rng)  # the other player's turn, in time
    assert timeouts(game)[idle] == 1 and selectors.game_meta(game)["away"] == []
    run_out(game, 15)
    assert timeouts(game)[idle] == 2
    assert selectors.game_meta(game)["away"] == [idle]
    client.force_login(users[other])
    assert "away — played by bot" in client.get(f"/games/{game.pk}/").content.decode()
    services.game_apply_action(
        game_id=game.pk, user=users[other], action={"take": "deck"}, version=game.version
    )
    play_one(game, users, rng)  # a placement after the draw: the idle player's turn next
    # Away: the bot plays their turn at once, without waiting for the clock.
    game.refresh_from_db()
    assert game.bot_due_at < game.turn_started_at + timedelta(seconds=15)
    state = restore(game)
    assert state.current == idle
    # They are back and make their move themself: no longer away.
    action = state.legal_actions(idle)[0].to_json()
    services.game_apply_action(
        game_id=game.pk, user=users[idle], action=action, version=game.version
    )
    assert timeouts(game) == [0, 0] and selectors.game_meta(game)["away"] == []
    assert "away — played by bot" not in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.usefixtures("_no_delay")
def test_a_disconnected_player_past_the_grace_is_away_and_not_timed_out(alice, bob):
    game = clock_game(alice, bob, seconds=120, grace=5)
    state = to_play_phase(game, [alice, bob])
    user = [alice, bob][state.current]
    services.game_player_seen(game_id=game.pk, user=user, change=-1)
    assert autoplay.play_due_turns(now=after(game, 50)) == 1  # long before the clock runs out
    assert timeouts(game) == [0, 0]
    game.refresh_from_db()
    assert not any(entry.get("timed_out") for entry in game.recent)  # away, not out of time


@pytest.mark.usefixtures("_no_delay")
def test_bots_play_at_once_while_the_human_has_the_clock(alice):
    game = clock_game(alice, seconds=15, bots=("easy",))
    while autoplay.play_due_turns():
        pass
    state = restore(game)
    assert len(state.reveals[1]) == 2 and len(state.reveals[0]) == 0
    assert selectors.game_meta(game)["clock"]["seats"] == [0]
    assert autoplay.play_due_turns(now=after(game, 15)) == 1
    assert timeouts(game) == [0, 0]  # one reveal of two: the turn is not over yet
    assert autoplay.play_due_turns(now=after(game, 15)) == 1
    assert timeouts(game) == [1, 0]


@pytest.mark.usefixtures("_no_delay")
@pytest.mark.parametrize("seconds", [0, 30])
def test_an_idle_connected_player_stalls_the_table_only_without_a_clock(alice, bob, seconds):
    game = clock_game(alice, bob, seconds=seconds)
    state = to_play_phase(game, [alice, bob])
    later = after(game, 40)
    GamePlayer.objects.filter(game=game).update(last_seen=later)  # heartbeats all along
    played = autoplay.play_due_turns(now=later)
    if seconds:
        assert played == 1 and Move.objects.filter(game=game).last().seat == state.current
    else:  # as before the clock existed: nobody plays for a connected player
        assert played == 0 and timeouts(game) == [0, 0]
        game.refresh_from_db()
        assert selectors.game_meta(game)["clock"] is None


# ------------------------------------------------------------------- what the players see


def test_the_board_and_the_state_json_carry_the_deadline(alice, bob, client):
    game = clock_game(alice, bob, seconds=30)
    state = to_play_phase(game, [alice, bob])
    game.refresh_from_db()
    deadline = game.turn_started_at + timedelta(seconds=30)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    ms = int(deadline.timestamp() * 1000)
    assert f'id="turn-clock" role="timer" data-deadline="{ms}" data-seconds="30"' in page
    assert re.search(r'<span class="clock-left">0:(30|29|28)</span>', page)
    assert 'data-server-now="' in page and "js/clock.js" in page
    data = client.get(f"/games/{game.pk}/state.json").json()
    stamp = deadline.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert data["clock"] == {"seconds": 30, "deadline": stamp, "seats": [state.current]}


def test_the_player_to_act_has_their_countdown_in_their_controls_too(alice, bob, client):
    """The board's clock scrolls away with the board's top; the sticky controls of the player
    the clock runs for carry it as well, nobody else's."""
    game = clock_game(alice, bob, seconds=30)
    state = to_play_phase(game, [alice, bob])
    game.refresh_from_db()
    ms = int((game.turn_started_at + timedelta(seconds=30)).timestamp() * 1000)
    users = {0: alice, 1: bob}
    client.force_login(users[state.current])
    page = client.get(f"/games/{game.pk}/").content.decode()
    controls = page[page.index('id="controls"') : page.index('id="flash"')]
    assert f'id="my-clock" role="timer" data-deadline="{ms}" data-seconds="30"' in controls
    client.force_login(users[1 - state.current])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="turn-clock"' in page and 'id="my-clock"' not in page


def test_without_a_clock_the_board_and_the_json_are_as_before(alice, bob, client):
    game = clock_game(alice, bob, seconds=0)
    to_play_phase(game, [alice, bob])
    client.force_login(alice)
    assert 'id="turn-clock"' not in client.get(f"/games/{game.pk}/").content.decode()
    assert "clock" not in client.get(f"/games/{game.pk}/state.json").json()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_json_frames_carry_the_clock_and_a_frame_brings_an_away_player_back(
    alice, bob, monkeypatch
):
    game = await db(clock_game)(alice, bob, seconds=60)
    await db(to_play_phase)(game, [alice, bob])
    row = await Game.objects.aget(pk=game.pk)
    idle = (await db(restore)(row)).current
    user = [alice, bob][idle]
    await GamePlayer.objects.filter(game=game, seat=idle).aupdate(timeouts=2)
    comm, frame = await game_socket(user, game.pk)
    assert "clock" not in frame  # away: the bot plays at once, no clock runs for them
    # A frame some seconds after connecting (a socket notes a player's acts every
    # ACTIVE_EVERY seconds at most).
    later = SimpleNamespace(monotonic=lambda: time.monotonic() + consumers.ACTIVE_EVERY + 1)
    monkeypatch.setattr(consumers, "time", later)
    await send(comm, {"sync": True})
    while frame["version"] <= row.version:  # the sync answer, then the "back" change
        frame = await receive_json(comm)
    assert frame["version"] == row.version + 1 and frame["clock"]["seats"] == [idle]
    deadline = datetime.fromisoformat(frame["clock"]["deadline"].replace("Z", "+00:00"))
    expected = row.turn_started_at + timedelta(seconds=60)
    assert deadline == expected.replace(microsecond=expected.microsecond // 1000 * 1000)
    player = await GamePlayer.objects.aget(game=game, seat=idle)
    assert player.timeouts == 0
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_away_players_own_move_is_applied_and_brings_them_back(alice, bob, monkeypatch):
    game = await db(clock_game)(alice, bob, seconds=60)
    await db(to_play_phase)(game, [alice, bob])
    row = await Game.objects.aget(pk=game.pk)
    idle = (await db(restore)(row)).current
    await GamePlayer.objects.filter(game=game, seat=idle).aupdate(timeouts=2)
    assert (await db(selectors.game_meta)(row))["away"] == [idle]
    comm, frame = await game_socket([alice, bob][idle], game.pk)
    # Long after connecting: the move is this frame's only write, not a presence note before
    # it (which would have made a new version and the move stale).
    later = SimpleNamespace(monotonic=lambda: time.monotonic() + consumers.ACTIVE_EVERY + 1)
    monkeypatch.setattr(consumers, "time", later)
    await send(comm, {"take": "deck", "version": frame["version"]})
    frame = await receive_json(comm)
    assert "error" not in frame and frame["version"] == row.version + 1
    assert frame["drawn"] is not None
    assert (await GamePlayer.objects.aget(game=game, seat=idle)).timeouts == 0
    row = await Game.objects.aget(pk=game.pk)
    assert (await db(selectors.game_meta)(row))["away"] == []
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_away_player_is_offered_to_come_back_and_is_back_at_once(alice, bob):
    game = await db(clock_game)(alice, bob, seconds=60)
    await db(to_play_phase)(game, [alice, bob])
    row = await Game.objects.aget(pk=game.pk)
    idle = (await db(restore)(row)).current
    await GamePlayer.objects.filter(game=game, seat=idle).aupdate(timeouts=2)
    comm, page = await game_socket([alice, bob][idle], game.pk, fmt="html")
    # Their turn, but the bot plays it at once: no moves to race it, the way back instead.
    assert 'id="act-back"' in page and "You are away" in page
    assert 'data-legal="[]"' in page and 'id="act-draw"' not in page
    # Pressed just after connecting (the page reloaded), not ACTIVE_EVERY seconds later.
    await send(comm, {"sync": True, "version": row.version})
    while f'data-version="{row.version + 1}"' not in page:
        page = await comm.receive_from(timeout=5)
    assert 'id="act-back"' not in page and 'id="act-draw"' in page
    assert (await GamePlayer.objects.aget(game=game, seat=idle)).timeouts == 0
    await comm.disconnect()
