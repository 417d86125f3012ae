import pytest
from channels.testing import WebsocketCommunicator

from games import services
from games.tests.ws import ROUTER, connect, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_lobby_list_updates_live(alice, bob):
    comm = await connect(bob, "/ws/lobbies/")
    first = await comm.receive_from(timeout=5)
    assert 'id="lobby-list"' in first and "No open lobby" in first
    await db(services.lobby_create)(host=alice, name="Brand new table")
    pushed = await comm.receive_from(timeout=5)
    assert "Brand new table" in pushed
    await comm.disconnect()


async def test_lobby_page_shows_joins_starts_and_removals(alice, bob):
    lobby = await db(services.lobby_create)(host=alice, name="T", seat_count=3)
    host = await connect(alice, f"/ws/lobbies/{lobby.pk}/")
    assert "Empty seat" in await host.receive_from(timeout=5)
    guest = await connect(bob, f"/ws/lobbies/{lobby.pk}/")
    await guest.receive_from(timeout=5)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob)
    assert "bob" in await host.receive_from(timeout=5)
    await guest.receive_from(timeout=5)
    await db(services.lobby_remove_player)(lobby_id=lobby.pk, host=alice, seat_index=1)
    await host.receive_from(timeout=5)
    assert "The host removed you" in await guest.receive_from(timeout=5)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=await _user("charlie"))
    await host.receive_from(timeout=5)
    await guest.receive_from(timeout=5)
    game = await db(services.lobby_start)(lobby_id=lobby.pk, user=alice)
    started = await host.receive_from(timeout=5)
    assert f'data-redirect="/games/{game.pk}/"' in started  # followed by static/js/page.js
    assert "already started without you" in await guest.receive_from(timeout=5)
    await host.disconnect()
    await guest.disconnect()


async def _user(name):
    from django.contrib.auth import get_user_model

    return await get_user_model().objects.acreate(username=name)


async def test_private_lobby_socket_refuses_strangers(alice, bob):
    lobby = await db(services.lobby_create)(host=alice, name="P", is_public=False)
    await connect(bob, f"/ws/lobbies/{lobby.pk}/", expect=False)


async def test_a_wrong_invite_in_any_characters_is_refused_like_none(alice, bob):
    lobby = await db(services.lobby_create)(host=alice, name="P", is_public=False)
    for code in ("wrong", "%C3%A9t%C3%A9", lobby.invite_code[:-1]):
        await connect(bob, f"/ws/lobbies/{lobby.pk}/?invite={code}", expect=False)
    invited = await connect(bob, f"/ws/lobbies/{lobby.pk}/?invite={lobby.invite_code}")
    await invited.disconnect()


async def test_the_invite_does_not_open_a_private_lobby_to_a_removed_player(alice, bob):
    lobby = await db(services.lobby_create)(host=alice, name="P", is_public=False)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    invited = f"/ws/lobbies/{lobby.pk}/?invite={lobby.invite_code}"
    guest = await connect(bob, invited)
    assert "bob" in await guest.receive_from(timeout=5)
    await db(services.lobby_remove_player)(lobby_id=lobby.pk, host=alice, seat_index=1)
    assert await guest.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    await guest.disconnect()
    again = WebsocketCommunicator(ROUTER, invited)
    again.scope.update(user=bob, cookies={})
    assert await again.connect(timeout=5) == (False, 4404)


async def test_a_moderator_follows_a_private_lobby_and_a_player_who_left_is_shut_out(
    alice, bob, moderator
):
    """Moderators see a private lobby as they see its game; whether the socket's user is one is
    read when it connects: a change is rendered without the database (page_after)."""
    lobby = await db(services.lobby_create)(host=alice, name="P", is_public=False)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    watcher = await connect(moderator, f"/ws/lobbies/{lobby.pk}/")
    player = await connect(bob, f"/ws/lobbies/{lobby.pk}/")  # seated: no invite needed
    for comm in (watcher, player):
        assert "bob" in await comm.receive_from(timeout=5)
    await db(services.lobby_leave)(lobby_id=lobby.pk, user=bob)
    assert "bob" not in await watcher.receive_from(timeout=5)
    assert await player.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    for comm in (watcher, player):
        await comm.disconnect()


async def test_a_change_renders_the_lobby_list_once_per_language_whoever_watches(
    alice, monkeypatch
):
    """Each lobby-list socket in another language than the site's rendered the list itself on
    every change (its queries too): one player adding and removing a bot in their lobby, once
    a second, cost a render a second per such watcher. Now once per change and language in a
    process, shared by the sockets that speak it."""
    from web.games import rendering

    watchers = []
    for n in range(6):
        user = await _user(f"nora{n}")
        user.language = "nb"
        await db(user.save)(update_fields=["language"])
        comm = await connect(user, "/ws/lobbies/")
        await comm.receive_from(timeout=5)
        watchers.append(comm)
    renders = []
    original = rendering.lobby_list_html
    monkeypatch.setattr(rendering, "lobby_list_html", lambda: renders.append(1) or original())
    await db(services.lobby_create)(host=alice, name="Fredagsbord")
    for comm in watchers:
        pushed = await comm.receive_from(timeout=5)
        assert "Fredagsbord" in pushed and "vert: " in pushed  # in Norwegian
    assert len(renders) == 1  # once in Norwegian for all six
    for comm in watchers:
        await comm.disconnect()


async def _watch(user, path: str, csrf: str) -> tuple[WebsocketCommunicator, str]:
    """A lobby page socket of ``user`` with the CSRF cookie ``csrf``, and its first page."""
    comm = WebsocketCommunicator(ROUTER, path)
    comm.scope.update(user=user, cookies={"csrftoken": csrf})
    assert (await comm.connect(timeout=5))[0]
    return comm, await comm.receive_from(timeout=5)


async def test_a_change_reads_the_lobby_once_and_each_socket_gets_its_own_page(
    alice, bob, monkeypatch
):
    """A change is read once per process for every socket of the lobby; each socket gets
    exactly the page its user would get on connecting (host controls to the host only, its
    own CSRF token)."""
    from games import selectors

    lobby = await db(services.lobby_create)(host=alice, name="T", seat_count=4)
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob)
    path = f"/ws/lobbies/{lobby.pk}/"
    viewers = [(alice, "host-token"), (bob, "bob-token")]
    for n in range(8):
        watcher = await _user(f"watcher{n}")
        if n % 2:
            watcher.language = "de"
            await db(watcher.save)(update_fields=["language"])
        viewers.append((watcher, f"token-{n}"))
    sockets = [(await _watch(user, path, csrf))[0] for user, csrf in viewers]
    reads = []
    read = selectors.lobby_with_seats
    monkeypatch.setattr(
        selectors, "lobby_with_seats", lambda *args, **kw: reads.append(1) or read(*args, **kw)
    )
    await db(services.lobby_add_bot)(lobby_id=lobby.pk, host=alice, seat_index=2, level="easy")
    pushed = [await comm.receive_from(timeout=5) for comm in sockets]
    assert len(reads) == 1
    monkeypatch.setattr(selectors, "lobby_with_seats", read)
    assert "Remove the bot" in pushed[0] and "Start the game" in pushed[0]
    assert all("Remove" not in page and "Start the game" not in page for page in pushed[1:])
    for (user, csrf), page in zip(viewers, pushed, strict=True):
        assert f'value="{csrf}"' in page
        fresh, first = await _watch(user, path, csrf)
        await fresh.disconnect()
        assert page == first
    for comm in sockets:
        await comm.disconnect()
