"""chat.services: posting, its limits, silences, hiding (the interface moderation calls)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from chat import selectors, services
from chat.errors import (
    ChatEmpty,
    ChatNotAllowed,
    ChatOff,
    ChatRateLimited,
    ChatSilenced,
    ChatTooLong,
)
from chat.models import Message
from core.errors import NotFound
from games import services as game_services
from games.tests.helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def test_a_player_posts_in_the_players_channel(game, alice):
    message = services.chat_post(user=alice, text="  hello\n  there ", game_id=game.pk)
    assert message.channel == Message.Channel.PLAYERS
    assert message.text == "hello there"


def test_a_watcher_posts_in_the_spectators_channel(game, charlie):
    message = services.chat_post(user=charlie, text="nice", game_id=game.pk)
    assert message.channel == Message.Channel.SPECTATORS


def test_a_private_game_refuses_outsiders(alice, bob, charlie):
    lobby = game_services.lobby_create(host=alice, name="secret", seat_count=2, is_public=False)
    game_services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = game_services.lobby_start(lobby_id=lobby.pk, user=alice)
    with pytest.raises(NotFound):
        services.chat_post(user=charlie, text="let me in", game_id=game.pk)
    with pytest.raises(NotFound):
        services.chat_post(user=charlie, text="hi", lobby_id=lobby.pk)
    assert (
        services.chat_post(
            user=charlie, text="hi", lobby_id=lobby.pk, invite_code=lobby.invite_code
        ).lobby_id
        == lobby.pk
    )


def test_a_private_game_takes_a_moderators_post_as_a_spectators_not_staffs(
    alice, bob, moderator, staff
):
    lobby = game_services.lobby_create(host=alice, name="secret", seat_count=2, is_public=False)
    game_services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = game_services.lobby_start(lobby_id=lobby.pk, user=alice)
    with pytest.raises(NotFound):
        services.chat_post(user=staff, text="just staff", game_id=game.pk)
    message = services.chat_post(user=moderator, text="watching", game_id=game.pk)
    assert message.channel == Message.Channel.SPECTATORS


def test_a_removed_player_may_not_post_in_the_lobby_with_its_invite(alice, bob):
    lobby = game_services.lobby_create(host=alice, name="secret", seat_count=2, is_public=False)
    game_services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game_services.lobby_remove_player(lobby_id=lobby.pk, host=alice, seat_index=1)
    with pytest.raises(NotFound, match="removed you"):
        services.chat_post(user=bob, text="hi", lobby_id=lobby.pk, invite_code=lobby.invite_code)


def test_it_refuses_empty_and_too_long(game, alice):
    with pytest.raises(ChatEmpty):
        services.chat_post(user=alice, text="   ", game_id=game.pk)
    services.chat_post(user=alice, text="x" * 300, game_id=game.pk)
    with pytest.raises(ChatTooLong) as info:
        services.chat_post(user=alice, text="x" * 301, game_id=game.pk)
    assert "300" in info.value.message and "301" in info.value.message


@pytest.mark.parametrize("text", ["\u200b", "\u202e\u2066\u2069", "\ufeff\u2060"])
def test_it_refuses_a_message_with_nothing_to_see(game, alice, text):
    with pytest.raises(ChatEmpty):
        services.chat_post(user=alice, text=text, game_id=game.pk)


def test_it_drops_direction_overrides_from_a_message(game, alice):
    """An override would run on past the text, over the Mute and Report buttons beside it."""
    message = services.chat_post(user=alice, text="gg \u202ewp\u202c \u2067ok", game_id=game.pk)
    assert message.text == "gg wp ok"


def test_quick_messages_are_stored_by_code(game, alice):
    message = services.chat_post(user=alice, quick="gg", game_id=game.pk)
    assert (message.quick, message.text) == ("gg", "Good game")
    with pytest.raises(ChatEmpty):
        services.chat_post(user=alice, quick="nope", game_id=game.pk)


def test_rate_limit_per_user_across_games(settings, alice, bob, charlie):
    settings.SKYJO_CHAT_RATE, settings.SKYJO_CHAT_PERIOD = 3, 10
    one, two = start_game(alice, bob), start_game(alice, charlie)
    for game in (one, two, one):
        services.chat_post(user=alice, text="hi", game_id=game.pk)
    with pytest.raises(ChatRateLimited) as info:
        services.chat_post(user=alice, text="hi", game_id=two.pk)
    assert "3" in info.value.message and "10 seconds" in info.value.message
    services.chat_post(user=bob, text="bob is not limited", game_id=one.pk)
    Message.objects.filter(author=alice).update(created_at=timezone.now() - timedelta(seconds=11))
    services.chat_post(user=alice, text="again", game_id=two.pk)


def test_chat_off_refuses_posting(game, alice):
    services.chat_enable(user=alice, enabled=False)
    with pytest.raises(ChatOff):
        services.chat_post(user=alice, text="hi", game_id=game.pk)


def test_a_banned_player_cannot_post(game, alice):
    alice.ban("spam")
    with pytest.raises(ChatNotAllowed):
        services.chat_post(user=alice, text="hi", game_id=game.pk)


def test_silence_refuses_until_its_end_and_can_be_lifted(game, alice, charlie):
    until = timezone.now() + timedelta(hours=1)
    services.user_silence(user=alice, until=until, reason="insults", by=charlie)
    with pytest.raises(ChatSilenced) as info:
        services.chat_post(user=alice, text="hi", game_id=game.pk)
    assert "insults" in info.value.message and "until" in info.value.message
    assert services.silence_lift(user=alice, by=charlie) == 1
    services.chat_post(user=alice, text="sorry", game_id=game.pk)


def test_silence_for_good_and_an_expired_one(game, alice, charlie):
    services.user_silence(
        user=alice, until=timezone.now() - timedelta(seconds=1), reason="old", by=charlie
    )
    services.chat_post(user=alice, text="fine", game_id=game.pk)
    services.user_silence(user=alice, until=None, reason="spam", by=charlie)
    with pytest.raises(ChatSilenced) as info:
        services.chat_post(user=alice, text="hi", game_id=game.pk)
    assert "for good" in info.value.message


def test_hide_keeps_the_row_and_drops_it_from_reads(game, alice, bob, charlie):
    message = services.chat_post(user=alice, text="rude", game_id=game.pk)
    services.chat_post(user=bob, text="ok", game_id=game.pk)
    hidden = services.message_hide(message_id=message.pk, by=charlie)
    assert hidden.hidden_by == charlie and hidden.hidden_at is not None
    first = hidden.hidden_at
    assert services.message_hide(message_id=message.pk, by=bob).hidden_at == first
    texts = [m.text for m in selectors.messages_for(user=bob, game_id=game.pk)]
    assert texts == ["ok"]


def test_mute_hides_in_every_game(settings, alice, bob, charlie):
    one, two = start_game(alice, bob), start_game(alice, bob, charlie)
    services.chat_post(user=alice, text="one", game_id=one.pk)
    services.chat_post(user=alice, text="two", game_id=two.pk)
    services.mute_set(muter=bob, muted=alice, on=True)
    assert selectors.messages_for(user=bob, game_id=one.pk) == []
    assert selectors.messages_for(user=bob, game_id=two.pk) == []
    assert len(selectors.messages_for(user=charlie, game_id=two.pk)) == 1
    services.mute_set(muter=bob, muted=alice, on=False)
    assert len(selectors.messages_for(user=bob, game_id=one.pk)) == 1
