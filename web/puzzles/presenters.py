"""A puzzle as its page shows it: the player's view (cards from the game board's partials),
the choices of the decision, and the answer in words."""

from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from games.engine import COLS, HIDDEN
from puzzles.models import Puzzle
from web.analysis.presenters import best_text, topic_text
from web.games.rendering import card


def _points(value: float) -> str:
    """One decimal, rounded, written as the viewer's language writes it."""
    return number_format(round(value, 1), 1)


def _where(pos: int) -> dict:
    return {"row": pos // COLS + 1, "col": pos % COLS + 1}


def _card_label(name: str, pos: int, value) -> str:
    if value is None:
        pattern = _("%(name)s, row %(row)s, column %(col)s: removed")
    elif value == HIDDEN:
        pattern = _("%(name)s, row %(row)s, column %(col)s: face down")
    else:
        pattern = _("%(name)s, row %(row)s, column %(col)s: %(value)s")
    return pattern % {"name": name, "value": value, **_where(pos)}


def option_text(move: dict) -> str:
    """ "Draw from the pile", "Swap with the card at row 2, column 3", ..."""
    return capfirst(best_text(move))


def board(puzzle: Puzzle, *, answerable: bool) -> dict:
    """The view of the puzzle's player: the others' grids, the piles, their own grid whose
    cards are the answer buttons (``answerable``), and, after a draw, the discard-and-turn
    buttons."""
    view = puzzle.view
    seat = view["seat"]
    codes = {o["code"] for o in puzzle.options}
    others, number = [], 0
    for s, player in enumerate(view["players"]):
        if s == seat:
            continue
        number += 1
        name = _("Opponent %(n)s") % {"n": number}
        cells = [
            {**card(v), "label": _card_label(name, pos, v)} for pos, v in enumerate(player["grid"])
        ]
        others.append({"name": name, "total": player["total"], "cells": cells})
    you = _("You")
    mine = view["players"][seat]
    prefix = "swap" if puzzle.decision == Puzzle.Decision.PLACE else "take"
    cells, flips = [], []
    for pos, v in enumerate(mine["grid"]):
        code = f"{prefix}-{pos}"
        c = {**card(v), "pos": pos, "label": _card_label(you, pos, v)}
        if answerable and code in codes:
            c.update(code=code, action=option_text(puzzle.option(code)["move"]))
        cells.append(c)
        flip = f"flip-{pos}"
        flips.append(
            {"code": flip, "action": option_text({"flip": pos})}
            if answerable and flip in codes
            else {"pos": pos}
        )
    discard = view["discard_top"]
    return {
        "others": others,
        "you": {"total": mine["total"], "cells": cells},
        "flips": flips if puzzle.decision == Puzzle.Decision.PLACE else [],
        "can_draw": answerable and "draw" in codes,
        "deck_count": view["deck_count"],
        "discard": card(discard) if discard is not None else None,
        "discard_value": discard,
        "drawn": card(view["drawn"]) if view.get("drawing") else None,
        "drawn_value": view.get("drawn"),
        "round": view["round"],
        "last_turn": view.get("ender") is not None,
    }


def question(puzzle: Puzzle) -> str:
    view = puzzle.view
    if puzzle.decision == Puzzle.Decision.PLACE:
        return _("You drew a %(value)s. Where does it go?") % {"value": view["drawn"]}
    return _("Your turn: take the %(value)s from the discard pile, or draw?") % {
        "value": view["discard_top"]
    }


def result(puzzle: Puzzle, answer: str | None) -> dict:
    """The options with their expected points (best first), the player's answer and the
    move made in the game marked, and why the best one is best."""
    best, played = puzzle.options[0], puzzle.option(puzzle.played)
    rows = [
        {
            "text": option_text(o["move"]),
            "points": _points(o["points"]),
            "best": o["code"] == puzzle.answer,
            "yours": o["code"] == answer,
            "played": o["code"] == puzzle.played,
        }
        for o in puzzle.options
    ]
    values = {
        "topic": topic_text(puzzle.topic),
        "best": best_text(best["move"]),
        "points": _points(best["points"]),
        "played": best_text(played["move"]),
        "lost": _points(puzzle.confirmed_lost),
        "gap": _points(puzzle.confirmed_gap),
    }
    why = _(
        "The decision was about %(topic)s. The best move, to %(best)s, leaves an expected "
        "%(points)s points for the round; in the game the player chose to %(played)s, "
        "%(lost)s points more, and no other choice comes within %(gap)s points of the best."
    )
    return {
        "rows": rows,
        "why": why % values,
        "solved": answer == puzzle.answer,
        "answer": option_text(puzzle.option(answer)["move"]) if puzzle.option(answer) else "",
        "best": option_text(best["move"]),
    }
