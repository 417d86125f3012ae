"""Translations: pages, prompts, messages and game sockets in the player's language, and the
locale files complete and compiled (README, Translations)."""

import json
from pathlib import Path

import polib
import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.urls import reverse

from games import services
from games.tests.helpers import start_game
from games.tests.ws import ROUTER, db, game_socket, send

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def speaks(user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    return user


@pytest.mark.django_db
def test_a_german_player_gets_german_navigation_and_home_page(client, alice):
    client.force_login(speaks(alice, "de"))
    page = client.get(reverse("home")).content.decode()
    for text in ("Lobbys", "Regeln", "Einstellungen", "Abmelden", "Skyjo online spielen"):
        assert text in page
    assert "Gegen Bots spielen" in page and "Stufe" in page and "Mittel" in page
    assert "Play against bots" not in page and ">Rules<" not in page


@pytest.mark.django_db
def test_a_german_player_gets_a_german_lobby_page(client, alice):
    lobby = services.lobby_create(host=alice, name="Freitag", seat_count=3)
    client.force_login(speaks(alice, "de"))
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    for text in (
        "1 von 3 Plätzen besetzt",
        "Regeln an diesem Tisch",
        "Freier Platz",
        "Spiel starten",
    ):
        assert text in page
    assert "Bot hinzufügen" in page and "Empty seat" not in page


@pytest.mark.django_db
def test_a_german_player_gets_german_game_prompts(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(speaks(alice, "de"))
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Runde 1" in page and "Zwei Karten aufdecken" in page  # the board: round and phase
    assert "Decke 2 deiner Karten auf: Klicke auf zwei verdeckte Karten." in page  # the prompt
    assert "Nachziehstapel" in page and "Ablagestapel" in page
    assert "Turn 2 of your cards" not in page and "Reveal two cards" not in page


@pytest.mark.django_db
def test_a_service_error_reaches_a_german_player_in_german(client, alice, bob, charlie):
    lobby = services.lobby_create(host=alice, name="Zwei", seat_count=2)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    client.force_login(speaks(charlie, "de"))
    response = client.post(reverse("games:lobby_join", args=[lobby.pk]), follow=True)
    assert "Diese Lobby ist voll: Alle Plätze sind besetzt." in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("nb", ["Spill Skyjo på nett", "Regler", "Innstillinger", "Spill mot boter"]),
        ("sv", ["Spela Skyjo online", "Regler", "Inställningar", "Spela mot bottar"]),
        ("nl", ["Speel Skyjo online", "Regels", "Instellingen", "Speel tegen bots"]),
        ("fr", ["Jouez à Skyjo en ligne", "Règles", "Réglages", "Jouer contre des bots"]),
    ],
)
def test_each_language_is_shown(client, alice, bob, language, texts):
    client.force_login(speaks(alice, language))
    page = client.get(reverse("home")).content.decode()
    assert f'<html lang="{language}">' in page
    for text in texts:
        assert text in page
    game = start_game(alice, bob)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Turn 2 of your cards" not in page
    drawn = {"nb": "trekkbunke", "sv": "draghög", "nl": "trekstapel", "fr": "pioche"}[language]
    assert drawn in page


@pytest.mark.django_db
def test_an_anonymous_browser_gets_its_accept_language(client):
    response = client.get(reverse("home"), headers={"accept-language": "nl-NL,nl;q=0.9,en;q=0.5"})
    page = response.content.decode()
    assert response.headers["Content-Language"] == "nl"
    assert "Speel Skyjo online" in page and "Inloggen" in page and "Log in" not in page
    rules = client.get(reverse("games:rules"), headers={"accept-language": "nl"}).content.decode()
    assert "Zo speel je Skyjo" in rules and "aflegstapel" in rules


@pytest.mark.django_db
def test_english_stays_the_default(client):
    page = client.get(reverse("home"), headers={"accept-language": "it"}).content.decode()
    assert '<html lang="en">' in page and "Play Skyjo online" in page


# Game sockets ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_each_socket_gets_the_board_and_errors_in_its_own_language(alice, bob):
    game = await db(start_game)(alice, bob)
    await db(speaks)(alice, "de")
    german, first = await game_socket(alice, game.pk, fmt="html")
    assert "Decke 2 deiner Karten auf" in first and "Zwei Karten aufdecken" in first
    english, first = await game_socket(bob, game.pk, fmt="html")
    assert "Turn 2 of your cards face up" in first

    await send(english, {"reveal": 0, "version": 0})  # a push rendered once, in English
    assert "Reveal two cards" in await english.receive_from(timeout=5)
    pushed = await german.receive_from(timeout=5)
    assert "Zwei Karten aufdecken" in pushed and "Reveal two cards" not in pushed

    await send(german, {"take": "deck", "version": 99})
    error = await german.receive_from(timeout=5)
    while 'data-shown="1"' not in error:  # skip any state frame still on its way
        error = await german.receive_from(timeout=5)
    assert "Dein Zug beruhte auf Version 99" in error
    await german.disconnect()
    await english.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_follows_accept_language_and_keeps_json_codes(alice, bob):
    game = await db(start_game)(alice, bob)
    comm = WebsocketCommunicator(
        ROUTER, f"/ws/games/{game.pk}/?format=json", headers=[(b"accept-language", b"sv")]
    )
    comm.scope["user"] = alice
    comm.scope["cookies"] = {}
    assert (await comm.connect(timeout=5))[0]
    await comm.receive_from(timeout=5)
    await send(comm, {"take": "deck", "version": 99})
    error = json.loads(await comm.receive_from(timeout=5))["error"]
    assert error["code"] == "stale_version" and error["version"] == 0
    assert error["message"].startswith("Ditt drag byggde på version 99")
    await comm.disconnect()


# Locale files ----------------------------------------------------------------------------


def _entries(catalog) -> dict:
    entries = {}
    for entry in catalog:
        if entry.obsolete or not entry.msgid:
            continue
        key = (entry.msgctxt, entry.msgid, entry.msgid_plural)
        plural = tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
        entries[key] = plural if entry.msgid_plural else entry.msgstr
    return entries


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    assert po.metadata["Language"] == language
    assert not po.metadata_is_fuzzy
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert len(po.translated_entries()) > 250


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_mo_file_is_up_to_date(language, tmp_path):
    folder = LOCALE / language / "LC_MESSAGES"
    po = polib.pofile(str(folder / "django.po"))
    fresh = tmp_path / "django.mo"
    po.save_as_mofile(str(fresh))
    committed = _entries(polib.mofile(str(folder / "django.mo")))
    assert committed == _entries(polib.mofile(str(fresh))), (
        f"locale/{language}: run `django-admin compilemessages --ignore=.venv` and commit the .mo"
    )
