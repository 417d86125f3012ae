"""docs/protocol.md lists every close code, error code and JSON frame the sockets send.

Read from the code: the close codes are those of core.close_codes, the error codes
those of the errors a socket may answer with, the frames every ``json.dumps({...})`` of the
consumers. A new one fails here until the protocol has it, and a row the code no longer has
fails too.
"""

import ast
import re
from pathlib import Path

import pytest

from chat import errors as chat_errors
from core import close_codes as codes
from core import errors
from games.engine import errors as engine_errors

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()


def _section(title: str) -> str:
    return PROTOCOL.split(title, 1)[1].split("\n#", 1)[0]


def _first_cells(section: str) -> set[str]:
    """The backticked words of each table row's first cell."""
    found = set()
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            found.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return found


def _subclasses(cls) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in (direct, *_subclasses(direct))]


def _codes_in(path: Path) -> set[str]:
    return set(re.findall(r'code="([a-z_]+)"', path.read_text()))


def close_codes() -> set[int]:
    return {value for name, value in vars(codes).items() if name.isupper()}


def socket_error_codes() -> set[str]:
    """What a game or lobby socket may answer: the frame parsers' codes, the rules engine's
    (but its record errors and its bases), the chat's (but its base), the consumers' own, and
    the services' errors on a socket's paths (a move, ready, rematch, a chat message)."""
    engine = {
        cls.code
        for cls in (engine_errors.MalformedAction, *_subclasses(engine_errors.IllegalAction))
    }
    chat = {cls.code for cls in _subclasses(chat_errors.ChatError)}
    services = {
        cls.code
        for cls in (
            errors.BadRequest, errors.Busy, errors.Unavailable, errors.NotFound, errors.NotAPlayer,
            errors.GameOver, errors.WrongPhase, errors.StaleVersion, errors.TooManyTables,
            errors.LobbyClosed, errors.NoRematch, errors.TimeRanOut, errors.Forfeited,
        )
    }  # fmt: skip
    parsers = set()
    for path in (ROOT / "web" / "sockets").glob("*.py"):
        parsers |= _codes_in(path)
    return engine | chat | services | parsers


def json_frame_keys() -> set[str]:
    """The top-level keys of every frame the consumers build as ``json.dumps({...})``, and the
    error frame (``ServiceError.to_json``)."""
    keys = {"error"}
    for path in ("web/sockets/game.py", "web/sockets/presence_frames.py", "web/sockets/chat.py"):
        for node in ast.walk(ast.parse((ROOT / path).read_text())):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "json.dumps"
                and isinstance(node.args[0], ast.Dict)
            ):
                keys.update(key.value for key in node.args[0].keys)
    return keys


def test_the_finders_find_what_is_known():
    assert {4401, 4404, 4429, 4430} <= close_codes()
    assert {"bad_json", "card_face_up", "chat_off", "server_error", "stale_version"} <= (
        socket_error_codes()
    )
    assert {"heartbeat", "rematch", "chat", "chat_hidden", "presence", "error"} <= (
        json_frame_keys()
    )


def test_every_close_code_is_in_the_close_code_table():
    documented = {int(code) for code in _first_cells(PROTOCOL) if code.isdigit()}
    assert close_codes() - documented == set()
    assert {code for code in documented if code >= 4000} - close_codes() == set()


def test_every_error_code_is_in_the_error_table_and_no_other():
    documented = _first_cells(_section("### Error codes"))
    assert sorted(socket_error_codes() - documented) == []
    assert sorted(documented - socket_error_codes()) == []


@pytest.mark.parametrize("key", sorted(json_frame_keys()))
def test_every_json_frame_is_in_the_frames_from_the_server(key):
    assert f'`{{"{key}": ' in _section("### Frames from the server"), key


@pytest.mark.django_db(transaction=True)
async def test_over_daphne_a_refused_handshake_is_http_403_with_no_close_code(alice, bob):
    """The consumers close a refused socket (4401, 4404) before they accept it: Daphne answers
    the handshake with HTTP 403, so no client over the network ever reads those codes there
    (docs/protocol.md, the close codes)."""
    from channels.db import database_sync_to_async as db
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    from games.tests.helpers import start_game
    from games.tests.live import daphne, session_cookie

    game = await db(start_game)(alice, bob)
    cookie = await db(session_cookie)(alice)
    async with daphne() as port:

        async def knock(path: str, cookie: str = "") -> int | str:
            try:
                async with connect(
                    f"ws://127.0.0.1:{port}{path}",
                    additional_headers={"Cookie": cookie} if cookie else {},
                    origin=f"http://127.0.0.1:{port}",
                    open_timeout=30,
                ) as ws:
                    return "open" if '"version"' in await ws.recv() else "no state"
            except InvalidStatus as exc:
                return exc.response.status_code

        assert await knock(f"/ws/games/{game.pk}/?format=json") == 403  # not logged in
        assert await knock("/ws/games/999999/?format=json", cookie) == 403  # no such game
        assert await knock("/ws/lobbies/999999/", cookie) == 403  # no such lobby
        assert await knock("/ws/nothing/", cookie) == 403  # no such path
        assert await knock(f"/ws/games/{game.pk}/?format=json", cookie) == "open"
