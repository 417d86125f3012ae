"""The only human of a game against bots may end it (services.game_abandon, the game page's
"End this game"): stopped, its lobby finished, every socket told; before a move of their own
voided as a moderator's stop is, after one resigned (a loss in last place in their
statistics), so that nobody keeps only the bot games they win. A game between people may be
aborted (voided) by any of them while one of them has made no move of their own; after that it
is not one player's to end."""

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.errors import EndingChanged, GameOver, NotAPlayer, NotYoursToEnd, TooManyTables
from games import autoplay, services
from games.models import Game, Lobby
from games.tests.helpers import play_to_end, restore, start_game
from games.tests.ws import db, game_socket, receive_json
from stats.models import GameResult, RoundResult
from stats.queries import player_profile

pytestmark = pytest.mark.django_db


def snapshot_of(game_id):
    game = Game.objects.select_related("lobby").get(pk=game_id)
    return game.status, game.voided, game.version, game.bot_due_at, game.lobby.status


def test_the_player_ends_their_game_against_bots(alice):
    game = services.bot_game_create(user=alice, bots=2)
    services.game_abandon(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert (game.status, game.voided, game.counts) == (Game.Status.ABORTED, True, False)
    assert game.bot_due_at is None and game.finished_at is not None
    assert game.lobby.status == Lobby.Status.FINISHED
    assert not Game.objects.filter(status=Game.Status.PLAYING, bot_due_at__isnull=False).exists()


@pytest.mark.parametrize("who", ["bob", "charlie"])
def test_it_refuses_a_stranger_or_a_player_of_a_human_game_changing_nothing(
    alice, bob, charlie, who
):
    bots = services.bot_game_create(user=alice, bots=1)
    people = start_game(alice, bob)
    for user in (alice, bob):  # each has made a move of their own: no abort now
        services.game_apply_action(game_id=people.pk, user=user, action={"reveal": 0}, version=0)
    before = {g.pk: snapshot_of(g.pk) for g in (bots, people)}
    with pytest.raises(NotAPlayer):
        services.game_abandon(game_id=bots.pk, user={"bob": bob, "charlie": charlie}[who])
    with pytest.raises(NotYoursToEnd) as refused:
        services.game_abandon(game_id=people.pk, user=alice)
    assert "can no longer be aborted" in refused.value.message
    assert {g.pk: snapshot_of(g.pk) for g in (bots, people)} == before


def test_it_refuses_a_game_over_changing_nothing(alice, bob):
    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob])
    ended = services.bot_game_create(user=alice, bots=1)
    services.game_abandon(game_id=ended.pk, user=alice)
    before = {g.pk: snapshot_of(g.pk) for g in (game, ended)}
    for over in (game, ended):
        with pytest.raises(GameOver):
            services.game_abandon(game_id=over.pk, user=alice)
    assert {g.pk: snapshot_of(g.pk) for g in (game, ended)} == before


def test_ending_a_bot_game_frees_its_table(settings, alice):
    settings.SKYJO_MAX_TABLES = 2
    first = services.bot_game_create(user=alice, bots=1)
    services.bot_game_create(user=alice, bots=1)
    with pytest.raises(TooManyTables) as refused:
        services.bot_game_create(user=alice, bots=1)
    assert "can be ended from its page" in refused.value.message
    services.game_abandon(game_id=first.pk, user=alice)
    services.bot_game_create(user=alice, bots=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_socket_hears_of_the_end_with_a_new_version(alice, moderator):
    game = await db(services.bot_game_create)(user=alice, bots=1)
    player, first = await game_socket(alice, game.pk)
    watcher, _ = await game_socket(moderator, game.pk)
    await db(services.game_abandon)(game_id=game.pk, user=alice)
    for comm in (player, watcher):
        frame = await receive_json(comm)
        assert frame["version"] == first["version"] + 1
        await comm.disconnect()
    assert (await Game.objects.aget(pk=game.pk)).version == first["version"] + 1


# ------------------------------------------------------------------------------- the page


def test_the_page_offers_the_button_to_the_player_of_a_bot_game_alone(client, alice, bob):
    bots = services.bot_game_create(user=alice, bots=1)
    people = start_game(alice, bob)
    for user in (alice, bob):  # each has played: no abort
        services.game_apply_action(game_id=people.pk, user=user, action={"reveal": 0}, version=0)
    client.force_login(alice)
    assert 'id="end-game"' in client.get(reverse("games:game", args=[bots.pk])).text
    assert 'id="end-game"' not in client.get(reverse("games:game", args=[people.pk])).text
    services.game_abandon(game_id=bots.pk, user=alice)
    assert 'id="end-game"' not in client.get(reverse("games:game", args=[bots.pk])).text


def test_the_view_ends_the_game_and_goes_home_with_a_message(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    page = client.post(reverse("games:abandon", args=[game.pk]), follow=True)
    assert page.redirect_chain == [(reverse("games:home"), 302)]
    assert "The game has ended" in page.text
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_the_view_takes_a_post_alone_and_a_login(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    url = reverse("games:abandon", args=[game.pk])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_view_needs_the_csrf_token(alice):
    game = services.bot_game_create(user=alice, bots=1)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(reverse("games:abandon", args=[game.pk])).status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_view_tells_a_spectator_or_a_player_of_a_human_game_why_not(client, alice, bob):
    bots = services.bot_game_create(user=alice, bots=1)
    Lobby.objects.filter(games=bots).update(is_public=True)  # bob may watch it
    people = start_game(alice, bob)
    for user in (alice, bob):  # each has played: no abort
        services.game_apply_action(game_id=people.pk, user=user, action={"reveal": 0}, version=0)
    client.force_login(bob)
    page = client.post(reverse("games:abandon", args=[bots.pk]), follow=True)
    assert page.redirect_chain == [(reverse("games:home"), 302)]
    assert "You are not a player in this game" in page.text
    page = client.post(reverse("games:abandon", args=[people.pk]), follow=True)
    assert page.redirect_chain == [(reverse("games:game", args=[people.pk]), 302)]
    assert "can no longer be aborted" in page.text
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 2


def test_a_stranger_to_a_private_game_is_told_nothing_is_there(client, alice, charlie):
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(charlie)
    assert client.post(reverse("games:abandon", args=[game.pk])).status_code == 404
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_page_of_a_game_its_player_ended_blames_no_moderator(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    services.game_abandon(game_id=game.pk, user=alice)
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).text
    assert "This game was stopped before its end." in page
    assert "moderator" not in page


def test_a_stopped_game_offers_its_player_no_card_to_play(client, alice):
    """Stopped in the middle of the reveals, the engine's view still has legal reveals: the
    page offered them (every face-down card marked playable), for a game that takes no move."""
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    assert 'data-legal="[]"' not in client.get(reverse("games:game", args=[game.pk])).text
    services.game_abandon(game_id=game.pk, user=alice)
    assert 'data-legal="[]"' in client.get(reverse("games:game", args=[game.pk])).text


# ------------------------------------------------- before or after a move of their own


def reveal(game, user, pos=0):
    game.refresh_from_db()
    services.game_apply_action(
        game_id=game.pk, user=user, action={"reveal": pos}, version=game.version
    )


def play_a_round(game, alice):
    """Alice (seat 0) plays random legal steps, the bot runner the bots', until a round is
    scored (a moment after each step: alice never counts as away)."""
    rng = random.Random(3)
    for _ in range(2000):
        state = restore(game)
        if state.results:
            return
        if 0 in state.to_act():
            step = rng.choice(state.legal_actions(0)).to_json()
            services.game_apply_action(
                game_id=game.pk, user=alice, action=step, version=game.version
            )
        else:
            autoplay.play_due_turns(now=timezone.now() + timedelta(seconds=1))
    raise AssertionError("no round was scored")


def test_ended_after_a_move_of_their_own_it_counts_as_a_loss_in_last_place(alice):
    game = services.bot_game_create(user=alice, bots=2)
    reveal(game, alice)
    assert services.game_abandon(game_id=game.pk, user=alice) is True
    game.refresh_from_db()
    assert (game.status, game.voided, game.resigned, game.counts) == (
        Game.Status.ABORTED,
        False,
        0,
        True,
    )
    assert game.lobby.status == Lobby.Status.FINISHED and game.bot_due_at is None
    mine = GameResult.objects.get(game=game, user=alice)
    assert (mine.place, mine.won, mine.resigned, mine.player_count) == (3, False, True, 3)
    assert GameResult.objects.filter(game=game, won=True).count() == 2  # the bots, both on 0
    profile = player_profile(alice, viewer=alice)
    assert (profile.bots.games, profile.bots.wins) == (1, 0)
    assert profile.bots.best_game is None  # its total is no game's
    alice.refresh_from_db()
    assert alice.rated_games == 0  # a game with bots is never rated


def test_ended_before_any_move_of_their_own_it_counts_nowhere(alice):
    game = services.bot_game_create(user=alice, bots=1)
    autoplay.play_due_turns(now=timezone.now() + timedelta(seconds=1))  # the bot's reveal
    assert services.game_abandon(game_id=game.pk, user=alice) is False
    game.refresh_from_db()
    assert (game.voided, game.resigned, game.counts) == (True, None, False)
    assert not GameResult.objects.filter(game=game).exists()
    assert player_profile(alice, viewer=alice).bots.games == 0


def test_the_rounds_scored_before_count_and_the_player_is_last_whatever_the_totals(alice):
    # End score 1000: a first round of random steps can pass 100 (72 doubled), ending the game.
    game = services.bot_game_create(user=alice, bots=1, end_score=1000)
    play_a_round(game, alice)
    services.game_abandon(game_id=game.pk, user=alice)
    rounds = RoundResult.objects.filter(game=game, user=alice)
    assert rounds.count() == 1 and rounds.get().counted
    mine = GameResult.objects.get(game=game, user=alice)
    bot = GameResult.objects.get(game=game, is_bot=True)
    assert (mine.place, mine.won, mine.rounds) == (2, False, 1)
    assert (bot.place, bot.won) == (1, True)
    assert player_profile(alice, viewer=alice).bots.rounds == 1


def test_a_move_since_the_page_said_it_counts_nowhere_refuses_changing_nothing(alice):
    game = services.bot_game_create(user=alice, bots=1)
    reveal(game, alice)
    before = snapshot_of(game.pk)
    with pytest.raises(EndingChanged):
        services.game_abandon(game_id=game.pk, user=alice, counts=False)
    assert snapshot_of(game.pk) == before
    assert not GameResult.objects.filter(game=game).exists()
    assert services.game_abandon(game_id=game.pk, user=alice, counts=True) is True


def test_the_confirmation_says_which_it_will_be(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).text
    assert "You have not played yet" in page and 'name="counts" value="0"' in page
    reveal(game, alice)
    page = client.get(reverse("games:game", args=[game.pk])).text
    assert "counts as a loss, in last place" in page and 'name="counts" value="1"' in page


def test_the_confirmation_is_fetched_as_it_stands_when_it_opens(client, alice, bob):
    """The page's confirmation may be older than her first move (the board changes over the
    socket): opening it fetches it again."""
    game = services.bot_game_create(user=alice, bots=1)
    url = reverse("games:end_confirmation", args=[game.pk])
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).text
    assert f'hx-get="{url}" hx-trigger="toggle"' in page
    fetched = client.get(url).text
    assert "You have not played yet" in fetched and 'name="counts" value="0"' in fetched
    assert 'id="end-game-form"' in fetched and "<html" not in fetched
    reveal(game, alice)
    fetched = client.get(url).text
    assert "counts as a loss, in last place" in fetched and 'name="counts" value="1"' in fetched
    assert client.post(url).status_code == 405
    Lobby.objects.filter(games=game).update(is_public=True)
    client.force_login(bob)  # a spectator: nothing of hers to end
    assert client.get(url).status_code == 404
    services.game_abandon(game_id=game.pk, user=alice)
    client.force_login(alice)
    assert client.get(url).status_code == 404


def test_a_stale_confirmation_sends_the_player_back_to_read_the_new_one(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    reveal(game, alice)
    url = reverse("games:abandon", args=[game.pk])
    page = client.post(url, {"counts": "0"}, follow=True)
    assert page.redirect_chain == [(reverse("games:game", args=[game.pk]), 302)]
    assert "You have played since this page was loaded" in page.text
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    page = client.post(url, {"counts": "1"}, follow=True)
    assert "it counts as a loss, in last place" in page.text
    assert Game.objects.get(pk=game.pk).resigned == 0


def test_the_profile_history_shows_a_resigned_game_as_lost(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    reveal(game, alice)
    services.game_abandon(game_id=game.pk, user=alice)
    client.force_login(alice)
    page = client.get(reverse("accounts:profile", args=["alice"])).text
    assert "lost (ended)" in page
    assert 'id="stats-bots"' in page  # one game played, none won, no round scored yet


def test_a_moderator_sees_a_resigned_game_as_ended_by_its_player(client, alice, moderator):
    """Failed before: the moderator's player file and game page said only "Aborted"."""
    game = services.bot_game_create(user=alice, bots=1)
    reveal(game, alice)
    services.game_abandon(game_id=game.pk, user=alice)
    client.force_login(moderator)
    for url in (
        reverse("moderation:player", args=["alice"]),
        reverse("moderation:game", args=[game.pk]),
    ):
        assert "ended by its player: a loss" in client.get(url).text, url


def test_a_profile_with_no_round_scored_shows_dashes_and_no_empty_chart(client, alice):
    """Failed before: the last-20-games mean was left blank and "Round scores" headed nothing
    for a player whose only game against bots ended before a round was scored."""
    game = services.bot_game_create(user=alice, bots=1)
    reveal(game, alice)
    services.game_abandon(game_id=game.pk, user=alice)
    client.force_login(alice)
    page = client.get(reverse("accounts:profile", args=["alice"])).text
    recent = page.index("Mean round score, last 20 games")
    assert re.search(r'<span class="stat-value">–</span><span class="stat-label">$', page[:recent])
    assert "Round scores" not in page


def test_the_page_of_a_game_its_player_resigned_says_it_counts_as_their_loss(client, alice):
    """Failed before: the page said "This game was stopped", the words of a voided game."""
    game = services.bot_game_create(user=alice, bots=1)
    for position in (0, 1):
        services.game_apply_action(
            game_id=game.pk,
            action={"reveal": position},
            version=Game.objects.get(pk=game.pk).version,
            user=alice,
        )
    assert services.game_abandon(game_id=game.pk, user=alice) is True
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).text
    assert "alice ended this game: it counts as a loss for them." in page
    assert "This game was ended by its player: it counts as their loss." in page
    assert "This game was stopped" not in page


@pytest.mark.parametrize("moved", [(), ("alice",), ("bob",)])
def test_a_game_between_people_is_aborted_while_one_has_not_played(alice, bob, charlie, moved):
    game = start_game(alice, bob, charlie)
    users = {"alice": alice, "bob": bob}
    for name in moved:
        services.game_apply_action(
            game_id=game.pk, user=users[name], action={"reveal": 0}, version=0
        )
    assert services.game_abandon(game_id=game.pk, user=alice, counts=False) is False
    game.refresh_from_db()
    assert (game.status, game.voided, game.counts) == (Game.Status.ABORTED, True, False)
    assert game.lobby.status == Lobby.Status.FINISHED
    assert not GameResult.objects.exists() and not RoundResult.objects.exists()


def test_a_move_the_bot_made_for_a_person_is_not_theirs_for_the_abort(alice, bob):
    game = start_game(alice, bob)
    services.game_apply_action(game_id=game.pk, user=alice, action={"reveal": 0}, version=0)
    services.game_apply_action(
        game_id=game.pk, seat=1, action={"reveal": 0}, version=0, stand_in=True
    )
    services.game_abandon(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).voided


def test_the_game_page_offers_the_abort_and_its_confirmation_says_what_it_does(alice, bob):
    game = start_game(alice, bob)
    client = Client()
    client.force_login(bob)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Abort this game" in page and "stops at once for everyone" in page
    services.game_apply_action(game_id=game.pk, user=alice, action={"reveal": 0}, version=0)
    services.game_apply_action(game_id=game.pk, user=bob, action={"reveal": 0}, version=0)
    confirm = client.get(reverse("games:end_confirmation", args=[game.pk]))
    assert confirm.status_code == 404  # everyone has played: no abort any more
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Abort this game" not in page and 'id="end-game"' not in page
