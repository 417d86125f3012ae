"""The rules of Skyjo as a pure Python package: no Django, no I/O.

>>> from games.engine import Game, Action, view_of
>>> game = Game(["alice", "bob"], seed=7)
>>> for seat in (0, 1):
...     game.apply(seat, Action.from_json({"reveal": 0}))
...     game.apply(seat, Action.from_json({"reveal": 1}))
>>> game.phase
'play'
>>> view_of(game, 0).to_json()["drawn"] is None
True
"""

from .actions import (
    DRAW,
    FLIP,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    Action,
    draw,
    flip,
    reveal,
    swap,
    take_discard,
)
from .cards import COLS, COLUMNS, DECK_COUNTS, DECK_SIZE, GRID_SIZE, ROWS, full_deck
from .errors import (
    BadPosition,
    CardAlreadyFaceUp,
    DiscardMustBeSwapped,
    DrawnCardPending,
    EngineError,
    GameIsOver,
    IllegalAction,
    MalformedAction,
    NoFaceDownCard,
    NotAPlayer,
    NothingDrawn,
    NotYourTurn,
    PositionRemoved,
    RecordError,
    RevealsDone,
    WrongPhase,
)
from .events import apply_described
from .game import (
    FINAL,
    GAME_OVER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PHASES,
    PLAY,
    REVEAL_PHASE,
    ROUND_OVER,
    Game,
    RoundLog,
    RoundResult,
    legal_actions,
)
from .record import (
    DEAL,
    FORMAT,
    Position,
    describe,
    from_record,
    iter_positions,
    iter_steps,
    position_at,
    replay_summary,
    to_record,
)
from .rules import Rules
from .snapshot import SNAPSHOT_FORMAT, from_snapshot, to_snapshot
from .view import HIDDEN, View, view_of
