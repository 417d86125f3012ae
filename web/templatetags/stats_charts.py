"""``{% score_progression rounds players %}``: the chart of a finished game's totals."""

from itertools import accumulate

from django import template
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.labels import player_label
from web.stats import charts

register = template.Library()


@register.simple_tag
def score_progression(rounds: list[dict], players) -> str:
    """Every player's total after each round, as a line chart with a text alternative
    (the same figures as the round table beside it)."""
    if not rounds:
        return ""
    names = [player_label(name) for name in players]
    series = [
        (name, [0, *accumulate(r["scores"][seat]["value"] for r in rounds)])
        for seat, name in enumerate(names)
    ]
    description = "; ".join(
        _("%(name)s: %(totals)s") % {"name": name, "totals": ", ".join(map(str, totals[1:]))}
        for name, totals in series
    )
    return render_to_string(
        "stats/chart_line.html",
        {
            "chart": charts.line_chart(series, [str(i) for i in range(len(rounds) + 1)]),
            "title": _("Totals after each round"),
            "description": description,
            "chart_id": "progression-chart",
        },
    )
