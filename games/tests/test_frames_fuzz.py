"""Fuzzing the game socket: thousands of generated frames over WebsocketCommunicator, in JSON
and HTML mode. Every answer is a state frame or an error whose code docs/protocol.md lists, no
answer is ``server_error``, and nothing is logged at ERROR (issue 10, items 5 and 9)."""

import json
import logging
import re
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.tests.helpers import start_game
from games.tests.test_consumers_strict import html_code
from games.tests.ws import db, game_socket

pytestmark = pytest.mark.django_db(transaction=True)

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
SENTINEL = "x" * 3000  # always answered with frame_too_large: marks the end of an answer


def documented_codes() -> set[str]:
    """The codes of the error table in docs/protocol.md."""
    table = PROTOCOL.read_text().split("### Error codes", 1)[1].split("\n## ", 1)[0]
    codes = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            codes.update(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return codes


KEYS = ["reveal", "take", "swap", "flip", "version", "ready", "rematch", "sync", "HEADERS"]
odd_strings = st.sampled_from(
    ["²", "--1", " 3 ", "-1", "3", "0", "11", "12", "007", "1e3", "true", "false", "deck",
     "discard", "٣", "\ud800", "", "0" * 10, "9" * 30, "NaN", "\x00", "<b>x</b>"]
)  # fmt: skip
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=14),
    st.integers(),
    st.integers(min_value=10**18, max_value=10**300),
    st.floats(allow_nan=False, allow_infinity=False),
    odd_strings,
    st.text(max_size=20),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=5), inner, max_size=3), max_leaves=8)  # fmt: skip
near_valid = st.dictionaries(st.sampled_from(KEYS), values, max_size=4).map(json.dumps)
raw_json = st.recursive(scalars, lambda inner: st.lists(inner) | st.dictionaries(
    st.text(max_size=8), inner), max_leaves=20).map(json.dumps)  # fmt: skip
nested = st.integers(min_value=1, max_value=1020).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n,
                               '{"reveal": ' + "[" * n + "]" * n + ', "version": 0}'])
)  # fmt: skip
texts = st.text(max_size=60) | st.binary(max_size=20).map(lambda b: b.decode("latin-1"))
frames = st.one_of(near_valid, near_valid, raw_json, nested, texts).filter(
    lambda text: 0 < len(text) <= 2048
)


async def play(alice, bob, frame_list, mode):
    """Send each frame, then the sentinel; collect what came back for each frame."""
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk, fmt=mode)
    answers = []
    for text in frame_list:
        await comm.send_to(text_data=text)
        await comm.send_to(text_data=SENTINEL)
        while True:
            answer = await comm.receive_from(timeout=10)
            answer.encode("utf-8")  # a frame a browser can read
            if _code(answer, mode) == "frame_too_large":
                break
            answers.append((text, answer))
    await comm.disconnect()
    return answers


def _code(answer: str, mode: str) -> str | None:
    if mode == "json":
        data = json.loads(answer)
        return data["error"]["code"] if "error" in data else None
    return html_code(answer)


def _is_state(answer: str, mode: str) -> bool:
    if mode == "json":
        data = json.loads(answer)
        return isinstance(data.get("version"), int) and "players" in data
    return 'id="board"' in answer and "data-version=" in answer


@hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frame_list=st.lists(frames, min_size=40, max_size=60))
@pytest.mark.parametrize("mode", ["json", "html"])
def test_every_fuzzed_frame_gets_a_documented_answer(
    alice, bob, caplog, settings, mode, frame_list
):
    settings.RATELIMIT_ENABLE = False  # thousands of frames, not a flood test
    codes = documented_codes()
    assert {"bad_json", "bad_request", "malformed_action", "server_error"} <= codes
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        answers = async_to_sync(play)(alice, bob, frame_list, mode)
    for text, answer in answers:
        code = _code(answer, mode)
        if code is None:
            assert _is_state(answer, mode), (text, answer)
        else:
            assert code in codes and code != "server_error", (text, answer)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors
