"""Publishing and rendering on the hot path: nothing rendered twice or for nobody, nothing sent
from the thread that does the database calls, and a socket's connect in a few queries."""

import threading

import pytest
from channels.db import database_sync_to_async
from django.db.backends.utils import CursorWrapper

from games import publish, services
from games.models import Game
from games.tests.helpers import restore, reveal_all, start_game
from games.tests.ws import game_socket, receive_json
from web.games import rendering

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

db = database_sync_to_async


@pytest.fixture
def renders(monkeypatch):
    """Every board rendered, as (game, version, language)."""
    done = []
    original = rendering.board_html

    def counting(view, meta):
        from django.utils import translation

        done.append((meta["game"], meta["version"], translation.get_language()))
        return original(view, meta)

    monkeypatch.setattr(rendering, "board_html", counting)
    return done


def speaking(user, language):
    user.language = language
    user.save(update_fields=["language"])
    return user


async def a_move(game, users):
    """The player to act draws; returns the new version."""
    state = await db(restore)(game)
    await db(services.game_apply_action)(
        game_id=game.pk, user=users[state.current], action={"take": "deck"}, version=game.version
    )
    return game.version + 1


async def test_html_sockets_share_one_board_per_version_and_language(alice, bob, charlie, renders):
    game = await db(start_game)(alice, bob, charlie)
    await db(reveal_all)(game, [alice, bob, charlie])
    await db(game.refresh_from_db)()
    await db(speaking)(charlie, "de")
    sockets = [(await game_socket(u, game.pk, "html"))[0] for u in (alice, bob, charlie)]
    sockets += [(await game_socket(u, game.pk, "html"))[0] for u in (alice, bob)]
    version = await a_move(game, [alice, bob, charlie])
    frames = [await s.receive_from(timeout=5) for s in sockets]
    assert all(f'data-version="{version}"' in f for f in frames)
    assert sorted(r for r in renders if r[1] == version) == [
        (game.pk, version, "de"),
        (game.pk, version, "en"),
    ]
    for s in sockets:
        await s.disconnect()


async def test_a_game_whose_sockets_all_speak_json_renders_no_board(alice, bob, renders):
    game = await db(start_game)(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    await db(game.refresh_from_db)()
    sockets = [(await game_socket(u, game.pk, "json"))[0] for u in (alice, bob)]
    version = await a_move(game, [alice, bob])
    frames = [await receive_json(s) for s in sockets]
    assert [f["version"] for f in frames] == [version, version]
    assert renders == []
    for s in sockets:
        await s.disconnect()


async def test_publishing_does_not_hold_up_the_database_thread(alice, bob, monkeypatch):
    """The service returns before the message is sent: the send runs on the event loop's
    thread, not on the one that made the database calls; the sockets still get it."""
    game = await db(start_game)(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    await db(game.refresh_from_db)()
    sent_on = []
    layer = publish.get_channel_layer()
    layer_send = layer.group_send

    async def watched(group, message):
        sent_on.append(threading.get_ident())
        return await layer_send(group, message)

    monkeypatch.setattr(layer, "group_send", watched)
    comm, _first = await game_socket(alice, game.pk, "json")
    db_thread = await db(threading.get_ident)()
    version = await a_move(game, [alice, bob])
    assert (await receive_json(comm))["version"] == version
    assert sent_on and set(sent_on) == {threading.get_ident()} and db_thread not in sent_on
    await comm.disconnect()


async def test_messages_of_one_game_are_sent_in_order(alice, bob):
    game = await db(start_game)(alice, bob)
    comm, first = await game_socket(alice, game.pk, "json")
    for user in (alice, bob):
        for pos in (0, 1):
            await db(services.game_apply_action)(
                game_id=game.pk, user=user, action={"reveal": pos}, version=0
            )
    versions = [(await receive_json(comm))["version"] for _ in range(4)]
    assert versions == [first["version"] + k for k in range(1, 5)]
    await comm.disconnect()


async def test_a_socket_connects_in_two_reads_and_one_write_and_replays_nothing(
    alice, bob, monkeypatch
):
    game = await db(start_game)(alice, bob)
    await db(reveal_all)(game, [alice, bob])

    def no_replay(*args, **kwargs):
        raise AssertionError("connect replayed the record")

    monkeypatch.setattr("games.engine.from_record", no_replay)
    statements = []  # on whichever thread the consumer's database calls run
    original = CursorWrapper._execute_with_wrappers

    def counting(self, sql, *args, **kwargs):
        statements.append(sql)
        return original(self, sql, *args, **kwargs)

    monkeypatch.setattr(CursorWrapper, "_execute_with_wrappers", counting)
    comm, first = await game_socket(alice, game.pk, "json")
    monkeypatch.setattr(CursorWrapper, "_execute_with_wrappers", original)
    assert first["version"] == (await Game.objects.aget(pk=game.pk)).version
    # The game and its seats; then its seat's socket counted, with the game's seats_version
    # (games.services.held), in one transaction.
    shapes = [" ".join(sql.split()[:2]) for sql in statements if not sql.startswith("BEGIN")]
    assert shapes == [
        'SELECT "games_game"."id",',
        'SELECT "games_gameplayer"."id",',
        'UPDATE "games_game"',
        'UPDATE "games_gameplayer"',
    ], [sql[:80] for sql in statements]
    await comm.disconnect()
