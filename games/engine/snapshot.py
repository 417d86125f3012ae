"""A running game's state as small plain data, and back, without its history; the restored
game keeps no record and gets a fresh random source. Face-up flags: a bit mask per seat.

>>> from games.engine import Game, reveal
>>> game = Game(["ann", "ben"], seed=3)
>>> game.apply(0, reveal(4))
>>> restored = from_snapshot(to_snapshot(game))
>>> restored.cards == game.cards and restored.up == game.up and restored.logs is None
True
"""

import random

from .cards import GRID_SIZE
from .game import PHASES, Game, RoundResult
from .rules import Rules

SNAPSHOT_FORMAT = "skyjo-snapshot/1"


def to_snapshot(game: Game) -> dict:
    """``game``'s state as JSON-ready data (it holds secrets: the piles and face-down cards)."""
    return {
        "format": SNAPSHOT_FORMAT,
        "players": list(game.players),
        "rules": game.rules.to_json(),
        "round": game.round,
        "phase": game.phase,
        "cards": [list(c) for c in game.cards],
        "up": [_mask(u) for u in game.up],
        "pile": list(game.draw_pile),
        "discard": list(game.discard),
        "drawn": game.drawn,
        "current": game.current,
        "starter": game.starter,
        "ender": game.ender,
        "totals": list(game.totals),
        "results": [[r.starter, r.ender, list(r.raw), list(r.scores)] for r in game.results],
        "reveals": [list(r) for r in game.reveals],
        "turns": game.turns,
    }


def from_snapshot(data: dict, *, seed: int | None = None) -> Game:
    """The game of a snapshot made by :func:`to_snapshot`; ``seed`` feeds its new random source
    (``None``: the system's). Raises ValueError on data that is not such a snapshot."""
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"not a {SNAPSHOT_FORMAT} snapshot")
    try:
        return _restore(data, seed)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"a malformed {SNAPSHOT_FORMAT} snapshot ({exc!r})") from None


def _restore(data: dict, seed: int | None) -> Game:
    if data["phase"] not in PHASES:
        raise ValueError(f"unknown phase {data['phase']!r} in the snapshot")
    game = Game.__new__(Game)
    game.players = tuple(data["players"])
    game.rules = Rules(**data["rules"])
    game.rng = random.Random(seed)
    game.round = data["round"]
    game.phase = data["phase"]
    game.cards = [list(c) for c in data["cards"]]
    game.up = [_flags(mask) for mask in data["up"]]
    game.hidden = [u.count(False) for u in game.up]
    game.draw_pile = list(data["pile"])
    game.discard = list(data["discard"])
    game.drawn = data["drawn"]
    game.current = data["current"]
    game.starter = data["starter"]
    game.ender = data["ender"]
    game.totals = list(data["totals"])
    game.results = [
        RoundResult(starter, ender, tuple(raw), tuple(scores))
        for starter, ender, raw, scores in data["results"]
    ]
    game.reveals = [list(r) for r in data["reveals"]]
    game.turns = data.get("turns", 0)
    game.logs = None
    game.forced_reshuffles = []
    game.last_reshuffle = None
    game.turned_at_end = None
    if not len(game.cards) == len(game.up) == len(game.reveals) == len(game.players):
        raise ValueError("the snapshot's grids do not match its players")
    return game


def _mask(up: list[bool]) -> int:
    return sum(1 << p for p, face_up in enumerate(up) if face_up)


def _flags(mask: int) -> list[bool]:
    return [bool(mask >> p & 1) for p in range(GRID_SIZE)]
