"""The game socket accepts exactly the frames docs/protocol.md documents, and answers every
other frame with a documented error code, never a traceback (issue 10, items 5 and 9)."""

import json
import logging
import re

import pytest

from games.models import Move
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket, receive_json, send

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

NESTED = "[" * 1000 + "]" * 1000


def html_code(frame: str) -> str | None:
    """The error code of an HTML-mode error frame (the flash's ``data-code``)."""
    match = re.search(r'id="flash"[^>]*data-code="([a-z_]+)"', frame)
    return match.group(1) if match else None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (NESTED, "bad_json"),
        ('{"reveal": ' + NESTED + ', "version": 0}', "bad_json"),
        ('{"reveal": NaN, "version": 0}', "bad_json"),
        ('{"reveal": 1, "version": Infinity}', "bad_json"),
        ('{"reveal": 1e999, "version": 0}', "bad_position"),
        ('{"reveal": 1, "version": 1.0}', "bad_request"),
        ('{"reveal": 1, "version": true}', "bad_request"),
        ('{"reveal": 1, "version": -1}', "bad_request"),
        ('{"reveal": 1, "version": "0"}', "bad_request"),
        ('{"reveal": "1", "version": 0}', "bad_position"),
        ('{"reveal": 1, "version": 0, "pad": 1}', "malformed_action"),
        ('{"sync": true, "reveal": 1}', "malformed_action"),
        ('{"sync": true, "ready": true}', "malformed_action"),
        ('{"sync": [true]}', "malformed_action"),
        ('{"sync": "true"}', "bad_request"),
        ('{"take": {"deck": 1}, "version": 0}', "malformed_action"),
    ],
)
async def test_json_mode_refuses_what_the_protocol_does_not_document(
    alice, bob, caplog, text, code
):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    with caplog.at_level(logging.WARNING):
        await comm.send_to(text_data=text)
        frame = await receive_json(comm)
    assert frame["error"]["code"] == code, frame
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert await Move.objects.filter(game=game).acount() == 0
    await comm.disconnect()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"reveal": "²", "version": "0"}, "bad_position"),
        ({"reveal": "--1", "version": "0"}, "bad_position"),
        ({"reveal": " 3 ", "version": "0"}, "bad_position"),
        ({"reveal": "3", "version": " 0"}, "bad_request"),
        ({"reveal": "3", "version": "-1"}, "bad_request"),
        ({"reveal": "٣", "version": "0"}, "bad_position"),
        ({"reveal": "3", "version": "0" * 10}, "bad_request"),
        ({"ready": "yes"}, "bad_request"),
    ],
)
async def test_html_mode_reads_only_plain_digit_strings(alice, bob, caplog, fields, code):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk, fmt="html")
    with caplog.at_level(logging.WARNING):
        await send(comm, fields)
        frame = await comm.receive_from(timeout=5)
    assert html_code(frame) == code, frame
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert await Move.objects.filter(game=game).acount() == 0
    await comm.disconnect()


async def test_html_mode_nesting_is_bad_json_not_a_traceback(alice, bob, caplog):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk, fmt="html")
    with caplog.at_level(logging.WARNING):
        await comm.send_to(text_data=NESTED)
        frame = await comm.receive_from(timeout=5)
    assert html_code(frame) == "bad_json"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await comm.disconnect()


async def test_a_reveal_may_be_late_in_the_reveal_phase_but_never_from_the_future(alice, bob):
    game = await db(start_game)(alice, bob)
    a, _ = await game_socket(alice, game.pk)
    await send(a, {"reveal": 0, "version": 0})
    assert (await receive_json(a))["version"] == 1
    await send(a, {"reveal": 1, "version": 0})  # documented: an old version is fine here
    assert (await receive_json(a))["version"] == 2
    await send(a, {"reveal": 2, "version": 3})
    error = await receive_json(a)
    assert error["error"]["code"] == "stale_version" and error["error"]["version"] == 2
    await send(a, {"reveal": 2, "version": 10**300})
    assert (await receive_json(a))["error"]["code"] == "stale_version"
    assert await Move.objects.filter(game=game).acount() == 2
    await a.disconnect()


async def test_commands_may_carry_the_version_the_page_adds(alice, bob):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    await send(comm, {"sync": True, "version": 0})
    assert (await receive_json(comm))["version"] == 0
    await comm.send_to(text_data=json.dumps({"sync": True, "version": -3}))
    assert (await receive_json(comm))["error"]["code"] == "bad_request"
    await comm.disconnect()
