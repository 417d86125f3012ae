"""Chat frames a client sends on a lobby or game socket (docs/protocol.md, *Chat*).

``{"chat": "text"}`` or ``{"quick": "gg"}`` (``gg``, ``wp``, ``hurry``), and nothing else but a
``version`` (the game page adds it to every frame; ignored) and htmx's ``HEADERS``. web.sockets.frames
asks ``is_chat`` only for a frame whose keys are not a move's, so a move pays nothing for it.
"""

import json

from core.errors import BadRequest

KEYS = frozenset({"chat", "quick"})
ALLOWED = KEYS | {"version", "HEADERS"}


def is_chat(data: dict) -> bool:
    return bool(KEYS & data.keys()) and data.keys() <= ALLOWED


def parse(data: dict) -> dict:
    """``{"text": ...}`` or ``{"quick": ...}``; ``BadRequest`` if the frame is not one of them."""
    if len(KEYS & data.keys()) != 1:
        raise BadRequest("Send one chat message per frame.", code="malformed_action")
    key = "chat" if "chat" in data else "quick"
    value = data[key]
    if not isinstance(value, str):
        raise BadRequest(f"{json.dumps(key)} must be a string.", code="bad_request")
    return {"text": value} if key == "chat" else {"quick": value}


def parse_text(text_data, bytes_data) -> dict:
    """A lobby socket's frame: only chat frames (web.sockets.frames.load's checks first)."""
    from web.sockets.frames import load

    data = load(text_data, bytes_data)
    if not is_chat(data):
        raise BadRequest("A lobby socket takes chat frames only.", code="malformed_action")
    return parse(data)
