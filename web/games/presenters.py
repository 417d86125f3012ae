"""Packing engine views into plain data for channel-layer messages, and reading them back.

A group message carries the *spectator* view (public by the engine's own definition); a
connection turns it into its seat's view by adding only that seat's own drawn card.

Every socket of a game gets its own copy of a group message, and most of them send the same
JSON frame: the view decoded from a message and a JSON frame are made once per game and
version in a process (:func:`view_of_message`, :func:`json_frame`).
"""

import json
from dataclasses import replace

from core.caches import BoundedCache
from games.engine import HIDDEN, RoundResult, Rules, View


def view_to_data(view: View) -> dict:
    return {
        "seat": view.seat,
        "players": list(view.players),
        "rules": view.rules.to_json(),
        "round": view.round,
        "phase": view.phase,
        "current": view.current,
        "starter": view.starter,
        "ender": view.ender,
        "deck_count": view.deck_count,
        "discard": list(view.discard),
        "drawing": view.drawing,
        "drawn": view.drawn,
        "grids": [list(g) for g in view.grids],
        "revealed": list(view.revealed),
        "totals": list(view.totals),
        "results": [r.to_json() for r in view.results],
    }


def view_from_data(data: dict) -> View:
    return View(
        seat=data["seat"],
        players=tuple(data["players"]),
        rules=Rules(**data["rules"]),
        round=data["round"],
        phase=data["phase"],
        current=data["current"],
        starter=data["starter"],
        ender=data["ender"],
        deck_count=data["deck_count"],
        discard=tuple(data["discard"]),
        drawing=data["drawing"],
        drawn=data["drawn"],
        grids=tuple(tuple(g) for g in data["grids"]),
        revealed=tuple(data["revealed"]),
        totals=tuple(data["totals"]),
        results=tuple(
            RoundResult(r["starter"], r["ender"], tuple(r["raw"]), tuple(r["scores"]))
            for r in data["results"]
        ),
    )


def as_seat(public: View, seat: int | None, drawn: int | None = None) -> View:
    """``public`` (a spectator view) as ``seat`` sees it, given that seat's own drawn card."""
    if seat is None:
        return public
    mine = drawn if public.drawing and public.current == seat else None
    return replace(public, seat=seat, drawn=mine)


def is_hidden(value: object) -> bool:
    return value == HIDDEN


def public_of(view: View) -> View:
    """What everyone may see of ``view``: the same view without its owner's drawn card."""
    return replace(view, seat=None, drawn=None)


_views = BoundedCache(1024)
_frames = BoundedCache(1024)


def view_of_message(message: dict) -> View:
    """The public view of a ``game.updated`` message (games.publish), decoded once."""
    key = (message["meta"]["game"], message["version"])
    view = _views.get(key)
    if view is None:
        view = view_from_data(message["view"])
        _views.put(key, view)
    return view


def json_frame(view: View, version: int, meta: dict) -> str:
    """The JSON frame of ``view`` (docs/protocol.md): the same for every seat of a version but
    the drawer, whose drawn card is in it (hence ``view.drawn`` in the key)."""
    clock = meta.get("clock")
    key = (meta["game"], version, view.drawn, repr(clock))
    text = _frames.get(key)
    if text is None:
        frame = {**view.to_json(), "version": version}
        if clock:  # only while a turn clock runs: docs/protocol.md
            frame["clock"] = clock
        text = json.dumps(frame)
        _frames.put(key, text)
    return text
