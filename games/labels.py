"""Names shown to people for the engine's and the bots' codes, translated (games.engine and
games.bots are pure Python and keep their English names for logs, records and tests)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

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
