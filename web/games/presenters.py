"""Engine views as the sockets send them: a group message's public view decoded, a seat's
view of it, and the JSON frame of a view. Decoded views and JSON frames are cached per game
and version: every socket of a game gets the same message and most send the same frame."""

import json
from dataclasses import replace

from core.caches import BoundedCache
from games.engine import View
from games.publish import view_from_data


def as_seat(public: View, seat: int | None, drawn: int | None = None) -> View:
    """``public`` (a spectator view) as ``seat`` sees it, given that seat's own drawn card."""
    if seat is None:
        return public
    mine = drawn if public.drawing and public.current == seat else None
    return replace(public, seat=seat, drawn=mine)


def public_of(view: View) -> View:
    """What everyone may see of ``view``: the same view without its owner's drawn card."""
    return replace(view, seat=None, drawn=None)


_views = BoundedCache(1024, "presenters.views")
_frames = BoundedCache(1024, "presenters.json_frames")


def view_of_message(message: dict) -> View:
    """The public view of a ``game.updated`` message (games.publish)."""
    key = (message["meta"]["game"], message["version"])
    view = _views.get(key)
    if view is None:
        view = view_from_data(message["view"])
        _views.put(key, view)
    return view


def json_frame(view: View, version: int, meta: dict) -> str:
    """The JSON frame of ``view`` (docs/protocol.md); ``clock`` only while a turn clock runs."""
    clock = meta.get("clock")
    key = (meta["game"], version, view.drawn, repr(clock))
    text = _frames.get(key)
    if text is None:
        frame = {**view.to_json(), "version": version}
        if clock:
            frame["clock"] = clock
        text = json.dumps(frame)
        _frames.put(key, text)
    return text
