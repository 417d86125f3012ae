"""The rule for new player names (3 to 24 letters of one script, digits, ``_``, ``-``), and how
any name is shown: cut to ``NAME_MAX`` characters, the full name in ``title``."""

import re

from confusable_homoglyphs import categories
from django.core.exceptions import ValidationError
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

NAME_MIN = 3
NAME_MAX = 24
_ALLOWED = re.compile(r"[\w-]+")
ELLIPSIS = "…"
# The scripts one name may mix (TR39 "highly restrictive"); digits, "_" and "-" are COMMON.
_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


def validate_player_name(value: str) -> None:
    if not NAME_MIN <= len(value) <= NAME_MAX:
        raise ValidationError(
            _("A player name holds %(min)s to %(max)s characters (this one has %(length)s).")
            % {"min": NAME_MIN, "max": NAME_MAX, "length": len(value)},
            code="name_length",
        )
    if not _ALLOWED.fullmatch(value):
        raise ValidationError(
            _("Use only letters, digits, _ and - in a player name."), code="name_characters"
        )
    if is_reserved(value):
        raise ValidationError(
            _(
                "This name is kept for the site, its moderators or its bots, so that nobody "
                "can pass for them: choose another."
            ),
            code="name_reserved",
        )
    if mixes_alphabets(value):
        raise ValidationError(
            _(
                "Use the letters of one alphabet in a player name: this one mixes alphabets "
                "(a Cyrillic or Greek letter among Latin ones, say), which would let it pass "
                "for another player's name."
            ),
            code="name_scripts",
        )


# Names that would pass for the site, its staff or its bots, whatever their case, "_" or "-".
RESERVED = frozenset(
    {
        "admin", "administrator", "moderator", "moderators", "mod", "mods", "staff", "support",
        "system", "root", "official", "skyjo", "skyjoonline", "server", "anonymous", "nobody",
    }
)  # fmt: skip
_BOT_NAME = re.compile(r"(easy|medium|strong|expert|away)?bots?\d*")


def is_reserved(value: str) -> bool:
    """Whether ``value`` reads as the site's, its staff's or a bot's name."""
    plain = value.casefold().replace("_", "").replace("-", "")
    return plain in RESERVED or bool(_BOT_NAME.fullmatch(plain))


def mixes_alphabets(value: str) -> bool:
    scripts = categories.unique_aliases(value) - {"COMMON", "INHERITED"}
    return len(scripts) > 1 and not any(scripts <= mix for mix in _SCRIPT_MIXES)


def short_name(name: str, limit: int = NAME_MAX) -> str:
    """``name``, cut to ``limit`` characters with an ellipsis when longer."""
    name = str(name)
    return name if len(name) <= limit else name[: limit - 1] + ELLIPSIS


def name_html(name: str, limit: int = NAME_MAX) -> str:
    """The shown name: cut, escaped, with the full name as its tooltip."""
    return format_html('<span class="name-cut" title="{}">{}</span>', name, short_name(name, limit))
