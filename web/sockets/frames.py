"""A client's frame read by exactly the grammar of docs/protocol.md (a text frame of at most
``MAX_FRAME`` characters, one flat JSON object); anything else is a documented ``BadRequest``."""

import json
import re

from core.errors import BadRequest

MAX_FRAME = 2048
COMMANDS = ("sync", "ready", "rematch")
ACTION_KEYS = frozenset({"reveal", "take", "swap", "flip"})
KNOWN_KEYS = ACTION_KEYS | {"version", *COMMANDS}
# HTML mode: form fields arrive as strings; only ASCII digits and "true"/"false" are converted.
_DIGITS = re.compile(r"[0-9]{1,9}")


def _constant(name: str):
    raise ValueError(f"{name} is not allowed")


def _coerce(value):
    if isinstance(value, str):
        if _DIGITS.fullmatch(value):
            return int(value)
        if value in ("true", "false"):
            return value == "true"
    return value


def load(text_data, bytes_data) -> dict:
    """The frame's JSON object, or ``BadRequest``."""
    if text_data is None:
        raise BadRequest("Send text frames holding JSON, not binary frames.", code="bad_frame")
    if len(text_data) > MAX_FRAME:
        message = f"A frame may hold at most {MAX_FRAME} characters."
        raise BadRequest(message, code="frame_too_large")
    try:
        data = json.loads(text_data, parse_constant=_constant)
    except (ValueError, RecursionError):
        raise BadRequest("The frame is not valid JSON.", code="bad_json") from None
    if not isinstance(data, dict):
        raise BadRequest("A frame must be a JSON object.", code="bad_json")
    return data


def parse(text_data, bytes_data, *, json_mode: bool) -> tuple[str, dict]:
    """``(command, data)``: ``sync``, ``ready``, ``rematch`` (no data), ``chat`` (parse_chat)
    or ``action`` (the action's keys and an integer ``version``)."""
    data = load(text_data, bytes_data)
    data.pop("HEADERS", None)  # htmx's websocket extension adds it; never read
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        if is_chat(data):  # only here: a move's frame never asks
            return "chat", parse_chat(data)
        raise BadRequest(
            f"Unknown key {json.dumps(unknown[0][:40])}: see the protocol for the frames you "
            "may send.",
            code="malformed_action",
        )
    if not json_mode:
        data = {key: _coerce(value) for key, value in data.items()}
    for key, value in data.items():
        if isinstance(value, dict | list):
            raise BadRequest(
                f"{json.dumps(key)} must be a number, a string or true, not a list or an object.",
                code="malformed_action",
            )
    commands = [c for c in COMMANDS if c in data]
    if "version" in data and not (type(data["version"]) is int and data["version"] >= 0):
        raise BadRequest('"version" must be a whole number from 0 up.')
    if commands:
        command = commands[0]
        if len(commands) > 1 or set(data) - {command, "version"}:
            raise BadRequest("Send one command or one action per frame.", code="malformed_action")
        if data[command] is not True:
            raise BadRequest(f'Send {{"{command}": true}}.')
        return command, {}
    if "version" not in data:
        raise BadRequest('Every action needs the "version" of the state you saw, as an integer.')
    return "action", data


# Chat frames ({"chat": "text"} or {"quick": "gg"}), with at most an ignored ``version``.
KEYS = frozenset({"chat", "quick"})
ALLOWED = KEYS | {"version", "HEADERS"}


def is_chat(data: dict) -> bool:
    return bool(KEYS & data.keys()) and data.keys() <= ALLOWED


def parse_chat(data: dict) -> dict:
    """``{"text": ...}`` or ``{"quick": ...}``; ``BadRequest`` if the frame is not one of them."""
    if len(KEYS & data.keys()) != 1:
        raise BadRequest("Send one chat message per frame.", code="malformed_action")
    key = "chat" if "chat" in data else "quick"
    value = data[key]
    if not isinstance(value, str):
        raise BadRequest(f"{json.dumps(key)} must be a string.", code="bad_request")
    return {"text": value} if key == "chat" else {"quick": value}


def parse_lobby_frame(text_data, bytes_data) -> dict:
    """A lobby socket's frame: only chat frames (``load``'s checks first)."""
    data = load(text_data, bytes_data)
    if not is_chat(data):
        raise BadRequest("A lobby socket takes chat frames only.", code="malformed_action")
    return parse_chat(data)
