"""The last ``LOG_SIZE`` moves of a game (``Game.recent``, newest first, one entry a turn: the
public facts and version ``v``), told in words in the reader's language on the board."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import COLS

LOG_SIZE = 5


def push(recent: list, facts: dict, version: int) -> list:
    """``recent`` with the step ``facts`` (made ``version``) in front, at most LOG_SIZE long."""
    entry = {**facts, "v": version}
    rest = list(recent or ())
    if facts.get("kind") in ("swap", "flip") and rest:
        top = rest[0]
        if top.get("kind") == "draw" and top.get("seat") == facts.get("seat"):
            rest.pop(0)
            entry["drew"] = True
    return [entry, *rest][:LOG_SIZE]


def round_dealt(recent: list, number: int, version: int) -> list:
    return [{"kind": "dealt", "round": number, "v": version}, *(recent or ())][:LOG_SIZE]


def _where(pos: int) -> dict:
    return {"row": pos // COLS + 1, "col": pos % COLS + 1}


def _main(entry: dict, name: str) -> str:
    kind = entry.get("kind")
    if kind == "dealt":
        return _("Round %(round)s has been dealt: every player turns two cards face up.") % {
            "round": entry["round"]
        }
    if kind == "draw":
        return _("%(name)s drew a card from the draw pile.") % {"name": name}
    args = {"name": name, **_where(entry["pos"]), "value": entry["value"]}
    if kind == "reveal":
        return _("%(name)s turned up %(value)s at row %(row)s, column %(col)s.") % args
    if kind == "flip":
        args["drawn"] = entry["discarded"]
        return (
            _(
                "%(name)s drew %(drawn)s, discarded it and turned up %(value)s "
                "at row %(row)s, column %(col)s."
            )
            % args
        )
    args["old"] = entry["replaced"]
    if kind == "discard":
        if entry.get("was_down"):
            text = _(
                "%(name)s took %(value)s from the discard pile and swapped it for a face-down "
                "card at row %(row)s, column %(col)s: %(old)s."
            )
        else:
            text = _(
                "%(name)s took %(value)s from the discard pile and swapped it for %(old)s "
                "at row %(row)s, column %(col)s."
            )
    elif entry.get("was_down"):
        text = _(
            "%(name)s drew %(value)s and swapped it for a face-down card at row %(row)s, "
            "column %(col)s: %(old)s."
        )
    else:
        text = _(
            "%(name)s drew %(value)s and swapped it for %(old)s at row %(row)s, column %(col)s."
        )
    return text % args


def entry_text(entry: dict, players, results=(), winners=()) -> str:
    """The sentences of one entry (``players``: the seats' names; ``results``: the round
    results; ``winners``: the seats that won)."""
    seat = entry.get("seat")
    name = players[seat] if seat is not None and 0 <= seat < len(players) else ""
    parts = [_main(entry, name)]
    if entry.get("timed_out"):
        parts.insert(
            0, _("Time ran out for %(name)s: the medium bot played for them.") % {"name": name}
        )
    for col, value in entry.get("removed", ()):
        parts.append(
            _("Column %(col)s of %(name)s removed: three cards of %(value)s.")
            % {"col": col + 1, "name": name, "value": value}
        )
    if entry.get("reshuffled"):
        parts.append(_("The discard pile was shuffled into a new draw pile."))
    if entry.get("went_out"):
        parts.append(
            _("%(name)s has turned every card: everyone else plays one last turn.") % {"name": name}
        )
    starts = entry.get("starts")
    if starts is not None and 0 <= starts < len(players):
        parts.append(_("%(name)s starts the round.") % {"name": players[starts]})
    number = entry.get("round_over")
    if number and 0 < number <= len(results):
        result = results[number - 1]
        scores = [
            (
                _("%(name)s %(score)s (doubled)")
                if s == result.ender and result.doubled
                else _("%(name)s %(score)s")
            )
            % {"name": players[s], "score": score}
            for s, score in enumerate(result.scores)
        ]
        parts.append(
            _("Round %(round)s is over: %(scores)s.")
            % {"round": number, "scores": ", ".join(scores)}
        )
    if entry.get("game_over") and winners:
        names = ", ".join(players[s] for s in winners)
        parts.append(
            ngettext(
                "Game over: %(names)s wins.", "Game over: shared win of %(names)s.", len(winners)
            )
            % {"names": names}
        )
    return " ".join(parts)


def changed_cell(recent: list, version: int) -> tuple[int, int] | None:
    """The (seat, position) the step of ``version`` placed or turned, if it did."""
    if not recent:
        return None
    top = recent[0]
    if top.get("v") != version or "pos" not in top or top.get("seat") is None:
        return None
    return top["seat"], top["pos"]
