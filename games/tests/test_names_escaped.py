"""A player's name and a table's name are text on every page and in every pushed fragment.
Names typed at registration are only letters, digits, ``_`` and ``-``, but older accounts (and
a superuser's rename) may hold anything, and a lobby's name is free text: here both carry HTML
and script (the chat's own escaping: chat/tests/test_pages.py)."""

import random

import pytest
from django.urls import reverse

from games import services
from games.tests.helpers import play_one, play_to_end
from games.tests.ws import connect, db, game_socket
from moderation import services as moderation_services

NAME = "<img src=x onerror=alert(1)>"
TABLE = "<script>alert(2)</script><b onclick=alert(3)>"
RAW = ("<img src=x", "<script>alert", "<b onclick")


def _clean(html: str, where: str) -> None:
    for raw in RAW:
        assert raw not in html, (where, raw)


def _page(client, user, url) -> str:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_html_in_names_is_escaped_on_every_page_and_push(
    client, django_user_model, alice, bob, charlie, moderator
):
    evil = await db(django_user_model.objects.create_user)(username=NAME, password="x-1-y-2-z")
    lobby = await db(services.lobby_create)(host=evil, name=TABLE, seat_count=3)
    list_socket = await connect(charlie, "/ws/lobbies/")
    _clean(await list_socket.receive_from(timeout=5), "lobby list socket")
    lobby_socket = await connect(charlie, f"/ws/lobbies/{lobby.pk}/")
    _clean(await lobby_socket.receive_from(timeout=5), "lobby socket")
    for user in (alice, bob):
        await db(services.lobby_join)(lobby_id=lobby.pk, user=user)
        _clean(await lobby_socket.receive_from(timeout=5), "lobby socket push")
        _clean(await list_socket.receive_from(timeout=5), "lobby list push")
    pages = {
        "lobby list": await db(_page)(client, charlie, reverse("games:lobbies")),
        "lobby": await db(_page)(client, charlie, reverse("games:lobby", args=[lobby.pk])),
    }
    game = await db(services.lobby_start)(lobby_id=lobby.pk, user=evil)
    watcher, first = await game_socket(charlie, game.pk, "html")
    _clean(first, "game socket")
    rng = random.Random(4)
    for _ in range(12):  # reveals, then turns: the move log and the prompts name the players
        await db(play_one)(game, [evil, alice, bob], rng)
        _clean(await watcher.receive_from(timeout=5), "game socket push")
    for user in (charlie, evil, alice):
        pages[f"game as {user.pk}"] = await db(_page)(client, user, f"/games/{game.pk}/")
    pages["report"] = await db(_page)(
        client, alice, reverse("moderation:report_game", args=[game.pk])
    )
    await db(moderation_services.report_create)(
        reporter=alice, kind="player", target_id=evil.pk, reason="name"
    )
    for name, url in [
        ("queue", reverse("moderation:queue")),
        ("player file", reverse("moderation:player", args=[NAME])),
        ("game file", reverse("moderation:game", args=[game.pk])),
    ]:
        pages[name] = await db(_page)(client, moderator, url)
    await watcher.disconnect()
    await lobby_socket.disconnect()
    await list_socket.disconnect()
    await db(moderation_services.game_stop)(moderator=moderator, game_id=game.pk)
    for name, url in [
        ("profile", reverse("accounts:profile", args=[NAME])),
        ("players", reverse("accounts:leaderboard") + "?q=img"),
        ("replay", reverse("games:replay", args=[game.pk]) + "?step=9"),
        ("stopped game", f"/games/{game.pk}/"),
    ]:
        pages[name] = await db(_page)(client, alice, url)
    for where, html in pages.items():
        _clean(html, where)
    for where in ("lobby", f"game as {charlie.pk}", "queue", "player file", "profile"):
        assert "&lt;img src=x onerror=alert(1)&gt;" in pages[where], where
    for where in ("lobby list", "lobby", "report", "game file", "replay"):
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in pages[where], where


@pytest.mark.django_db
def test_a_finished_game_of_such_names_replays_escaped(client, django_user_model, alice):
    evil = django_user_model.objects.create_user(username=NAME, password="x-1-y-2-z")
    lobby = services.lobby_create(host=evil, name=TABLE, seat_count=2, end_score=20)
    services.lobby_join(lobby_id=lobby.pk, user=alice)
    game = services.lobby_start(lobby_id=lobby.pk, user=evil)
    play_to_end(game, [evil, alice])
    for url in (
        f"/games/{game.pk}/",
        reverse("games:replay", args=[game.pk]),
        reverse("games:replay", args=[game.pk]) + "?step=99999",
        reverse("accounts:profile", args=["alice"]),
        reverse("analysis:summary", args=[game.pk]),
    ):
        client.force_login(alice)
        response = client.get(url)
        assert response.status_code in (200, 286), url
        _clean(response.content.decode(), url)
