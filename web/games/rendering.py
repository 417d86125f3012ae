"""HTML of the game board and lobby fragments, for page loads and pushes alike. The board's
pieces, whole boards and each seat's controls are cached by content. No rule is decided here."""

import json
import math
from dataclasses import replace

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from accounts.names import short_name
from core.caches import BoundedCache
from games import clock, engine, movelog, selectors
from games.labels import PHASE_LABELS, player_label
from web.games.presenters import cached as _cached

# Where a name or a fragment goes in what is rendered once and filled many times.
HOLE = mark_safe("\x00hole\x00")

_cards = BoundedCache(32, "rendering.cards")  # one per face; no words in it
# Bounded by what a key can be: 8 seats, 12 positions, 19 faces, a replay or not, a language.
_cells = BoundedCache(32768, "rendering.cells")
_grids = BoundedCache(4096, "rendering.grids")
_grid_shells = BoundedCache(4096, "rendering.grid_shells")
_place_shells = BoundedCache(8192, "rendering.place_shells")
_boards = BoundedCache(1024, "rendering.boards")
_controls = BoundedCache(4096, "rendering.controls")


def _shell(cache: BoundedCache, key, template: str, context_with) -> tuple[str, str]:
    """``template`` rendered with ``context_with(HOLE)``, as the text before and after the hole."""

    def make():
        before, hole, after = render_to_string(template, context_with(HOLE)).partition(HOLE)
        if not hole:
            raise ValueError(f"{template} did not render the hole where its contents go")
        return before, after

    return _cached(cache, key, make)


def band(value: int) -> str:
    """The colour band of a Skyjo card value."""
    if value <= 0:
        return "neg" if value < 0 else "low"
    return "green" if value <= 4 else "mid" if value <= 8 else "high"


def card(value) -> dict:
    """A card for the templates; ``html``: its markup (games/partials/card.html)."""
    if value is None:
        c = {"state": "removed"}
    elif value == engine.HIDDEN:
        c = {"state": "down"}
    else:
        c = {"state": "up", "value": value, "band": band(value)}
    html = _cached(_cards, value, lambda: render_to_string("games/partials/card.html", {"c": c}))
    c["html"] = mark_safe(html)
    return c


def named(view: engine.View) -> engine.View:
    """``view`` with its players' names as the board says them (bots translated, names cut)."""
    return replace(view, players=tuple(short_name(player_label(n)) for n in view.players))


def cells_of(seat: int, name: str, grid, *, replay: bool = False) -> list[str]:
    """One player's cards (games/partials/cell.html), each labelled for screen readers."""
    language = translation.get_language()
    owner = conditional_escape(name)
    return [
        _cached(
            _cells,
            (language, seat, replay, pos, value),
            lambda pos=pos, value=value: _cell_html(seat, pos, value, replay),
        ).replace(HOLE, owner)
        for pos, value in enumerate(grid)
    ]


def _cell_html(seat: int, pos: int, value, replay: bool) -> str:
    c = card(value)
    if c["state"] == "up":
        pattern = _("%(name)s, row %(row)s, column %(col)s: %(value)s")
        c["value"] = str(value)
    elif c["state"] == "down":
        pattern = _("%(name)s, row %(row)s, column %(col)s: face down")
    else:
        pattern = _("%(name)s, row %(row)s, column %(col)s: removed")
    where = {"name": HOLE, "row": pos // engine.COLS + 1, "col": pos % engine.COLS + 1}
    c.update(pos=str(pos), label=escape(pattern % {**where, "value": value}))  # hole kept
    context = {"c": c, "seat": str(seat), "replay": replay}  # text: never localized
    return render_to_string("games/partials/cell.html", context)


def board_context(view: engine.View, meta: dict) -> dict:
    full_names = [player_label(n) for n in view.players]
    view = named(view)
    players = []
    last = view.results[-1] if view.results else None
    over = view.phase in (engine.ROUND_OVER, engine.GAME_OVER)
    game_over = view.phase == engine.GAME_OVER
    winners = set(view.winners)
    recent = meta.get("recent") or []
    changed = movelog.changed_cell(recent, meta["version"])
    current_name = view.players[view.current] if view.current is not None else None
    for seat, name in enumerate(view.players):
        highlight = changed[1] if changed and changed[0] == seat else None
        players.append(
            {
                "seat": seat,
                "name": name,
                "full_name": full_names[seat],
                "total": view.totals[seat],
                "grid": grid_html(seat, name, view.grids[seat], replay=bool(meta.get("replay"))),
                "current": view.current == seat,
                "ender": view.ender == seat,
                "ready": seat in meta.get("ready", []),
                "away": seat in meta.get("away", []),
                "winner": seat in winners,
                "revealing": view.phase == engine.REVEAL_PHASE and view.revealed[seat] < 2,
                "raw": last.raw[seat] if over and last else None,
                "score": last.scores[seat] if over and last else None,
                "doubled": bool(over and last and last.ender == seat and last.doubled),
            }
        )
        place = player_html(players[-1], round_over=over, game_over=game_over)
        players[-1]["html"] = place if highlight is None else mark_changed(place, seat, highlight)
    rounds = [round_scores(i, r) for i, r in enumerate(view.results)] if over else []
    turn = _("It is %(name)s's turn.") % {"name": current_name} if current_name is not None else ""
    return {
        "view": view,
        "meta": meta,
        "version": meta["version"],
        "players": players,
        "places": mark_safe("".join(p["html"] for p in players)),
        # The score table at the end of the game: the winner first, then by total.
        "standings": sorted(players, key=lambda p: (not p["winner"], p["total"], p["seat"]))
        if game_over
        else players,
        "phase_label": PHASE_LABELS.get(view.phase, view.phase),
        "current_name": current_name,
        "bar": table_bar(view, current_name),
        "ender_name": view.players[view.ender] if view.ender is not None else None,
        "discard_top": card(view.discard_top) if view.discard_top is not None else None,
        "rounds": rounds,
        "round_over": over,
        "game_over": game_over,
        "aborted": meta.get("status") == "aborted",
        "resigned_name": resigned_name(view, meta),
        "winner_names": [view.players[s] for s in sorted(winners)],
        "log": log_html(recent, view, meta),
        "turn_text": turn,
        "clock": clock_context(meta.get("clock")),
    }


def resigned_name(view: engine.View, meta: dict) -> str | None:
    """The name of the player who ended this game against bots."""
    seat = meta.get("resigned")
    return view.players[seat] if seat is not None and meta.get("status") == "aborted" else None


def round_scores(index: int, result: engine.RoundResult) -> dict:
    """One round of the score table (games/partials/scores.html)."""
    return {
        "number": index + 1,
        "scores": [
            {
                "value": s,
                "raw": result.raw[seat],
                "doubled": result.ender == seat and result.doubled,
                "ender": result.ender == seat,
            }
            for seat, s in enumerate(result.scores)
        ],
    }


def table_bar(view: engine.View, current_name: str | None) -> dict:
    """The words of the board's table bar: round, turn, piles."""
    n, top = view.deck_count, view.discard_top
    return {
        "round": _("Round %(number)s") % {"number": view.round},
        "turn": mark_safe(
            _("Turn: <strong>%(name)s</strong>") % {"name": conditional_escape(current_name)}
        ),
        "deck": ngettext("draw pile, %(cards)s card", "draw pile, %(cards)s cards", n)
        % {"cards": n},
        "deck_count": mark_safe(
            ngettext(
                '<span id="deck-count">%(cards)s</span> card',
                '<span id="deck-count">%(cards)s</span> cards',
                n,
            )
            % {"cards": n}
        ),
        "discard": _("discard pile, top card %(value)s") % {"value": top}
        if top is not None
        else _("discard pile, empty"),
        "discard_title": _("Discard"),
        "drawn": _("%(name)s holds a drawn card") % {"name": current_name},
    }


def log_html(recent: list, view: engine.View, meta: dict) -> str:
    """The board's last moves (``recent``, newest first) as list items."""
    items = []
    for i, entry in enumerate(recent):
        text = movelog.entry_text(entry, view.players, view.results, view.winners)
        newest = ' class="is-newest"' if i == 0 else ""
        items.append(f'<li data-log-version="{entry.get("v")}"{newest}>{escape(text)}</li>')
    return mark_safe("".join(items))


def clock_context(public: dict | None) -> dict | None:
    """The board's countdown (games/partials/clock.html, static/js/clock.js)."""
    if not public:
        return None
    ends = clock.deadline_ms(public)
    return {**countdown(ends), "seconds": public["seconds"], "seats": public["seats"]}


def countdown(deadline_ms: int) -> dict:
    """The deadline, and the seconds left and their text as rendered now (:func:`left_text`)."""
    left = max(0, math.ceil(deadline_ms / 1000 - timezone.now().timestamp()))
    return {"deadline_ms": deadline_ms, "seconds": left, "left": left_text(left)}


#: The clock's longer forms (:func:`clock_forms` hands them to the game page's clock.js).
DAYS_LEFT = gettext_noop("%(days)sd %(hours)sh")
HOURS_LEFT = gettext_noop("%(hours)sh %(minutes)sm")


def clock_forms() -> dict:
    """The clock's longer forms in the active language, for static/js/clock.js."""
    return {"days": _(DAYS_LEFT), "hours": _(HOURS_LEFT)}


def left_text(left: int) -> str:
    """Seconds left as the ticker shows them: "m:ss" under an hour, else "5h 07m" or "2d 03h"
    in the active language (a correspondence clock)."""
    if left >= 86400:
        return _(DAYS_LEFT) % {"days": left // 86400, "hours": f"{left % 86400 // 3600:02d}"}
    if left >= 3600:
        return _(HOURS_LEFT) % {"hours": left // 3600, "minutes": f"{left % 3600 // 60:02d}"}
    return f"{left // 60}:{left % 60:02d}"


def grid_html(
    seat: int, name: str, grid, changed: int | None = None, *, replay: bool = False
) -> str:
    """One player's cards, the card at ``changed`` marked as the last move's."""
    language = translation.get_language()

    def make():
        before, after = _shell(
            _grid_shells,
            (language, seat, name, replay),
            "games/partials/grid.html",
            lambda hole: {"p": {"seat": str(seat), "name": name, "cells": [hole]}},
        )
        return mark_safe(before + "".join(cells_of(seat, name, grid, replay=replay)) + after)

    html = _cached(_grids, (language, seat, name, replay, tuple(grid)), make)
    return html if changed is None else mark_changed(html, seat, changed)


def mark_changed(html: str, seat: int, pos: int) -> str:
    """``html`` (a grid or a place) with the card at ``pos`` marked as the last move's."""
    cell = f'class="cell" id="cell-{seat}-{pos}"'
    return mark_safe(html.replace(cell, f'class="cell just-changed" id="cell-{seat}-{pos}"', 1))


def player_html(p: dict, *, round_over: bool, game_over: bool) -> str:
    """One player's place (games/partials/player.html) around their grid."""
    ready = round_over and not game_over and p["ready"]
    key = (
        translation.get_language(),
        *(p[k] for k in ("seat", "name", "current", "winner", "ender", "revealing", "away")),
        ready,
        p["total"],
    )
    before, after = _shell(
        _place_shells,
        key,
        "games/partials/player.html",
        lambda hole: {
            "p": {**p, "total": str(p["total"]), "grid": hole},  # text: see cells_of
            "round_over": round_over,
            "game_over": game_over,
        },
    )
    return mark_safe(before + p["grid"] + after)


def board_html(view: engine.View, meta: dict) -> str:
    return render_to_string("games/partials/board.html", board_context(view, meta))


def board_for(view: engine.View, meta: dict, language: str) -> str:
    """The public board in ``language``, rendered once per version for the process's sockets."""
    away, clock_now = tuple(meta.get("away", ())), repr(meta.get("clock"))

    def make():
        with translation.override(language):
            return board_html(view, meta)

    return _cached(_boards, (meta["game"], meta["version"], language, away, clock_now), make)


def controls_context(view: engine.View, meta: dict) -> dict:
    view = named(view)
    seat = view.seat
    # Away: the bot plays for the seat, so the controls offer only the way back.
    away = seat is not None and seat in meta.get("away", ()) and view.phase != engine.GAME_OVER
    # A stopped game's view may still hold legal steps (stopped mid-turn): it takes none.
    stopped = meta.get("status") == "aborted"
    legal = (
        [a.to_json() for a in view.legal_actions()]
        if seat is not None and not away and not stopped
        else []
    )
    mine = seat is not None and view.current == seat
    clock_now = clock_context(meta.get("clock"))
    my_clock = clock_now if clock_now and seat in clock_now["seats"] else None
    waiting_on = []
    if view.phase == engine.REVEAL_PHASE:
        waiting_on = [view.players[s] for s, n in enumerate(view.revealed) if n < 2]
    return {
        "view": view,
        "meta": meta,
        "seat": seat,
        "legal": legal,
        "legal_json": json.dumps(legal),
        "my_turn": mine,
        "drawn": card(view.drawn) if view.drawn is not None else None,
        "can_take": any(a.get("take") == "discard" for a in legal),
        "can_draw": {"take": "deck"} in legal,
        "can_flip": any("flip" in a for a in legal),
        "reveals_left": 2 - view.revealed[seat] if seat is not None else 0,
        "current_name": view.players[view.current] if view.current is not None else None,
        "waiting_on": waiting_on,
        "i_am_ready": seat is not None and seat in meta.get("ready", []),
        "aborted": stopped,
        "resigned_name": resigned_name(view, meta),
        "i_am_away": away,
        "my_clock": my_clock,
    }


# What controls.html reads, with the game's and view's fields and the drawn card below.
_CONTROLS_KEYS = ("seat", "aborted", "resigned_name", "my_turn", "legal_json", "current_name")


def controls_html(view: engine.View, meta: dict) -> str:
    """One seat's controls, cached by everything the template reads."""
    context = controls_context(view, meta)
    drawn, my_clock = context["drawn"], context["my_clock"]
    key = (
        translation.get_language(),
        meta.get("game"),
        meta.get("rematch"),
        meta.get("offers_rematch"),
        view.phase,
        view.round,
        view.drawing,
        *(context[k] for k in _CONTROLS_KEYS),
        context["reveals_left"],
        drawn and (drawn["state"], drawn.get("value")),
        tuple(context["waiting_on"]),
        context["i_am_ready"],
        context["i_am_away"],
        my_clock and my_clock["deadline_ms"],
    )
    return _cached(
        _controls, key, lambda: render_to_string("games/partials/controls.html", context)
    )


def heartbeat_html(version: int) -> str:
    """The game page's heartbeat (docs/protocol.md): the saved version, nothing visible."""
    return f'<div id="heartbeat" hidden hx-swap-oob="true" data-version="{int(version)}"></div>'


def presence_html(offline) -> str:
    """Each seat the table waits for, with the time left before the bot plays for them."""
    lines = [
        {
            "seat": seat.seat,
            "name": short_name(seat.name),
            **countdown(int(seat.bot_at.timestamp() * 1000)),
        }
        for seat in offline
    ]
    return render_to_string("games/partials/presence.html", {"offline": lines})


def error_html(message: str, code: str = "") -> str:
    return render_to_string("games/partials/flash.html", {"message": message, "code": code})


def lobby_list_html() -> str:
    return render_to_string(
        "games/partials/lobby_list.html",
        {"lobbies": selectors.open_lobbies(), "games": selectors.running_public_games()},
    )
