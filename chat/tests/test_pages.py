"""The chat on pages: shown on load, escaped everywhere, spectators apart, mute and chat off."""

import json

import pytest
from django.urls import reverse

from chat import services
from chat.models import Message, Mute
from games import services as game_services
from games.tests.helpers import play_to_end, start_game
from games.tests.ws import connect, db, game_socket, receive_json

EVIL = "<script>alert(1)</script><img src=x onerror=\"alert('2')\">&amp;"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(&#x27;2&#x27;)&quot;&gt;&amp;amp;"


def _page(client, user, url):
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_last_messages_on_load_and_spectators_apart(client, alice, bob, charlie):
    game = start_game(alice, bob)
    services.chat_post(user=alice, text="players only", game_id=game.pk)
    services.chat_post(user=charlie, text="from the stands", game_id=game.pk)
    page = _page(client, bob, f"/games/{game.pk}/")
    assert "players only" in page and "from the stands" not in page
    assert "Players&#x27; chat" in page or "Players' chat" in page
    page = _page(client, charlie, f"/games/{game.pk}/")
    assert "from the stands" in page and "players only" not in page
    # After the game the players may read what the spectators said.
    play_to_end(game, [alice, bob])
    page = _page(client, bob, f"/games/{game.pk}/")
    assert "from the stands" in page and "players only" in page


@pytest.mark.django_db
def test_only_the_last_fifty_hidden_and_muted_left_out(client, settings, alice, bob, charlie):
    settings.RATELIMIT_ENABLE = False
    game = start_game(alice, bob, charlie)
    for i in range(55):
        services.chat_post(user=alice, text=f"line {i:02d}.", game_id=game.pk)
    rude = services.chat_post(user=alice, text="rude words", game_id=game.pk)
    services.message_hide(message_id=rude.pk, by=charlie)
    services.chat_post(user=charlie, text="charlie here", game_id=game.pk)
    page = _page(client, bob, f"/games/{game.pk}/")
    assert "line 05." not in page and "line 06." in page and "line 54." in page
    assert "rude words" not in page
    assert f'id="chat-msg-{rude.pk - 1}"' in page
    services.mute_set(muter=bob, muted=charlie, on=True)
    assert "charlie here" not in _page(client, bob, f"/games/{game.pk}/")


@pytest.mark.django_db
def test_mute_and_chat_switch_views(client, alice, bob):
    client.force_login(bob)
    response = client.post(
        reverse("chat:mute", args=[alice.pk]), {"on": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert Mute.objects.filter(muter=bob, muted=alice).exists()
    client.post(reverse("chat:mute", args=[alice.pk]), {"on": "0"}, HTTP_HX_REQUEST="true")
    assert not Mute.objects.exists()
    response = client.post(reverse("chat:enable"), {"on": "0", "next": "/games/"})
    assert response.status_code == 302 and response["Location"] == "/games/"
    bob.refresh_from_db()
    assert bob.chat_enabled is False
    response = client.post(reverse("chat:enable"), {"on": "1", "next": "https://evil.example/"})
    assert response["Location"] == reverse("accounts:settings")
    bob.refresh_from_db()
    assert bob.chat_enabled is True
    assert client.get(reverse("chat:enable")).status_code == 405


@pytest.mark.django_db
def test_chat_off_page(client, alice, bob):
    game = start_game(alice, bob)
    services.chat_post(user=alice, text="can you see me", game_id=game.pk)
    services.chat_enable(user=bob, enabled=False)
    page = _page(client, bob, f"/games/{game.pk}/")
    assert "Your chat is off" in page and "can you see me" not in page
    assert "Turn chat on" in page


@pytest.mark.django_db
def test_quick_message_buttons_translated(client, alice, bob):
    game = start_game(alice, bob)
    alice.language = "nb"
    alice.save(update_fields=["language"])
    page = _page(client, alice, f"/games/{game.pk}/")
    for code in ("gg", "wp", "hurry"):
        assert f'data-chat-quick="{code}"' in page
    assert "Good game" not in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_html_and_script_are_escaped_on_every_page_and_push(client, alice, bob, charlie):
    game = await db(start_game)(alice, bob)
    lobby = await db(game_services.lobby_create)(host=alice, name="Open table")
    b = await connect(bob, f"/ws/games/{game.pk}/")
    await b.receive_from(timeout=5)
    bj, _ = await game_socket(bob, game.pk)
    cl = await connect(charlie, f"/ws/lobbies/{lobby.pk}/")
    await cl.receive_from(timeout=5)
    cg = await connect(charlie, f"/ws/games/{game.pk}/")
    await cg.receive_from(timeout=5)

    await db(services.chat_post)(user=alice, text=EVIL, game_id=game.pk)
    await db(services.chat_post)(user=alice, text=EVIL, lobby_id=lobby.pk)
    await db(services.chat_post)(user=charlie, text=EVIL, game_id=game.pk)
    pushed = [await b.receive_from(timeout=5), await cl.receive_from(timeout=5)]
    pushed.append(await cg.receive_from(timeout=5))
    assert json.loads(json.dumps((await receive_json(bj))["chat"]["text"])) == " ".join(
        EVIL.split()
    )
    # the JSON socket carries the text as data (a client escapes it where it shows it)
    await db(services.mute_set)(muter=bob, muted=charlie, on=True)  # a redrawn panel
    pushed.append(await b.receive_from(timeout=5))
    pages = []
    for user, url in ((bob, f"/games/{game.pk}/"), (charlie, f"/games/{game.pk}/")):
        pages.append(await db(_page)(client, user, url))
    pages.append(await db(_page)(client, charlie, f"/lobbies/{lobby.pk}/"))
    await db(play_to_end)(game, [alice, bob])
    pages.append(await db(_page)(client, bob, f"/games/{game.pk}/"))  # spectators' too
    escaped_once = " ".join(ESCAPED.split())
    for html in pushed + pages:  # pushed[3]: bob's panel redrawn after a mute
        assert "<script>alert" not in html and "<img src=x" not in html
        assert escaped_once in html
    assert await db(Message.objects.count)() == 3
    for comm in (b, bj, cl, cg):
        await comm.disconnect()


@pytest.mark.django_db
def test_settings_list_muted_players_and_unmute(client, alice, bob, charlie):
    services.mute_set(muter=bob, muted=alice, on=True)
    page = _page(client, bob, reverse("accounts:settings"))
    assert "Muted players" in page and "alice" in page and "charlie" not in page
    assert f'action="{reverse("chat:mute", args=[alice.pk])}"' in page
    response = client.post(
        reverse("chat:mute", args=[alice.pk]), {"on": "0", "next": reverse("accounts:settings")}
    )
    assert response.status_code == 302 and response["Location"] == reverse("accounts:settings")
    assert not Mute.objects.exists()
    assert "You have muted nobody" in _page(client, bob, reverse("accounts:settings"))
    client.post(reverse("chat:enable"), {"on": "0", "next": reverse("accounts:settings")})
    assert "Turn chat on" in _page(client, bob, reverse("accounts:settings"))


@pytest.mark.django_db
@pytest.mark.parametrize("back", ["foo", "home", "games:game", "settings"])
def test_it_sends_a_next_or_referer_that_is_no_path_to_the_settings(client, alice, bob, back):
    """A word is no page: it was taken for a URL name, a server error when none has it."""
    client.force_login(bob)
    settings_page = reverse("accounts:settings")
    response = client.post(reverse("chat:enable"), {"on": "1", "next": back})
    assert response.status_code == 302 and response["Location"] == settings_page
    response = client.post(reverse("chat:mute", args=[alice.pk]), {"on": "1"}, HTTP_REFERER=back)
    assert response.status_code == 302 and response["Location"] == settings_page
    game_page = "http://testserver/games/1/"  # a browser's Referer: a URL of this site
    response = client.post(
        reverse("chat:mute", args=[alice.pk]), {"on": "0"}, HTTP_REFERER=game_page
    )
    assert response["Location"] == game_page
