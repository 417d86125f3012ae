"""The analysis as the pages show it: the best move in words, per-step notes, summaries."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from analysis.core import LABELS
from games.labels import player_label


def label_name(label: str | None) -> str:
    names = {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}
    return names.get(label or "", "")


def best_text(move: dict) -> str:
    """``{"swap": 6}`` → "swap with the card at row 2, column 3" (rows and columns from 1)."""
    if move.get("take") == "deck":
        return _("draw from the pile")
    pos = move.get("swap", move.get("flip"))
    where = {"row": pos // 4 + 1, "column": pos % 4 + 1}
    if move.get("take") == "discard":
        text = _("take the discard and swap it with the card at row %(row)s, column %(column)s")
        return text % where
    if "swap" in move:
        return _("swap with the card at row %(row)s, column %(column)s") % where
    return _("discard the drawn card and turn the card at row %(row)s, column %(column)s") % where


def topic_text(topic: str) -> str:
    return {
        "take_or_draw": _("take the discard or draw"),
        "which_swap": _("which card to swap"),
        "swap_or_flip": _("swap or discard and turn"),
        "which_flip": _("which card to turn"),
        "end_round": _("ending the round or not"),
    }.get(topic, "")


def summary_line(player: dict, *, you: bool = False) -> str:
    """ "7.5 expected points lost: 2 mistakes, 1 blunder" for one player ("You lost 7.5
    expected points: ..." for the viewer)."""
    parts = [_plural(label, player["labels"][label]) for label in LABELS if player["labels"][label]]
    values = {"points": _points(player["lost"]), "labels": ", ".join(reversed(parts))}
    if you:
        if not parts:
            return _("You lost %(points)s expected points, without a mistake.") % values
        return _("You lost %(points)s expected points: %(labels)s.") % values
    if not parts:
        return _("%(points)s expected points lost, no mistakes") % values
    return _("%(points)s expected points lost: %(labels)s") % values


def stand_in_line(count: int, name: str) -> str:
    """Why some of ``name``'s moves have no verdict ("" when none was played for them)."""
    if not count:
        return ""
    text = ngettext(
        "%(name)s: %(count)s move played for them by the server (away or out of time) is not "
        "judged.",
        "%(name)s: %(count)s moves played for them by the server (away or out of time) are not "
        "judged.",
        count,
    )
    return text % {"name": name, "count": count}


def _plural(label: str, n: int) -> str:
    texts = {
        "inaccuracy": ngettext("%(n)s inaccuracy", "%(n)s inaccuracies", n),
        "mistake": ngettext("%(n)s mistake", "%(n)s mistakes", n),
    }
    return texts.get(label, ngettext("%(n)s blunder", "%(n)s blunders", n)) % {"n": n}


def _points(value: float) -> str:
    """One decimal, written as the viewer's language writes it ("7.5", "7,5")."""
    return number_format(value, 1)


def players_summary(data: dict, names, viewer_seat: int | None) -> list[dict]:
    return [
        {
            **player,
            "name": names[player["seat"]],
            "mine": player["seat"] == viewer_seat,
            "lost_text": _points(player["lost"]),
            "accuracy_text": None if player["accuracy"] is None else _points(player["accuracy"]),
            "line": summary_line(player),
            "you_line": summary_line(player, you=True),
            "stand_in_line": stand_in_line(
                player.get("stand_in", 0), player_label(str(names[player["seat"]]))
            ),
            "round_list": [
                {"number": i + 1, "lost": _points(x)} for i, x in enumerate(player["rounds"])
            ],
        }
        for player in data["players"]
    ]


GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def move_notes(data: dict, names=()) -> dict:
    """The note of every analysed step (``{step: note}``), the same for every viewer."""
    return {d["step"]: _note(d, names) for d in data["decisions"]}


def step_notes(data: dict, step: int, viewer_seat: int | None, names=()) -> dict:
    """The note of ``step``'s decision, and the viewer's previous and next labelled ones."""
    decisions = data["decisions"]
    note = next((_note(d, names) for d in decisions if d["step"] == step), None)
    mine = [d["step"] for d in decisions if d["seat"] == viewer_seat and d["label"] is not None]
    return {
        "step_note": note,
        "my_previous": max((s for s in mine if s < step), default=None),
        "my_next": min((s for s in mine if s > step), default=None),
    }


def _note(d: dict, names) -> dict:
    return {
        **d,
        "label_name": label_name(d["label"]),
        "lost_text": _points(d["lost"]),
        "best_text": best_text(d["best"]),
        "topic_text": topic_text(d["topic"]),
        "is_best": d["lost"] == 0,
        "glyph": GLYPHS.get(d["label"] or "", ""),
        "name": names[d["seat"]] if d["seat"] < len(names) else "",
        "best_pos": d["best"].get("swap", d["best"].get("flip")),
    }
