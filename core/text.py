"""Text people type that others read (a chat message, a lobby's name), kept to one line
without control or direction-changing characters."""

import re
import unicodedata

_SURROGATE = re.compile("[\ud800-\udfff]")
_DIRECTION_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def one_line(text: str) -> str:
    text = _SURROGATE.sub("\ufffd", text)
    text = _DIRECTION_CONTROLS.sub("", text)
    text = "".join(c for c in text if c.isspace() or unicodedata.category(c) != "Cc")
    return " ".join(text.split())


def has_nothing_to_see(text: str) -> bool:
    """No letter, digit, punctuation or symbol in ``text``."""
    return not any(unicodedata.category(c)[0] in "LNPS" for c in text)
