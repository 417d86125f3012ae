"""Strong: expected values over the unseen cards, column odds and end-of-round risk.

From the seat's view only: a face-down card is worth the mean of the unseen cards (the deck
minus every face-up card, the discard pile and its drawn card); a grid is worth its expected
final score, with the chance that a face-up pair's column completes. Every move is scored by
the grid value after it (a blind draw exactly, over the unseen values), a discard handed to
the next player costs a share of its worth to them, and ending the round is weighed against
the chance that an opponent ends at or below it (doubling). ``StrongBot(plan=True)`` is the
expert's model: the same, with grids valued net of what the next turns will probably save
(:mod:`games.bots.future`) while the round goes on.
"""

import math
import random

from games.engine import Action, View, draw, flip, reveal, swap, take_discard

from .future import Savings, future_gain, placed
from .knowledge import COLUMNS, OFFSET, hidden_positions, round_ending, unseen_counts

H = "?"
FUTURE_OFFERS_PER_TURN = 1.5
FUTURE_WEIGHT = 0.6
MAX_TURNS = 8
GIFT_SHARE = 3


class _Context:
    """The unseen cards and the round's pace, computed once per decision."""

    __slots__ = ("counts", "total", "mu", "var", "turns", "probs", "savings", "now")

    def __init__(self, view: View, counts: list[int], own_hidden: int) -> None:
        self.counts = counts
        self.total = total = sum(counts)
        if total:
            mu = sum((i - OFFSET) * n for i, n in enumerate(counts)) / total
            var = sum(n * (i - OFFSET - mu) ** 2 for i, n in enumerate(counts)) / total
            self.probs = [n / total for n in counts]
        else:
            mu, var = 5.07, 13.0
            self.probs = [0.0] * len(counts)
        self.mu, self.var = mu, var
        if view.ender is not None:
            self.turns = 0
        else:
            others = [
                sum(1 for c in g if c == H) for s, g in enumerate(view.grids) if s != view.seat
            ]
            self.turns = min(MAX_TURNS, min(others, default=MAX_TURNS), max(own_hidden, 1) * 2)
        self.savings = None
        self.now = 0.0

    def plan(self, grid) -> None:
        """Value grids net of what the seat's next turns will probably save (the expert)."""
        self.savings = Savings(self.probs, self.mu)
        self.now = future_gain(grid, self.turns, self.savings)

    def future_change(self, grid_after) -> float:
        """How much more the next turns will save on ``grid_after`` than on the grid now."""
        return future_gain(grid_after, self.turns, self.savings) - self.now

    def future_clear(self, v: int) -> float:
        """Chance a ``v`` is offered and placed before the round ends."""
        if self.turns <= 0:
            return 0.0
        p = self.probs[v + OFFSET]
        return FUTURE_WEIGHT * (1 - (1 - p) ** (FUTURE_OFFERS_PER_TURN * self.turns))


def column_value(a, b, c, ctx: _Context) -> float:
    """Expected final score of one column (``None`` cells: removed, worth 0)."""
    if a is None:
        return 0.0
    cells = (a, b, c)
    hidden = cells.count(H)
    mu = ctx.mu
    if hidden == 0:
        if a == b == c:
            return 0.0
        for x, y, z in ((a, b, c), (a, c, b), (b, c, a)):
            if x == y and x > 0:
                return (1 - ctx.future_clear(x)) * (2 * x + z)
        return float(a + b + c)
    if hidden == 1:
        x, y = (v for v in cells if v != H)
        if x == y:
            p_now = ctx.probs[x + OFFSET]
            if x > 0:
                clear = p_now + (1 - p_now) * ctx.future_clear(x)
                return (1 - clear) * (2 * x + mu)
            return 2 * x + mu - p_now * 3 * x
        return x + y + mu
    if hidden == 2:
        (x,) = (v for v in cells if v != H)
        return x + 2 * mu
    return 3 * mu


def grid_value(grid, ctx: _Context) -> list[float]:
    return [column_value(grid[c], grid[c + 4], grid[c + 8], ctx) for c in range(4)]


def _after(grid, pos: int, card: int) -> tuple:
    """Column ``pos % 4`` after putting ``card`` at ``pos`` (removed if it completes)."""
    col = pos % 4
    cells = [grid[col], grid[col + 4], grid[col + 8]]
    cells[pos // 4] = card
    if cells[0] == cells[1] == cells[2] and H not in cells:
        return (None, None, None)
    return tuple(cells)


def simple_gain(grid, pos: int, card: int, mu: float) -> float:
    """Points an opponent saves by putting ``card`` at ``pos`` (column completion included)."""
    here = grid[pos]
    gain = (mu if here == H else here) - card
    col = pos % 4
    others = [grid[q] for q in (col, col + 4, col + 8) if q != pos]
    if others[0] == card and others[1] == card:
        gain += 3 * card
    return gain


class StrongBot:
    name = "strong"

    def __init__(self, plan: bool = False) -> None:
        """``plan``: before the round may end, value every grid net of what the seat's next
        turns will probably save (:mod:`games.bots.future`), as the expert does."""
        self.plan = plan

    def choose(self, view: View, rng: random.Random) -> Action:
        grid = view.grids[view.seat]
        if view.phase == "reveal":
            col = rng.randrange(4)
            pair = [p for p in (col, col + 4) if grid[p] == H]
            return reveal(pair[0] if pair else rng.choice(hidden_positions(grid)))
        _base, moves = self.values(view)
        return best_of(moves)[0]

    def values(self, view: View) -> tuple[float, list[tuple[Action, float]]]:
        """The grid's value now and every legal turn step with the value it leads to: the
        expected final score of the seat's grid (doubling included when a move ends the round)
        plus the share of a discard's worth to the next player. Listed in the order of
        preference on ties; ``[]`` outside the seat's turn."""
        seat = view.seat
        grid = view.grids[seat]
        if view.phase not in ("play", "final") or view.current != seat:
            return 0.0, []
        hidden = hidden_positions(grid)
        ctx = _Context(view, unseen_counts(view), len(hidden))
        if self.plan and not round_ending(view):
            ctx.plan(grid)
        cols = grid_value(grid, ctx)
        base = sum(cols)
        ending = self._ending(view, grid, hidden, ctx, base)
        nxt = view.grids[(seat + 1) % len(view.grids)]
        # A discard handed to the next player costs a third of its worth to them; with more
        # than three opponents, its share among them.
        n_opp = max(GIFT_SHARE, len(view.grids) - 1)
        moves: list[tuple[Action, float]] = []
        if not view.drawing:
            draw_value = self._draw_value(grid, hidden, cols, base, ctx, ending)
            moves.append((draw(), draw_value))
            top = view.discard_top
            if top is not None:
                for p, value, raises in self._swaps(
                    grid, hidden, top, cols, base, ctx, ending, nxt, n_opp
                ):
                    # A take that raises a face-up card without completing a column counts
                    # as no better than the draw (bots would go round in circles).
                    moves.append((take_discard(p), max(value, draw_value) if raises else value))
            return base, moves
        card = view.drawn
        for p, value, _raises in self._swaps(
            grid, hidden, card, cols, base, ctx, ending, nxt, n_opp
        ):
            moves.append((swap(p), value))
        if hidden:
            gift = self._gift(nxt, card, ctx) / n_opp
            for p, value in self._flips(grid, hidden, base, ctx, ending):
                moves.append((flip(p), value + gift))
        return base, moves

    # ------------------------------------------------------------------ move values

    def _swaps(self, grid, hidden, card, cols, base, ctx, ending, nxt, n_opp):
        """``(position, value, raises)`` of putting ``card`` at each position of the grid."""
        last = len(hidden) == 1
        for p in range(12):
            here = grid[p]
            if here is None:
                continue
            col = p % 4
            after = _after(grid, p, card)
            raises = here != H and card >= here and after[0] is not None
            value = base - cols[col] + column_value(*after, ctx)
            if ctx.savings is not None:
                value -= ctx.future_change(placed(grid, p, card))
            if last and here == H and ending is not None:
                value = self._end_value(grid, p, card, ending)
            elif ending is not None:
                value += ending[1]
            if here != H and nxt is not None:
                value += self._gift(nxt, here, ctx) / n_opp
            yield p, value, raises

    def _best_swap(self, grid, hidden, card, cols, base, ctx, ending):
        swaps = self._swaps(grid, hidden, card, cols, base, ctx, ending, None, 1)
        return min((value for _p, value, _raises in swaps), default=math.inf)

    def _flips(self, grid, hidden, base, ctx, ending):
        """``(position, value)`` of turning each face-down card, the preferred one first."""
        if len(hidden) == 1 and ending is not None:
            p = hidden[0]
            value = 0.0
            for i, prob in enumerate(ctx.probs):
                if prob:
                    value += prob * self._end_value(grid, p, i - OFFSET, ending)
            return [(p, value)]
        value = base + (ending[1] if ending is not None else 0.0)
        order = sorted(hidden, key=lambda q: (_in_pair(grid, q), _up_in_column(grid, q), q))
        if ctx.savings is None:
            return [(p, value) for p in order]
        flips = [(p, value - self._flip_change(grid, p, ctx)) for p in order]
        return sorted(flips, key=lambda m: round(m[1], 9))

    @staticmethod
    def _flip_change(grid, pos, ctx) -> float:
        """The expected future change of turning the face-down card at ``pos``."""
        change = 0.0
        for i, prob in enumerate(ctx.probs):
            if prob:
                change += prob * ctx.future_change(placed(grid, pos, i - OFFSET))
        return change

    def _draw_value(self, grid, hidden, cols, base, ctx, ending) -> float:
        if not ctx.total:
            return math.inf
        flip_value = self._flips(grid, hidden, base, ctx, ending)[0][1] if hidden else math.inf
        value = 0.0
        for i, prob in enumerate(ctx.probs):
            if prob:
                best = self._best_swap(grid, hidden, i - OFFSET, cols, base, ctx, ending)
                value += prob * min(best, flip_value)
        return value

    def _gift(self, nxt, card, ctx) -> float:
        """What handing ``card`` to the next player is worth to them over a blind draw."""
        if nxt is None:
            return 0.0
        # An ender who removed all four columns has no grid left to put a card in.
        gains = [simple_gain(nxt, p, card, ctx.mu) for p in range(12) if nxt[p] is not None]
        return max(0.0, max(gains, default=0.0) - 2.0)

    # ------------------------------------------------------------------ ending the round

    def _ending(self, view, grid, hidden, ctx, base):
        """``None`` unless a move may end the round now; else (opponent data, play-on cost)."""
        if view.ender is not None or len(hidden) != 1:
            return None
        opps = []
        gains = 0.0
        for s, g in enumerate(view.grids):
            if s == view.seat:
                continue
            k = sum(1 for c in g if c == H)
            est = sum(column_value(g[c], g[c + 4], g[c + 8], _FinalCtx(ctx)) for c in range(4))
            improve = self._expected_improvement(g, ctx)
            gains += improve
            opps.append((est - improve, math.sqrt(ctx.var * k + 2.0)))
        mean_gain = gains / len(opps)
        own_gain = self._expected_improvement(grid, ctx)
        # playing on: every player gets one more turn (opponents improve, so do we)
        return opps, -own_gain + mean_gain, mean_gain, view.rules.double_on_tie

    def _end_value(self, grid, pos, card, ending) -> float:
        opps, _, _, on_tie = ending
        cells = list(grid)
        cells[pos] = card
        col = pos % 4
        a, b, c = cells[col], cells[col + 4], cells[col + 8]
        if a is not None and a == b == c:
            cells[col] = cells[col + 4] = cells[col + 8] = None
        score = sum(x for x in cells if x is not None)
        if score <= 0:
            return float(score)
        p_above = 1.0
        edge = score + (0.5 if on_tie else -0.5)
        for mean, sd in opps:
            z = (edge - mean) / sd
            p_above *= 0.5 * (1 - math.erf(z / math.sqrt(2)))
        return score * (2 - p_above)

    @staticmethod
    def _expected_improvement(g, ctx) -> float:
        """Expected points one turn saves a grid: the best placement of a blind card, floored at 0."""
        value = 0.0
        cells = [p for p in range(12) if g[p] is not None]
        for i, prob in enumerate(ctx.probs):
            if prob:
                value += prob * max(0.0, *(simple_gain(g, p, i - OFFSET, ctx.mu) for p in cells))
        return value


def best_of(moves: list[tuple[Action, float]]) -> tuple[Action, float]:
    """The move of lowest value; on a tie (within 1e-9) the first of ``moves``."""
    best = moves[0]
    for move in moves[1:]:
        if move[1] < best[1] - 1e-9:
            best = move
    return best


class _FinalCtx:
    """The context of a round that ends now: no future turns."""

    __slots__ = ("probs", "mu")

    def __init__(self, ctx: _Context) -> None:
        self.probs = ctx.probs
        self.mu = ctx.mu

    turns = 0

    def future_clear(self, v: int) -> float:
        return 0.0


def _in_pair(grid, pos: int) -> bool:
    col = pos % 4
    a, b = (grid[q] for q in (col, col + 4, col + 8) if q != pos)
    return a == b and a not in (H, None)


def _up_in_column(grid, pos: int) -> int:
    col = pos % 4
    return sum(1 for q in COLUMNS[col] if grid[q] not in (H, None))
