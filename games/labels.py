"""Translated names for the engine's and bots' codes. Bots and bot tables are stored under
English names ("Medium bot 1", "carol vs 2 medium bots"), translated only when shown."""

import re

from django.utils.translation import gettext, ngettext_lazy, pgettext_lazy
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
    "expert": pgettext_lazy("bot level", "Expert"),
}

BOT_NAMES = {
    "easy": _("Easy bot %(number)s"),
    "medium": _("Medium bot %(number)s"),
    "strong": _("Strong bot %(number)s"),
    "expert": _("Expert bot %(number)s"),
}

BOT_TABLES = {
    "easy": ngettext_lazy(
        "%(name)s vs %(count)s easy bot", "%(name)s vs %(count)s easy bots", "count"
    ),
    "medium": ngettext_lazy(
        "%(name)s vs %(count)s medium bot", "%(name)s vs %(count)s medium bots", "count"
    ),
    "strong": ngettext_lazy(
        "%(name)s vs %(count)s strong bot", "%(name)s vs %(count)s strong bots", "count"
    ),
    "expert": ngettext_lazy(
        "%(name)s vs %(count)s expert bot", "%(name)s vs %(count)s expert bots", "count"
    ),
}

_BOT_NAME = re.compile(r"(Easy|Medium|Strong|Expert) bot (\d+)")
_BOT_TABLE = re.compile(r"(\S+) vs (\d+) (easy|medium|strong|expert) bots?")


def player_label(name: str) -> str:
    """A player's name as shown: a bot's in the active language, anyone else's as it is."""
    match = _BOT_NAME.fullmatch(name)
    if not match:
        return name
    return BOT_NAMES[match[1].lower()] % {"number": match[2]}


def table_label(name: str) -> str:
    """A lobby's name as shown: the title of a game against bots in the active language."""
    match = _BOT_TABLE.fullmatch(name)
    if not match:
        return name
    return BOT_TABLES[match[3]] % {"name": match[1], "count": int(match[2])}


def _where(pos: int) -> dict:
    return {"row": pos // engine.COLS + 1, "column": pos % engine.COLS + 1}


def _score(name: str, raw: int, score: int) -> str:
    if raw == score:
        return gettext("%(name)s %(score)s") % {"name": name, "score": score}
    return gettext("%(name)s %(raw)s × 2 = %(score)s") % {"name": name, "raw": raw, "score": score}


STEP_SENTENCES = {
    "deal": _("the cards are dealt"),
    "reveal": _("%(name)s turns row %(row)s, column %(column)s: %(value)s"),
    "starts": _("%(name)s starts"),
    "draw": _("%(name)s draws from the draw pile"),
    "take_discard": _(
        "%(name)s takes the %(placed)s from the discard pile and swaps it for the "
        "%(old)s at row %(row)s, column %(column)s"
    ),
    "swap": _(
        "%(name)s swaps the drawn %(placed)s for the %(old)s at row %(row)s, column %(column)s"
    ),
    "flip": _(
        "%(name)s discards the drawn %(drawn)s and turns row %(row)s, column %(column)s: %(value)s"
    ),
    "removed": _("column %(column)s removed (3 × %(value)s)"),
    "last_turns": _("%(name)s has turned every card: last turns"),
}


def step_text(facts: tuple) -> str:
    """A replay step (``engine.Position.facts``) told in the active language."""
    parts = []
    for fact, details in facts:
        values = dict(details)
        if "name" in values:
            values["name"] = player_label(values["name"])
        if "pos" in values:
            values.update(_where(values.pop("pos")))
        if fact in STEP_SENTENCES:
            parts.append(str(STEP_SENTENCES[fact]) % values)
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
