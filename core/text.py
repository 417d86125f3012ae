"""Text people type that others read: a chat message, a lobby's name.

``one_line`` keeps it to one line of what it says: runs of whitespace (line breaks too) as one
space, control characters dropped (PostgreSQL refuses NUL), a lone surrogate (JSON may carry
one, no database stores it) as the replacement character, and no direction embedding, override
or isolate (U+202A-U+202E, U+2066-U+2069): an override turns whatever follows it on the line
backwards, beyond the text (a chat message's Mute and Report buttons). Joiners (U+200C, U+200D)
stay: Persian words and emoji sequences need them. ``has_nothing_to_see`` tells a text made
only of spaces and invisible characters, which reads as no text at all.
"""

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
