"""Translations: pages, prompts, messages and game sockets in the player's language, and the
locale files complete and compiled (docs/translations.md)."""

import json
import random
import re
from pathlib import Path

import polib
import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.urls import reverse

from games import engine, services
from games.models import Game
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
    assert "Das Spiel ging weiter, bevor dein Zug ankam" in error
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
    assert error["message"].startswith("Spelet gick vidare innan ditt drag kom fram")
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


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_s_row_is_called_by_one_word_in_every_message(language):
    """The replay's move list, its best move, the last moves and the cards' labels sit side by
    side: one row must not be a "rad" in one line and a "rekke" in the next."""
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    words = {}
    for entry in po.translated_entries():
        if "row %(row)s" in entry.msgid:
            word = re.search(r"(\w+)\s+%\(row\)s", entry.msgstr).group(1)
            words.setdefault(word, []).append(entry.msgid)
    assert len(words) == 1, words


# Names, replays and errors in the viewer's language ------------------------------------------


def finish_vs_bots(user, bots=2, end_score=1):
    """A game of ``user`` against medium bots, played to its end through the services."""
    game = services.bot_game_create(user=user, bots=bots, level="medium", end_score=end_score)
    rng = random.Random(3)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        state = engine.from_snapshot(game.snapshot)
        if state.phase == engine.ROUND_OVER:
            services.game_set_ready(game_id=game.pk, user=user)
            continue
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat)).to_json()
        who = {"user": user} if seat == 0 else {"seat": seat}
        services.game_apply_action(game_id=game.pk, action=action, version=game.version, **who)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_bots_and_a_game_against_bots_are_named_in_the_players_language(client, alice):
    game = services.bot_game_create(user=alice, bots=2, level="medium")
    assert game.lobby.name == "alice vs 2 medium bots"  # stored in English, as in the record
    client.force_login(speaks(alice, "de"))
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "alice gegen 2 mittlere Bots" in page
    assert "Mittlerer Bot 1" in page and "Mittlerer Bot 2" in page
    assert "Medium bot" not in page and " vs " not in page
    client.force_login(speaks(alice, "fr"))
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "alice contre 2 bots moyens" in page and "Bot moyen 2" in page
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert "alice contre 2 bots moyens" in page and "Medium bot" not in page


@pytest.mark.django_db
def test_the_replay_caption_and_moves_are_in_the_players_language(client, alice):
    game = finish_vs_bots(alice)
    client.force_login(speaks(alice, "de"))
    url = reverse("games:replay", args=[game.pk])
    page = client.get(url).content.decode()
    assert "Runde 1 · die Karten werden ausgeteilt" in page
    assert "Mittlerer Bot 1 deckt Reihe" in page and "zieht vom Nachziehstapel" in page
    assert "Runde vorbei: " in page and "Spiel vorbei" in page
    for english in ("the cards are dealt", "turns row", "draws from", "round over", "Medium bot"):
        assert english not in page
    assert "Spielverlauf" not in page  # the replay itself offers no replay
    client.force_login(speaks(alice, "nb"))
    page = client.get(url).content.decode()
    assert "Omgang 1 · kortene deles ut" in page and "Middels bot 2 snur kortet i rad" in page


@pytest.mark.django_db
def test_the_register_form_is_translated(client):
    page = client.get(
        reverse("accounts:register"), headers={"accept-language": "de"}
    ).content.decode()
    assert "E-Mail-Adresse" in page and ">Email<" not in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_engine_and_frame_errors_are_translated_by_their_code(alice, bob):
    game = await db(start_game)(alice, bob)
    await db(speaks)(alice, "de")
    html, _first = await game_socket(alice, game.pk, fmt="html")
    await send(html, {"reveal": "2", "version": "0"})
    await html.receive_from(timeout=5)
    await send(html, {"reveal": "2", "version": "1"})
    error = await html.receive_from(timeout=5)
    assert 'data-code="card_face_up"' in error and "Diese Karte liegt schon offen." in error
    assert "already face up" not in error
    await html.disconnect()

    comm = WebsocketCommunicator(
        ROUTER, f"/ws/games/{game.pk}/?format=json", headers=[(b"accept-language", b"fr")]
    )
    comm.scope["user"] = bob
    comm.scope["cookies"] = {}
    assert (await comm.connect(timeout=5))[0]
    await comm.receive_from(timeout=5)
    await comm.send_to(text_data="[1, 2]")
    error = json.loads(await comm.receive_from(timeout=5))["error"]
    assert error["code"] == "bad_json"
    assert error["message"] == "Le serveur n’a pas pu lire ce message."
    assert error["detail"] == "A frame must be a JSON object."
    await comm.disconnect()


# One word for one thing in each language (docs/translations.md): the words a page may not
# use beside the game's own.
NOT_THE_WORD = {"nb": ["kastebunk", "rangering"]}


@pytest.mark.parametrize("language", sorted(NOT_THE_WORD))
def test_one_thing_has_one_word_in_a_catalogue(language):
    """Failed on main: Norwegian pages said both "kastehaug" and "kastebunken", "rating" and
    "rangering"."""
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    texts = [e.msgstr or " ".join(e.msgstr_plural.values()) for e in catalogue]
    found = [(w, t) for t in texts for w in NOT_THE_WORD[language] if w in t.lower()]
    assert found == []
