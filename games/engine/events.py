"""What everyone saw happen in one step: the public facts of an action, for move logs and
announcements. Only what the step showed to every player is told: a drawn card's value only
once it is placed or discarded, never a card that stays face down.

>>> from games.engine import Game, reveal, draw, flip
>>> game = Game(["ann", "ben"], seed=7)
>>> apply_described(game, 0, reveal(5))
{'kind': 'reveal', 'seat': 0, 'pos': 5, 'value': 0}
>>> for seat, pos in ((0, 6), (1, 0), (1, 1)):
...     _ = apply_described(game, seat, reveal(pos))
>>> apply_described(game, game.current, draw())
{'kind': 'draw', 'seat': 1}
>>> apply_described(game, game.current, flip(2))
{'kind': 'flip', 'seat': 1, 'pos': 2, 'value': 0, 'discarded': 10}
"""

from .actions import DRAW, FLIP, REVEAL, TAKE_DISCARD, Action
from .cards import COLS, COLUMNS
from .game import GAME_OVER, PLAY, REVEAL_PHASE, Game


def apply_described(game: Game, seat: int, action: Action) -> dict:
    """Apply ``action`` for ``seat`` as :meth:`Game.apply` does (raising what it raises) and
    return the step's public facts: ``kind`` (``discard`` for taking the discard) and ``seat``;
    ``pos``, ``value`` (now face up there), ``replaced``, ``was_down``, ``discarded`` where the
    step has them; then only when they happened ``removed`` (``[[col, value]]``),
    ``reshuffled``, ``went_out``, ``starts``, ``round_over`` (the round's number), ``game_over``.
    """
    kind = action.kind
    pos = action.pos
    cards = game.cards[seat] if type(seat) is int and 0 <= seat < game.n else None
    before = {}
    if cards is not None and type(pos) is int and 0 <= pos < len(cards):
        before = {
            "old": cards[pos],
            "was_down": not game.up[seat][pos],
            "placed": game.drawn,
            "gone": cards[COLUMNS[pos % COLS][0]] is None,
        }
        if kind == TAKE_DISCARD:
            before["placed"] = game.discard[-1] if game.discard else None
    ender, phase, results = game.ender, game.phase, len(game.results)

    game.apply(seat, action)

    if kind == DRAW:
        return {"kind": "draw", "seat": seat}
    facts = {"kind": "discard" if kind == TAKE_DISCARD else kind, "seat": seat, "pos": pos}
    if kind == REVEAL:
        facts["value"] = before["old"]
    elif kind == FLIP:
        facts.update(value=before["old"], discarded=before["placed"])
    else:
        facts.update(value=before["placed"], replaced=before["old"], was_down=before["was_down"])
    col = pos % COLS
    if not before["gone"] and game.cards[seat][COLUMNS[col][0]] is None:
        facts["removed"] = [[col, facts["value"]]]
    if game.last_reshuffle is not None:
        facts["reshuffled"] = True
    if ender is None and game.ender == seat:
        facts["went_out"] = True
    if phase == REVEAL_PHASE and game.phase == PLAY:
        facts["starts"] = game.current
    if len(game.results) > results:
        facts["round_over"] = game.round
        if game.phase == GAME_OVER:
            facts["game_over"] = True
    return facts
