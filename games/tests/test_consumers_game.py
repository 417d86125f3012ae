import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import engine, services
from games.models import Game, Move
from games.tests.helpers import play_to_end, reveal_all, start_game
from games.tests.ws import connect, db, game_socket, receive_json, send
from skyjo_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def new_game(*users, **options):
    return await db(start_game)(*users, **options)


async def state_of(game) -> engine.Game:
    return engine.from_snapshot((await Game.objects.aget(pk=game.pk)).snapshot)


async def test_first_frame_is_the_players_view_with_version(alice, bob):
    game = await new_game(alice, bob)
    comm, frame = await game_socket(alice, game.pk)
    expected = engine.view_of(await state_of(game), 0).to_json()
    assert frame == {**expected, "version": 0}
    await comm.disconnect()


async def test_a_move_reaches_every_socket_with_its_version(alice, bob, charlie):
    game = await new_game(alice, bob)
    a, _ = await game_socket(alice, game.pk)
    b, _ = await game_socket(bob, game.pk)
    c, _ = await game_socket(charlie, game.pk)  # a spectator of a public game
    await send(a, {"reveal": 3, "version": 0})
    frames = [await receive_json(comm) for comm in (a, b, c)]
    state = await state_of(game)
    for frame, seat in zip(frames, (0, 1, None), strict=True):
        assert frame == {**engine.view_of(state, seat).to_json(), "version": 1}
        assert frame["players"][0]["grid"][3] != "?"
    for comm in (a, b, c):
        await comm.disconnect()


async def test_the_drawn_card_goes_to_the_drawer_alone(alice, bob, charlie):
    game = await new_game(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    state = await state_of(game)
    users = [alice, bob]
    player = state.current
    sockets = [await game_socket(u, game.pk) for u in (alice, bob, charlie)]
    await send(sockets[player][0], {"take": "deck", "version": 4})
    frames = [await receive_json(comm) for comm, _ in sockets]
    drawn = (await state_of(game)).drawn
    assert drawn is not None
    for seat, frame in enumerate(frames):
        assert frame["version"] == 5
        assert frame["drawn"] == (drawn if seat == player else None)
    # the drawer's second tab gets it too
    tab, first = await game_socket(users[player], game.pk)
    assert first["drawn"] == drawn
    for comm, _ in sockets:
        await comm.disconnect()
    await tab.disconnect()


async def test_the_drawers_other_open_tab_sees_the_drawn_card_too(alice, bob):
    game = await new_game(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    player = (await state_of(game)).current
    user = [alice, bob][player]
    acting, _ = await game_socket(user, game.pk)
    other_tab, _ = await game_socket(user, game.pk)
    await send(acting, {"take": "deck", "version": 4})
    frames = [await receive_json(acting), await receive_json(other_tab)]
    drawn = (await state_of(game)).drawn
    assert drawn is not None
    assert [f["drawn"] for f in frames] == [drawn, drawn]
    assert [f["version"] for f in frames] == [5, 5]
    await acting.disconnect()
    await other_tab.disconnect()


async def test_a_stale_or_duplicate_submission_changes_nothing(alice, bob):
    game = await new_game(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    player = (await state_of(game)).current
    comm, _ = await game_socket([alice, bob][player], game.pk)
    await send(comm, {"take": "deck", "version": 4})
    assert (await receive_json(comm))["version"] == 5
    await send(comm, {"take": "deck", "version": 4})  # double click
    error = await receive_json(comm)
    assert error["error"]["code"] == "stale_version" and error["error"]["version"] == 5
    assert await Move.objects.filter(game=game).acount() == 5
    await comm.disconnect()


BAD_FRAMES = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ('{"jump": 3, "version": 0}', "malformed_action"),
    ('{"reveal": 12, "version": 0}', "bad_position"),
    ('{"reveal": -1, "version": 0}', "bad_position"),
    ('{"reveal": 1}', "bad_request"),
    ('{"reveal": 1, "version": "x"}', "bad_request"),
    ('{"take": "deck", "version": 0}', "wrong_phase"),
    ('{"ready": 1}', "bad_request"),
    ("x" * 5000, "frame_too_large"),
]


@pytest.mark.parametrize(("text", "code"), BAD_FRAMES)
async def test_bad_frames_get_named_errors_and_the_server_keeps_serving(alice, bob, text, code):
    game = await new_game(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    await comm.send_to(text_data=text)
    frame = await receive_json(comm)
    assert frame["error"]["code"] == code and frame["error"]["message"]
    assert await Move.objects.filter(game=game).acount() == 0
    await send(comm, {"reveal": 0, "version": 0})
    assert (await receive_json(comm))["version"] == 1
    await comm.disconnect()


async def test_binary_frames_are_refused(alice, bob):
    game = await new_game(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    await comm.send_to(bytes_data=b"\x00\x01")
    assert (await receive_json(comm))["error"]["code"] == "bad_frame"
    await comm.disconnect()


async def test_a_move_on_someone_elses_turn_is_refused(alice, bob):
    game = await new_game(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    other = 1 - (await state_of(game)).current
    comm, _ = await game_socket([alice, bob][other], game.pk)
    await send(comm, {"take": "deck", "version": 4})
    assert (await receive_json(comm))["error"]["code"] == "not_your_turn"
    await comm.disconnect()


async def test_a_spectator_cannot_move(alice, bob, charlie):
    game = await new_game(alice, bob)
    comm, frame = await game_socket(charlie, game.pk)
    assert all(c == "?" for p in frame["players"] for c in p["grid"])
    await send(comm, {"reveal": 0, "version": 0})
    assert (await receive_json(comm))["error"]["code"] == "not_a_player"
    await comm.disconnect()


async def test_a_finished_game_refuses_moves(alice, bob):
    game = await new_game(alice, bob, end_score=10)
    await db(play_to_end)(game, [alice, bob])
    comm, frame = await game_socket(alice, game.pk)
    assert frame["phase"] == "game_over"
    await send(comm, {"take": "deck", "version": frame["version"]})
    assert (await receive_json(comm))["error"]["code"] == "game_over"
    await comm.disconnect()


async def test_anonymous_banned_and_strangers_are_refused(alice, bob, charlie):
    from django.contrib.auth.models import AnonymousUser

    lobby = await db(services.lobby_create)(host=alice, name="P", is_public=False)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = await db(services.lobby_start)(lobby_id=lobby.pk, user=alice)
    await connect(AnonymousUser(), f"/ws/games/{game.pk}/", expect=False)
    await connect(charlie, f"/ws/games/{game.pk}/", expect=False)
    await connect(charlie, "/ws/games/999999/", expect=False)
    await db(bob.ban)("test")
    await connect(bob, f"/ws/games/{game.pk}/", expect=False)


async def test_a_moderator_may_watch_a_private_game_and_staff_alone_may_not(
    alice, bob, moderator, staff
):
    lobby = await db(services.lobby_create)(host=alice, name="P", is_public=False)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = await db(services.lobby_start)(lobby_id=lobby.pk, user=alice)
    await connect(staff, f"/ws/games/{game.pk}/", expect=False)
    comm, frame = await game_socket(moderator, game.pk)
    assert frame["version"] == game.version and "drawn" in frame
    await comm.disconnect()


async def test_the_real_stack_needs_a_session_and_an_origin(alice, bob):
    game = await new_game(alice, bob)
    client = Client()
    await sync_to_async(client.force_login)(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    path = f"/ws/games/{game.pk}/?format=json"
    ok = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie)]
    )
    assert (await ok.connect())[0]
    assert (await receive_json(ok))["version"] == 0
    await ok.disconnect()
    for headers in ([(b"origin", b"http://127.0.0.1")], [(b"cookie", cookie)]):
        refused = WebsocketCommunicator(application, path, headers=headers)
        assert not (await refused.connect())[0]
    await sync_to_async(client.logout)()
    stale = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie)]
    )
    assert not (await stale.connect())[0]


async def test_html_mode_coerces_form_strings_and_swaps_by_id(alice, bob):
    game = await new_game(alice, bob)
    comm, first = await game_socket(alice, game.pk, fmt="html")
    assert 'id="board"' in first and 'id="controls"' in first and 'data-version="0"' in first
    await send(comm, {"reveal": "2", "version": "0", "HEADERS": {"HX-Request": "true"}})
    frame = await comm.receive_from(timeout=5)
    assert 'data-version="1"' in frame and "Turn 1 of your cards" in frame
    await send(comm, {"reveal": "2", "version": "1"})
    error = await comm.receive_from(timeout=5)
    assert 'id="flash"' in error and "already face up" in error
    await comm.disconnect()


async def test_ready_and_rematch_over_the_socket(alice, bob):
    game = await new_game(alice, bob, end_score=1000)
    await db(reveal_all)(game, [alice, bob])
    comm, frame = await game_socket(alice, game.pk)
    await send(comm, {"ready": True})
    assert (await receive_json(comm))["error"]["code"] == "wrong_phase"
    await send(comm, {"rematch": True})
    assert (await receive_json(comm))["error"]["code"] == "wrong_phase"
    await send(comm, {"sync": True})
    assert (await receive_json(comm))["version"] == frame["version"]
    await comm.disconnect()


async def test_a_socket_that_was_away_gets_the_state_it_missed(alice, bob):
    game = await new_game(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    await comm.disconnect()
    await db(reveal_all)(game, [alice, bob])
    again, frame = await game_socket(alice, game.pk)
    assert frame == {**engine.view_of(await state_of(game), 0).to_json(), "version": 4}
    await again.disconnect()


async def test_repeated_syncs_read_the_game_only_when_it_changed(alice, bob, settings, monkeypatch):
    """Every ``sync`` read the whole game from the database: one user's 20 sockets, each at
    10 frames a second, asked for 200 reads a second. A socket that already sent the saved
    version now sends that frame again, reading only the version."""
    from games import publish, selectors

    settings.RATELIMIT_ENABLE = False
    game = await new_game(alice, bob)
    json_socket, first = await game_socket(alice, game.pk)
    html_socket, first_html = await game_socket(alice, game.pk, fmt="html")
    reads = []
    read = selectors.game_state_by_id
    monkeypatch.setattr(selectors, "game_state_by_id", lambda **kw: reads.append(1) or read(**kw))
    for _ in range(20):
        await send(json_socket, {"sync": True})
        assert await receive_json(json_socket) == first
        await send(html_socket, {"sync": True})
        assert await html_socket.receive_from(timeout=5) == first_html
    assert reads == []
    # A change whose message never reached the sockets: the next sync reads it, once.
    monkeypatch.setattr(publish, "game_changed", lambda *args: None)
    await db(services.game_apply_action)(game_id=game.pk, user=bob, action={"reveal": 0}, version=0)
    await send(json_socket, {"sync": True})
    current = {**engine.view_of(await state_of(game), 0).to_json(), "version": 1}
    assert await receive_json(json_socket) == current and len(reads) == 1
    await send(json_socket, {"sync": True})
    assert await receive_json(json_socket) == current and len(reads) == 1
    await json_socket.disconnect()
    await html_socket.disconnect()
