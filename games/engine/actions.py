"""Actions as small values with a JSON round trip, like ``chess.Move`` and UCI.

One turn is one of ``{"take": "discard", "swap": p}``, or ``{"take": "deck"}`` followed by
``{"swap": p}`` or ``{"flip": p}``. ``{"reveal": p}`` turns a start card in the reveal phase.
"""

from dataclasses import dataclass
from functools import partial

from .cards import GRID_SIZE
from .errors import BadPosition, DiscardMustBeSwapped, MalformedAction

REVEAL = "reveal"
TAKE_DISCARD = "take_discard"
DRAW = "draw"
SWAP = "swap"
FLIP = "flip"


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    pos: int | None = None

    def to_json(self) -> dict:
        if self.kind == TAKE_DISCARD:
            return {"take": "discard", "swap": self.pos}
        if self.kind == DRAW:
            return {"take": "deck"}
        return {self.kind: self.pos}

    @classmethod
    def from_json(cls, data: object) -> "Action":
        """Parse one step in the protocol's JSON form; raise MalformedAction or BadPosition."""
        if not isinstance(data, dict):
            raise MalformedAction("an action must be a JSON object")
        keys = set(data)
        if len(keys) == 1 and keys <= {REVEAL, SWAP, FLIP}:
            (kind,) = keys
            return cls(kind, _position(data[kind]))
        if "take" in keys:
            take = data["take"]
            if take == "deck" and keys == {"take"}:
                return cls(DRAW)
            if take == "discard":
                if keys == {"take", "swap"}:
                    return cls(TAKE_DISCARD, _position(data["swap"]))
                if "flip" in keys:
                    raise DiscardMustBeSwapped(
                        "the discard you take must be swapped into your grid, not discarded"
                    )
                raise MalformedAction(
                    'taking the discard needs a position: {"take": "discard", "swap": p}'
                )
            if take == "deck":
                raise MalformedAction(
                    'draw first with {"take": "deck"}, then send {"swap": p} or {"flip": p}'
                )
            raise MalformedAction('"take" must be "deck" or "discard"')
        raise MalformedAction(f"unknown action {_short(data)}")


reveal = partial(Action, REVEAL)
take_discard = partial(Action, TAKE_DISCARD)
draw = partial(Action, DRAW)
swap = partial(Action, SWAP)
flip = partial(Action, FLIP)


def _position(value: object) -> int:
    if type(value) is not int:
        raise BadPosition(f"a position must be an integer from 0 to {GRID_SIZE - 1}")
    if not 0 <= value < GRID_SIZE:
        raise BadPosition(f"position {value} is off the grid (0 to {GRID_SIZE - 1})")
    return value


def _short(data: dict) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."
