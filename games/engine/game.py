"""The state of one game of Skyjo and the only code that applies its rules: :meth:`Game.apply`
checks every rule and then mutates the game, or raises an IllegalAction and changes nothing."""

import random
from collections import Counter
from dataclasses import dataclass

from .actions import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Action
from .cards import COLS, COLUMNS, DECK_COUNTER, GRID_SIZE, full_deck
from .errors import (
    BadPosition,
    CardAlreadyFaceUp,
    DrawnCardPending,
    GameIsOver,
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
from .rules import Rules

REVEAL_PHASE = "reveal"
PLAY = "play"
FINAL = "final"
ROUND_OVER = "round_over"
GAME_OVER = "game_over"
PHASES = (REVEAL_PHASE, PLAY, FINAL, ROUND_OVER, GAME_OVER)

REVEALS_PER_ROUND = 2
MIN_PLAYERS = 2
MAX_PLAYERS = 8


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The scoring of one finished round."""

    starter: int
    ender: int
    raw: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def doubled(self) -> bool:
        return self.scores[self.ender] != self.raw[self.ender]

    def to_json(self) -> dict:
        raw, scores = list(self.raw), list(self.scores)
        return {"starter": self.starter, "ender": self.ender, "raw": raw, "scores": scores}


@dataclass(slots=True)
class RoundLog:
    """What the game record keeps of one round: the deal, the reveals and every action."""

    deck: list[int]
    reveals: list[list[int]]
    reshuffles: list[list[int]]
    actions: list[dict]

    def to_json(self) -> dict:
        data = {
            "deck": list(self.deck),
            "reveals": [list(r) for r in self.reveals],
            "actions": [dict(a) for a in self.actions],
        }
        if self.reshuffles:
            data["reshuffles"] = [list(r) for r in self.reshuffles]
        return data


class Game:
    """One game: the players, the rules, the current round and the scores so far.

    Positions are ``row * 4 + col``. In the grids a removed card is ``None``; ``up[seat][p]``
    tells whether the card at ``p`` is face up (removed positions count as face up).
    """

    __slots__ = (
        "players",
        "rules",
        "rng",
        "round",
        "phase",
        "cards",
        "up",
        "hidden",
        "draw_pile",
        "discard",
        "drawn",
        "current",
        "starter",
        "ender",
        "totals",
        "results",
        "reveals",
        "turns",  # turns begun in this round (a draw or a discard taken): its record's actions
        "logs",
        "forced_reshuffles",
        "last_reshuffle",
        "turned_at_end",
    )

    def __init__(
        self,
        players: list[str] | tuple[str, ...],
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        deck: list[int] | None = None,
    ) -> None:
        """Start a game and deal its first round (from ``deck`` if given, else shuffled)."""
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"Skyjo needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if isinstance(players, str) or not all(isinstance(p, str) and p for p in players):
            raise ValueError("players must be names (non-empty strings), as a record holds them")
        self.players = tuple(players)
        self.rules = rules or Rules()
        self.rng = random.Random(seed)
        self.round = 0
        self.totals = [0] * len(players)
        self.results: list[RoundResult] = []
        self.logs: list[RoundLog] | None = []
        self.forced_reshuffles: list[list[int]] = []
        self.last_reshuffle: list[int] | None = None
        # Per seat, the cards still face down when the last scored round ended, which its
        # scoring turned up (None until a round is scored here: not kept in a snapshot).
        self.turned_at_end: tuple[int, ...] | None = None
        self._deal(deck)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def finished(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def winners(self) -> list[int]:
        """Seats with the lowest total once the game is over, else ``[]``."""
        if self.phase != GAME_OVER:
            return []
        best = min(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    @property
    def log(self) -> RoundLog:
        """The record of the round in progress (or just scored); ValueError if there is none."""
        if self.logs is None:
            raise ValueError("this game keeps no record (restored from a snapshot)")
        return self.logs[-1]

    def revealed_count(self, seat: int) -> int:
        return len(self.reveals[seat])

    def to_act(self) -> list[int]:
        """Seats that may act now: all who still reveal, or the current player."""
        if self.phase == REVEAL_PHASE:
            return [s for s in range(self.n) if len(self.reveals[s]) < REVEALS_PER_ROUND]
        return [] if self.current is None else [self.current]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not theirs to act)."""
        return legal_actions(
            phase=self.phase,
            current=self.current,
            seat=seat,
            drawn=self.drawn is not None,
            revealed=self.revealed_count(seat) if 0 <= seat < self.n else REVEALS_PER_ROUND,
            face_down=[not u for u in self.up[seat]] if 0 <= seat < self.n else [],
            removed=[c is None for c in self.cards[seat]] if 0 <= seat < self.n else [],
        )

    def score(self, seat: int) -> int:
        """The sum of ``seat``'s face-up cards in the grid."""
        cards, up = self.cards[seat], self.up[seat]
        return sum(c for c, u in zip(cards, up, strict=True) if u and c is not None)

    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat``, or raise an IllegalAction and change nothing. Until the
        next step ``last_reshuffle`` is the order of the pile this turn's reshuffle made, or None.
        """
        if type(seat) is not int or not 0 <= seat < len(self.players):
            raise NotAPlayer(f"seat {seat!r} is not a player in this game")
        if type(action) is not Action:
            raise MalformedAction(f"expected an Action, not {type(action).__name__}")
        kind = action.kind
        if kind == REVEAL:
            self._reveal(seat, action.pos)
            self.last_reshuffle = None
            return
        self._check_turn(seat)
        pos = action.pos
        if self.drawn is None and kind in (SWAP, FLIP):
            raise NothingDrawn('draw a card first with {"take": "deck"}')
        if kind == DRAW:
            if self.drawn is not None:
                raise DrawnCardPending("you already drew a card: swap it in or discard it and flip")
            self.drawn = self.draw_pile.pop()
        elif kind == TAKE_DISCARD:
            if self.drawn is not None:
                raise DrawnCardPending("you drew a card: swap it in or discard it and flip")
            self._check_in_grid(self.cards[seat], pos)
            self._swap_in(seat, pos, self.discard.pop())
        elif kind == SWAP:
            self._check_in_grid(self.cards[seat], pos)
            self._swap_in(seat, pos, self.drawn)
            self.drawn = None
        elif kind == FLIP:
            if self.hidden[seat] == 0:
                raise NoFaceDownCard("you have no face-down card to turn: swap the drawn card in")
            self._turn_up(seat, pos)
            self.discard.append(self.drawn)
            self.drawn = None
        else:
            raise MalformedAction(f"unknown action kind {kind!r}")
        self.last_reshuffle = None
        if kind in (DRAW, TAKE_DISCARD):  # a turn begins: a new action of the record
            self.turns += 1
            if self.logs is not None:
                self.logs[-1].actions.append(action.to_json())
        elif self.logs is not None:
            self.logs[-1].actions[-1][kind] = pos
        if kind != DRAW:
            self._end_turn(seat, pos)

    def next_round(self, deck: list[int] | None = None) -> None:
        """Deal the next round once the last one is scored."""
        if self.phase != ROUND_OVER:
            raise WrongPhase("the next round starts only after a round is scored")
        self._deal(deck)

    def copy(self) -> "Game":
        """An independent copy (its random source too), for search and simulation."""
        other = Game.__new__(Game)
        for name in Game.__slots__:  # then a copy of each mutable part
            setattr(other, name, getattr(self, name))
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.cards = [list(c) for c in self.cards]
        other.up = [list(u) for u in self.up]
        other.hidden = list(self.hidden)
        other.draw_pile = list(self.draw_pile)
        other.discard = list(self.discard)
        other.totals = list(self.totals)
        other.results = list(self.results)
        other.reveals = [list(r) for r in self.reveals]
        if self.logs is not None:
            log = self.log
            reshuffles = [list(r) for r in log.reshuffles]
            actions = [dict(a) for a in log.actions]
            other.logs = [*self.logs[:-1], RoundLog(log.deck, other.reveals, reshuffles, actions)]
        other.forced_reshuffles = [list(r) for r in self.forced_reshuffles]
        return other

    def _deal(self, deck: list[int] | None) -> None:
        if deck is None:
            deck = full_deck()
            self.rng.shuffle(deck)
        elif not all(type(v) is int for v in deck) or Counter(deck) != DECK_COUNTER:
            raise ValueError("the deck must be the 150 cards of the Skyjo deck, in deal order")
        else:
            deck = list(deck)
        n = self.n
        self.round += 1
        self.phase = REVEAL_PHASE
        self.cards = [deck[12 * i : 12 * i + GRID_SIZE] for i in range(n)]
        self.up = [[False] * GRID_SIZE for _ in range(n)]
        self.hidden = [GRID_SIZE] * n
        self.discard = [deck[12 * n]]
        self.draw_pile = deck[12 * n + 1 :][::-1]  # top of the pile at the end: pop() draws
        self.drawn = None
        self.current = None
        self.starter = None
        self.ender = None
        self.reveals = [[] for _ in range(n)]
        self.turns = 0
        if self.logs is not None:
            self.logs.append(RoundLog(list(deck), self.reveals, [], []))

    def _reveal(self, seat: int, pos: object) -> None:
        if self.phase != REVEAL_PHASE:
            if self.phase == GAME_OVER:
                raise GameIsOver("the game is over")
            raise WrongPhase("start cards are turned only in the reveal phase")
        mine = self.reveals[seat]
        if len(mine) >= REVEALS_PER_ROUND:
            raise RevealsDone("you have already turned your two start cards")
        self._turn_up(seat, pos)
        mine.append(pos)
        if all(len(r) == REVEALS_PER_ROUND for r in self.reveals):
            self._start_play()

    def _start_play(self) -> None:
        sums = [self.score(s) for s in range(self.n)]
        starter = self.results[-1].ender if self.results else sums.index(max(sums))
        self.starter = self.current = starter
        self.phase = PLAY

    def _check_turn(self, seat: int) -> None:
        phase = self.phase
        if phase != PLAY and phase != FINAL:
            if phase == GAME_OVER:
                raise GameIsOver("the game is over")
            if phase == REVEAL_PHASE:
                raise WrongPhase("every player must first turn two start cards")
            raise WrongPhase("the round is over: wait for the next round")
        if seat != self.current:
            raise NotYourTurn(f"it is {self.players[self.current]}'s turn, not yours")

    @staticmethod
    def _check_in_grid(cards: list, pos: object) -> None:
        if type(pos) is not int or not 0 <= pos < GRID_SIZE:
            raise BadPosition(f"position {pos!r} is off the grid (0 to {GRID_SIZE - 1})")
        if cards[pos] is None:
            raise PositionRemoved(f"the column of position {pos} has been removed")

    def _turn_up(self, seat: int, pos: object) -> None:
        self._check_in_grid(self.cards[seat], pos)
        if self.up[seat][pos]:
            raise CardAlreadyFaceUp(f"the card at position {pos} is already face up")
        self.up[seat][pos] = True
        self.hidden[seat] -= 1

    def _swap_in(self, seat: int, pos: int, card: int) -> None:
        cards, up = self.cards[seat], self.up[seat]
        self.discard.append(cards[pos])
        cards[pos] = card
        if not up[pos]:
            up[pos] = True
            self.hidden[seat] -= 1

    def _end_turn(self, seat: int, pos: int) -> None:
        self._clear_column(seat, pos % COLS)
        if not self.draw_pile:
            self._reshuffle()
        if self.ender is None and self.hidden[seat] == 0:
            self.ender = seat
            self.phase = FINAL
        nxt = (seat + 1) % self.n
        if nxt == self.ender:
            self._score_round()
        else:
            self.current = nxt

    def _clear_column(self, seat: int, col: int) -> None:
        cards, up = self.cards[seat], self.up[seat]
        a, b, c = COLUMNS[col]
        value = cards[a]
        if value is not None and up[a] and up[b] and up[c] and cards[b] == value == cards[c]:
            self.discard.extend((value, value, value))
            cards[a] = cards[b] = cards[c] = None

    def _reshuffle(self) -> None:
        top = self.discard.pop()
        if self.forced_reshuffles:
            new_pile = self.forced_reshuffles.pop(0)
            if sorted(new_pile) != sorted(self.discard):
                self.discard.append(top)
                k = len(self.log.reshuffles) if self.logs is not None else 0
                raise RecordError(
                    f"reshuffles[{k}] must hold exactly the discard pile without its top card"
                )
        else:
            new_pile = self.discard
            self.rng.shuffle(new_pile)
        self.last_reshuffle = list(new_pile)
        if self.logs is not None:
            self.logs[-1].reshuffles.append(self.last_reshuffle)
        self.draw_pile = new_pile[::-1]
        self.discard = [top]

    def _score_round(self) -> None:
        n = self.n
        self.turned_at_end = tuple(self.hidden)
        for seat in range(n):
            self.up[seat][:] = [True] * GRID_SIZE
            self.hidden[seat] = 0
            if self.rules.final_reveal_clears_columns:
                for col in range(COLS):
                    self._clear_column(seat, col)
        raw = [self.score(s) for s in range(n)]
        ender = self.ender
        scores = list(raw)
        mine = raw[ender]
        if mine > 0:
            others = [raw[s] for s in range(n) if s != ender]
            if any(o <= mine if self.rules.double_on_tie else o < mine for o in others):
                scores[ender] = 2 * mine
        self.results.append(RoundResult(self.starter, ender, tuple(raw), tuple(scores)))
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.current = None
        self.phase = GAME_OVER if max(self.totals) >= self.rules.end_score else ROUND_OVER


def legal_actions(
    *,
    phase: str,
    current: int | None,
    seat: int,
    drawn: bool,
    revealed: int,
    face_down: list[bool],
    removed: list[bool],
) -> list[Action]:
    """The legal actions of ``seat`` from what that seat itself can see."""
    if phase == REVEAL_PHASE:
        if revealed >= REVEALS_PER_ROUND:
            return []
        return [Action(REVEAL, p) for p in range(GRID_SIZE) if face_down[p]]
    if phase not in (PLAY, FINAL) or seat != current:
        return []
    in_grid = [p for p in range(GRID_SIZE) if not removed[p]]
    if drawn:
        swaps = [Action(SWAP, p) for p in in_grid]
        return swaps + [Action(FLIP, p) for p in in_grid if face_down[p]]
    return [Action(DRAW)] + [Action(TAKE_DISCARD, p) for p in in_grid]
