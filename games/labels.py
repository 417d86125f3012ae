"""Names shown to people for the engine's and the bots' codes, translated (games.engine and
games.bots are pure Python and keep their English names for logs, records and tests).

Bots are stored under English names ("Medium bot 1", in the game's record too) and a game
against bots under an English title ("carol vs 2 medium bots"); a username has no spaces, so
neither can be a player's own name, and both are named in the viewer's language only when shown
(:func:`player_label`, :func:`table_label`, the template filters ``player`` and ``table``).
"""

import re

from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import engine

PHASE_LABELS = {
    engine.REVEAL_PHASE: _("Reveal two cards"),
    engine.PLAY: _("Playing"),
    engine.FINAL: _("Last turns"),
    engine.ROUND_OVER: _("Round over"),
    engine.GAME_OVER: _("Game over"),
}

BOT_LEVEL_LABELS = {
    "easy": pgettext_lazy("bot level", "Easy"),
    "medium": pgettext_lazy("bot level", "Medium"),
    "strong": pgettext_lazy("bot level", "Strong"),
}

BOT_NAMES = {
    "easy": _("Easy bot %(number)s"),
    "medium": _("Medium bot %(number)s"),
    "strong": _("Strong bot %(number)s"),
}

_BOT_NAME = re.compile(r"(Easy|Medium|Strong) bot (\d+)")
_BOT_TABLE = re.compile(r"(\S+) vs (\d+) (easy|medium|strong) bots?")


def player_label(name: str) -> str:
    """A player's name as shown: a bot's in the active language, anyone else's as it is.

    >>> player_label("Medium bot 2"), player_label("carol")
    ('Medium bot 2', 'carol')
    """
    match = _BOT_NAME.fullmatch(name)
    if not match:
        return name
    return BOT_NAMES[match[1].lower()] % {"number": match[2]}


def table_label(name: str) -> str:
    """A lobby's name as shown: the title of a game against bots in the active language.

    >>> table_label("carol vs 1 medium bot"), table_label("Friday night")
    ('carol vs 1 medium bot', 'Friday night')
    """
    match = _BOT_TABLE.fullmatch(name)
    if not match:
        return name
    user, count, level = match[1], int(match[2]), match[3]
    values = {"name": user, "count": count}
    if level == "easy":
        return (
            ngettext("%(name)s vs %(count)s easy bot", "%(name)s vs %(count)s easy bots", count)
            % values
        )
    if level == "strong":
        return (
            ngettext("%(name)s vs %(count)s strong bot", "%(name)s vs %(count)s strong bots", count)
            % values
        )
    return (
        ngettext("%(name)s vs %(count)s medium bot", "%(name)s vs %(count)s medium bots", count)
        % values
    )


def _where(pos: int) -> dict:
    return {"row": pos // engine.COLS + 1, "column": pos % engine.COLS + 1}


def _score(name: str, raw: int, score: int) -> str:
    if raw == score:
        return gettext("%(name)s %(score)s") % {"name": name, "score": score}
    return gettext("%(name)s %(raw)s × 2 = %(score)s") % {"name": name, "raw": raw, "score": score}


def step_text(facts: tuple) -> str:
    """A replay step (``engine.Position.facts``) told in the active language."""
    parts = []
    for fact, details in facts:
        values = dict(details)
        for key in ("name",):
            if key in values:
                values[key] = player_label(values[key])
        if "pos" in values:
            values.update(_where(values.pop("pos")))
        if fact == "deal":
            parts.append(gettext("the cards are dealt"))
        elif fact == "reveal":
            parts.append(
                gettext("%(name)s turns row %(row)s, column %(column)s: %(value)s") % values
            )
        elif fact == "starts":
            parts.append(gettext("%(name)s starts") % values)
        elif fact == "draw":
            parts.append(gettext("%(name)s draws from the draw pile") % values)
        elif fact == "take_discard":
            parts.append(
                gettext(
                    "%(name)s takes the %(placed)s from the discard pile and swaps it for the "
                    "%(old)s at row %(row)s, column %(column)s"
                )
                % values
            )
        elif fact == "swap":
            parts.append(
                gettext(
                    "%(name)s swaps the drawn %(placed)s for the %(old)s at row %(row)s, "
                    "column %(column)s"
                )
                % values
            )
        elif fact == "flip":
            parts.append(
                gettext(
                    "%(name)s discards the drawn %(drawn)s and turns row %(row)s, "
                    "column %(column)s: %(value)s"
                )
                % values
            )
        elif fact == "removed":
            parts.append(gettext("column %(column)s removed (3 × %(value)s)") % values)
        elif fact == "last_turns":
            parts.append(gettext("%(name)s has turned every card: last turns") % values)
        elif fact == "round_over":
            scores = ", ".join(
                _score(player_label(name), raw, score) for name, raw, score in values["scores"]
            )
            parts.append(gettext("round over: %(scores)s") % {"scores": scores})
        elif fact == "game_over":
            winners = [player_label(w) for w in values["winners"]]
            if len(winners) == 1:
                parts.append(gettext("game over: %(name)s wins") % {"name": winners[0]})
            else:
                parts.append(
                    gettext("game over, shared win: %(names)s") % {"names": ", ".join(winners)}
                )
        else:
            parts.append(engine.describe(((fact, details),)))
    return " · ".join(parts)
