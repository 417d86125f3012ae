"""What one seat (or a spectator) may see: the one hidden-information filter of the project.
Face-down values are hidden from all, a drawn card from all but its drawer, the pile's order."""

from dataclasses import dataclass

from .actions import Action
from .errors import NotAPlayer
from .game import Game, RoundResult, legal_actions
from .rules import Rules

HIDDEN = "?"


@dataclass(frozen=True, slots=True)
class View:
    """One seat's view of a game (``seat`` ``None``: a spectator). ``grids[s][p]`` is an int (face
    up), ``"?"`` (face down) or ``None`` (removed); ``discard``, the whole pile bottom first, is
    public; ``drawing`` tells all that a card is drawn, ``drawn`` its value to the drawer only."""

    seat: int | None
    players: tuple[str, ...]
    rules: Rules
    round: int
    phase: str
    current: int | None
    starter: int | None
    ender: int | None
    deck_count: int
    discard: tuple[int, ...]
    drawing: bool
    drawn: int | None
    grids: tuple[tuple[int | str | None, ...], ...]
    revealed: tuple[int, ...]
    totals: tuple[int, ...]
    results: tuple[RoundResult, ...]

    @property
    def discard_top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    @property
    def winners(self) -> list[int]:
        if self.phase != "game_over":
            return []
        best = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def legal_actions(self) -> list[Action]:
        """The viewer's legal actions, computed from the view alone."""
        if self.seat is None:
            return []
        grid = self.grids[self.seat]
        return legal_actions(
            phase=self.phase,
            current=self.current,
            seat=self.seat,
            drawn=self.drawing,
            revealed=self.revealed[self.seat],
            face_down=[c == HIDDEN for c in grid],
            removed=[c is None for c in grid],
        )

    def to_json(self) -> dict:
        """The view format of game-record.md."""
        return {
            "round": self.round,
            "phase": self.phase,
            "current": self.current,
            "ender": self.ender,
            "deck_count": self.deck_count,
            "discard_top": self.discard_top,
            "drawn": self.drawn,
            "players": [
                {"name": name, "grid": list(grid), "total": total}
                for name, grid, total in zip(self.players, self.grids, self.totals, strict=True)
            ],
        }


def view_of(game: Game, seat: int | None = None) -> View:
    """The view of ``seat`` (``None``: a spectator, who sees what every player sees)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.n):
        raise NotAPlayer(f"seat {seat!r} is not a player in this game")
    grids = tuple(
        tuple(c if u else HIDDEN for c, u in zip(cards, up, strict=True))
        for cards, up in zip(game.cards, game.up, strict=True)
    )
    drawing = game.drawn is not None
    return View(
        seat=seat,
        players=game.players,
        rules=game.rules,
        round=game.round,
        phase=game.phase,
        current=game.current,
        starter=game.starter,
        ender=game.ender,
        deck_count=len(game.draw_pile),
        discard=tuple(game.discard),
        drawing=drawing,
        drawn=game.drawn if drawing and seat is not None and seat == game.current else None,
        grids=grids,
        revealed=tuple(len(r) for r in game.reveals),
        totals=tuple(game.totals),
        results=tuple(game.results),
    )
