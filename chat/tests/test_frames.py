"""Chat frames: their grammar, and that a move's frame never reaches the chat's code."""

import pytest

from core.errors import BadRequest
from web.sockets import frames


@pytest.mark.parametrize(
    ("text", "json_mode", "expected"),
    [
        ('{"chat": "hi"}', True, {"text": "hi"}),
        ('{"chat": "123", "version": 4, "HEADERS": {}}', False, {"text": "123"}),
        ('{"quick": "gg"}', True, {"quick": "gg"}),
    ],
)
def test_chat_frames_parse(text, json_mode, expected):
    assert frames.parse(text, None, json_mode=json_mode) == ("chat", expected)


@pytest.mark.parametrize(
    "text",
    ['{"chat": 1}', '{"chat": ["a"]}', '{"chat": "a", "quick": "gg"}', '{"chat": "a", "take": 1}'],
)
def test_bad_chat_frames_are_refused(text):
    with pytest.raises(BadRequest):
        frames.parse(text, None, json_mode=True)


def test_a_move_frame_never_asks_the_chat(monkeypatch):
    def boom(data):
        raise AssertionError("a move frame reached the chat frame parser")

    monkeypatch.setattr(frames, "is_chat", boom)
    for text in ('{"reveal": 3, "version": 0}', '{"take": "deck", "version": 2}', '{"sync": true}'):
        frames.parse(text, None, json_mode=True)
