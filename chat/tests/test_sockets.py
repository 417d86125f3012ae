"""Chat over the game and lobby sockets: posting, channels, mutes, chat off, hiding, errors."""

import json

import pytest

from chat import services
from chat.models import Message
from games import services as game_services
from games.tests.helpers import start_game
from games.tests.ws import connect, db, game_socket, receive_json, send

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _quiet(comm, timeout=0.3) -> bool:
    return await comm.receive_nothing(timeout=timeout)


async def test_players_chat_reaches_players_not_spectators(alice, bob, charlie):
    game = await db(start_game)(alice, bob)
    a, _ = await game_socket(alice, game.pk)
    b, _ = await game_socket(bob, game.pk, fmt="html")
    c, _ = await game_socket(charlie, game.pk)
    await send(a, {"chat": "hello bob", "version": 0})
    got = (await receive_json(a))["chat"]
    assert (got["author"], got["text"], got["channel"]) == ("alice", "hello bob", "players")
    html = await b.receive_from(timeout=5)
    assert 'id="chat-log-players" hx-swap-oob="beforeend"' in html
    assert f'id="chat-msg-{got["id"]}"' in html and "hello bob" in html
    assert await _quiet(c)
    # The spectator's message goes to spectators only.
    await send(c, {"chat": "go alice"})
    assert (await receive_json(c))["chat"]["channel"] == "spectators"
    assert await _quiet(a) and await _quiet(b)
    for comm in (a, b, c):
        await comm.disconnect()


async def test_a_chat_frame_does_not_touch_the_game(alice, bob):
    game = await db(start_game)(alice, bob)
    a, first = await game_socket(alice, game.pk)
    await send(a, {"quick": "gg"})
    got = (await receive_json(a))["chat"]
    assert (got["text"], got["quick"]) == ("Good game", "gg")
    await send(a, {"sync": True})
    assert (await receive_json(a))["version"] == first["version"]
    await a.disconnect()


async def test_quick_messages_in_each_readers_language(alice, bob):
    game = await db(start_game)(alice, bob)
    bob.language = "de"
    await db(bob.save)(update_fields=["language"])
    b = await connect(bob, f"/ws/games/{game.pk}/")
    await b.receive_from(timeout=5)
    await db(services.chat_post)(user=alice, quick="wp", game_id=game.pk)
    assert "Gut gespielt" in await b.receive_from(timeout=5)
    await b.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"chat": "x" * 301}, "chat_too_long"),
        ({"chat": "   "}, "chat_empty"),
        ({"chat": 5}, "bad_request"),
        ({"chat": "a", "quick": "gg"}, "malformed_action"),
        ({"chat": "a", "reveal": 1}, "malformed_action"),
        ({"quick": "nope"}, "chat_empty"),
    ],
)
async def test_refusals_have_codes(alice, bob, frame, code):
    game = await db(start_game)(alice, bob)
    a, _ = await game_socket(alice, game.pk)
    await send(a, frame)
    assert (await receive_json(a))["error"]["code"] == code
    await a.disconnect()
    assert await db(Message.objects.count)() == 0


async def test_rate_limit_is_answered_with_its_window(settings, alice, bob):
    settings.SKYJO_CHAT_RATE, settings.SKYJO_CHAT_PERIOD = 2, 30
    game = await db(start_game)(alice, bob)
    a = await connect(alice, f"/ws/games/{game.pk}/")
    await a.receive_from(timeout=5)
    for text in ("one", "two"):
        await send(a, {"chat": text})
        assert text in await a.receive_from(timeout=5)
    await send(a, {"chat": "three"})
    error = await a.receive_from(timeout=5)
    assert 'id="chat-flash"' in error and 'data-code="chat_rate_limited"' in error
    assert "at most 2 in 30 seconds" in error
    await a.disconnect()


async def test_refusals_worded_with_figures_are_in_the_players_language(
    settings, alice, bob, charlie
):
    """A refusal that carries figures (the rate's window, a silence's reason) is worded when
    it is refused: in the socket's language, not the server's."""
    settings.SKYJO_CHAT_RATE, settings.SKYJO_CHAT_PERIOD = 1, 30
    alice.language = bob.language = "sv"
    await db(alice.save)(update_fields=["language"])
    await db(bob.save)(update_fields=["language"])
    game = await db(start_game)(alice, bob)
    a, _ = await game_socket(alice, game.pk)
    await send(a, {"chat": "one"})
    await receive_json(a)
    await send(a, {"chat": "two"})
    error = (await receive_json(a))["error"]
    assert error["message"].startswith("För många meddelanden: högst 1 på 30 sekunder.")
    await a.disconnect()

    await db(services.user_silence)(user=bob, until=None, reason="spam", by=charlie)
    b, _ = await game_socket(bob, game.pk)
    await send(b, {"chat": "buy now"})
    error = (await receive_json(b))["error"]
    assert error["message"] == "En moderator har stängt av dig från chatten för gott: spam"
    await b.disconnect()


async def test_silenced_player_is_told_why(alice, bob, charlie):
    game = await db(start_game)(alice, bob)
    await db(services.user_silence)(user=alice, until=None, reason="spam links", by=charlie)
    a, _ = await game_socket(alice, game.pk)
    await send(a, {"chat": "buy now"})
    error = (await receive_json(a))["error"]
    assert error["code"] == "chat_silenced" and "spam links" in error["message"]
    await a.disconnect()


async def test_mute_drops_messages_on_open_pages_and_in_every_game(alice, bob, charlie):
    one = await db(start_game)(alice, bob)
    two = await db(start_game)(alice, bob, charlie)
    b1 = await connect(bob, f"/ws/games/{one.pk}/")
    await b1.receive_from(timeout=5)
    b2, _ = await game_socket(bob, two.pk)
    await db(services.chat_post)(user=alice, text="before", game_id=one.pk)
    assert "before" in await b1.receive_from(timeout=5)
    await db(services.mute_set)(muter=bob, muted=alice, on=True)
    redrawn = await b1.receive_from(timeout=5)  # the panel, without alice's messages
    assert 'id="chat" ' in redrawn and 'hx-swap-oob="true"' in redrawn
    assert "before" not in redrawn
    await db(services.chat_post)(user=alice, text="muted here", game_id=one.pk)
    await db(services.chat_post)(user=alice, text="and there", game_id=two.pk)
    await db(services.chat_post)(user=charlie, text="charlie speaks", game_id=two.pk)
    assert (await receive_json(b2))["chat"]["text"] == "charlie speaks"
    assert await _quiet(b1)
    for comm in (b1, b2):
        await comm.disconnect()


async def test_chat_off_sees_nothing_and_cannot_post(alice, bob):
    game = await db(start_game)(alice, bob)
    b = await connect(bob, f"/ws/games/{game.pk}/")
    await b.receive_from(timeout=5)
    await db(services.chat_enable)(user=bob, enabled=False)
    panel = await b.receive_from(timeout=5)
    assert "Your chat is off" in panel and "chat-log" not in panel
    await db(services.chat_post)(user=alice, text="hello?", game_id=game.pk)
    assert await _quiet(b)
    await send(b, {"chat": "me?"})
    assert 'data-code="chat_off"' in await b.receive_from(timeout=5)
    await b.disconnect()


async def test_a_hidden_message_leaves_every_open_page(alice, bob, charlie):
    game = await db(start_game)(alice, bob)
    a, _ = await game_socket(alice, game.pk)
    b = await connect(bob, f"/ws/games/{game.pk}/")
    await b.receive_from(timeout=5)
    message = await db(services.chat_post)(user=alice, text="rude", game_id=game.pk)
    await receive_json(a)
    await b.receive_from(timeout=5)
    await db(services.message_hide)(message_id=message.pk, by=charlie)
    assert await receive_json(a) == {"chat_hidden": {"id": message.pk}}
    assert await b.receive_from(timeout=5) == (
        f'<div id="chat-msg-{message.pk}" hx-swap-oob="delete"></div>'
    )
    for comm in (a, b):
        await comm.disconnect()


async def test_lobby_chat(alice, bob, charlie):
    lobby = await db(game_services.lobby_create)(host=alice, name="Chatty", seat_count=3)
    a = await connect(alice, f"/ws/lobbies/{lobby.pk}/")
    await a.receive_from(timeout=5)
    c = await connect(charlie, f"/ws/lobbies/{lobby.pk}/")
    await c.receive_from(timeout=5)
    await c.send_to(text_data=json.dumps({"chat": "room for one more?", "HEADERS": {}}))
    for comm in (a, c):
        html = await comm.receive_from(timeout=5)
        assert "room for one more?" in html and 'id="chat-log-players"' in html
    await c.send_to(text_data=json.dumps({"reveal": 1}))
    assert 'data-code="malformed_action"' in await c.receive_from(timeout=5)
    await c.send_to(text_data="not json")
    assert 'data-code="bad_json"' in await c.receive_from(timeout=5)
    for comm in (a, c):
        await comm.disconnect()
    assert await db(Message.objects.filter(lobby=lobby).count)() == 1


async def test_a_mute_leaves_the_lobby_list_socket_alone(alice, bob):
    comm = await connect(bob, "/ws/lobbies/")
    await comm.receive_from(timeout=5)
    await db(services.mute_set)(muter=bob, muted=alice, on=True)
    assert await _quiet(comm)
    await db(game_services.lobby_create)(host=alice, name="Still listening")
    assert "Still listening" in await comm.receive_from(timeout=5)
    await comm.disconnect()


async def _private_lobby_with_bob_seated(alice, bob):
    """Alice's private lobby; Bob joined by its invite and has the lobby page open (its socket
    carries no invite: he is seated); so has Alice."""
    lobby = await db(game_services.lobby_create)(
        host=alice, name="Secret table", seat_count=3, is_public=False
    )
    await db(game_services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    sockets = []
    for user in (alice, bob):
        comm = await connect(user, f"/ws/lobbies/{lobby.pk}/")
        await comm.receive_from(timeout=5)
        sockets.append(comm)
    return lobby, *sockets


async def test_a_player_removed_from_a_private_lobby_is_closed_out_of_its_chat(alice, bob):
    lobby, a, b = await _private_lobby_with_bob_seated(alice, bob)
    await db(game_services.lobby_remove_player)(lobby_id=lobby.pk, host=alice, seat_index=1)
    assert await b.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await b.disconnect()  # as the server does once the close is done: out of the lobby's group
    await a.receive_from(timeout=5)  # the seats without Bob
    await send(a, {"chat": "the secret plan"})
    assert "the secret plan" in await a.receive_from(timeout=5)
    again = await connect(bob, f"/ws/lobbies/{lobby.pk}/", expect=False)
    await again.disconnect()
    await a.disconnect()


async def _bob_removed_unheard(alice, bob, monkeypatch):
    """Alice's private lobby with Bob seated and both sockets open, then Bob removed while the
    lobby's message of it is lost on the way (a full channel)."""
    from channels.layers import get_channel_layer

    lobby, a, b = await _private_lobby_with_bob_seated(alice, bob)
    layer = get_channel_layer()
    original = layer.group_send

    async def lose_lobby_updates(group, message):
        if message.get("type") != "lobby.updated":
            await original(group, message)

    monkeypatch.setattr(layer, "group_send", lose_lobby_updates)
    await db(game_services.lobby_remove_player)(lobby_id=lobby.pk, host=alice, seat_index=1)
    return lobby, a, b


async def test_a_chat_frame_in_a_lobby_no_longer_visible_is_refused_not_a_crash(
    alice, bob, monkeypatch
):
    """Bob's socket never heard of his removal (the lobby's message lost on the way): his next
    chat frame is answered with an error, and the socket stays open."""
    lobby, a, b = await _bob_removed_unheard(alice, bob, monkeypatch)
    await send(b, {"chat": "am I still here?"})
    assert 'data-code="not_found"' in await b.receive_from(timeout=5)
    await send(b, {"chat": "hello?"})
    assert 'data-code="not_found"' in await b.receive_from(timeout=5)
    assert await db(Message.objects.filter(lobby=lobby).count)() == 0
    for comm in (a, b):
        await comm.disconnect()


async def test_a_removed_player_who_missed_the_removal_is_closed_by_the_next_message(
    alice, bob, monkeypatch
):
    """The lobby's message of Bob's removal is lost (a full channel): the lobby's next chat
    message closes his socket (4404) instead of reaching him."""
    lobby, a, b = await _bob_removed_unheard(alice, bob, monkeypatch)
    assert await _quiet(b)  # nothing told him
    await send(a, {"chat": "the secret plan"})
    assert "the secret plan" in await a.receive_from(timeout=5)
    assert await b.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await b.disconnect()
    await send(a, {"chat": "and the next one"})
    assert "and the next one" in await a.receive_from(timeout=5)
    await a.disconnect()


@pytest.mark.parametrize("fmt", ["json", "html"])
async def test_chat_text_that_json_carries_but_no_database_stores_is_cleaned(alice, bob, fmt):
    """A lone surrogate ("\\ud800" is valid JSON) and control characters (PostgreSQL refuses
    NUL) were a server error; they become U+FFFD and nothing."""
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk, fmt=fmt)
    await comm.send_to(text_data='{"chat": "hi \\ud800 there\\u0000\\u0007!"}')
    answer = await comm.receive_from(timeout=5)
    assert "server_error" not in answer and "data-code" not in answer
    await comm.disconnect()
    message = await db(Message.objects.get)(game=game)
    assert message.text == "hi \ufffd there!"
