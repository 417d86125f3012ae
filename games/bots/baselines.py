"""The arena's baseline opponents of ``bots-baselines.md`` (details it leaves open: docs/bots.md)."""

import math
import random

from games.engine import Action, View, draw, flip, reveal, swap, take_discard

from .knowledge import (
    DECK_MEAN,
    OFFSET,
    column_of,
    hidden_positions,
    in_grid,
    in_pair,
    known_score,
    may_end,
    unseen_counts,
    up_positions,
)


class GreedyBot:
    """Greedy: replace the highest face-up card with anything lower; never thinks ahead."""

    name = "greedy"

    def choose(self, view: View, rng: random.Random) -> Action:
        grid = view.grids[view.seat]
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            return reveal(rng.choice(hidden))
        up = up_positions(grid)
        high = max(up, key=lambda p: grid[p], default=None)
        if not view.drawing:
            card = view.discard_top
            if card is not None:
                if high is not None and card < grid[high]:
                    return take_discard(high)
                if card <= 0 and hidden:
                    return take_discard(rng.choice(hidden))
            return draw()
        card = view.drawn
        if high is not None and card < grid[high]:
            return swap(high)
        if hidden:
            return flip(rng.choice(hidden))
        return swap(max(up, key=lambda p: grid[p] - card))


class ThresholdBot:
    """Threshold-5: complete positive columns, replace 5+ cards, put 5- cards over hidden ones."""

    name = "threshold5"

    def choose(self, view: View, rng: random.Random) -> Action:
        grid = view.grids[view.seat]
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            return reveal(rng.choice(hidden))
        card = view.drawn if view.drawing else view.discard_top
        pos = self._placement(grid, card, rng) if card is not None else None
        if pos is not None and not may_end(view, pos, card):
            pos = None
        if not view.drawing:
            return take_discard(pos) if pos is not None else draw()
        if pos is not None:
            return swap(pos)
        if hidden and (len(hidden) > 1 or may_end(view, hidden[0], None)):
            return flip(rng.choice(hidden))
        return swap(max(up_positions(grid), key=lambda p: grid[p] - card))

    @staticmethod
    def _placement(grid, card: int, rng: random.Random) -> int | None:
        for p in in_grid(grid):
            others = [grid[q] for q in column_of(p) if q != p]
            if all(o == card for o in others) and 3 * card > 0:
                return p
        high = max(up_positions(grid), key=lambda p: grid[p], default=None)
        if high is not None and grid[high] >= 5 and card < grid[high]:
            return high
        hidden = hidden_positions(grid)
        if card <= 5 and hidden:
            return rng.choice(hidden)
        return None


class StatisticianBot:
    """Statistician, and with its options Hard and Ultra (``bots-baselines.md``)."""

    name = "statistician"
    shrinking_margin = False
    exact_draw = False
    end_penalty = False

    def choose(self, view: View, rng: random.Random) -> Action:
        seat = view.seat
        grid = view.grids[seat]
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            return reveal(rng.choice(hidden))
        counts = unseen_counts(view)
        total = sum(counts)
        mu = sum((i - OFFSET) * n for i, n in enumerate(counts)) / total if total > 0 else DECK_MEAN
        nxt = view.grids[(seat + 1) % len(view.grids)]
        if not view.drawing:
            card = view.discard_top
            draw_value = self._draw_value(view, grid, counts, mu, total)
            if card is not None:
                options = self._placements(view, grid, card, counts, mu, total)
                gain, pos = max(options)
                if gain > draw_value + self._margin(view):
                    near = [(g, p) for g, p in options if g >= gain - 0.5]
                    pos = min(near, key=lambda o: (self._usefulness(nxt, grid[o[1]], mu), -o[0]))[1]
                    return take_discard(pos)
            return draw()
        card = view.drawn
        options = self._placements(view, grid, card, counts, mu, total)
        if hidden:
            flips = [p for p in hidden if not in_pair(grid, p)] or hidden
            flip_pos = rng.choice(flips)
            flip_score = 0.5
            if len(hidden) == 1:
                flip_score += self._end_adjust(view, grid, flip_pos, None, mu, counts)
            options.append((flip_score, -1 - flip_pos))
        best = max(g for g, _ in options)
        near = [(g, p) for g, p in options if g >= best - 0.5]
        _gain, pos = min(
            near, key=lambda o: (self._usefulness(nxt, card if o[1] < 0 else grid[o[1]], mu), -o[0])
        )
        return flip(-1 - pos) if pos < 0 else swap(pos)

    def _placements(self, view, grid, card, counts, mu, total) -> list[tuple[float, int]]:
        hidden = hidden_positions(grid)
        out = []
        for p in in_grid(grid):
            gain = self._gain(grid, p, card, counts, mu, total)
            if len(hidden) == 1 and hidden[0] == p:
                gain += self._end_adjust(view, grid, p, card, mu, counts)
            out.append((gain, p))
        return out

    @staticmethod
    def _gain(grid, p: int, card: int, counts, mu: float, total: int) -> float:
        gain = (mu if grid[p] == "?" else grid[p]) - card
        others = [grid[q] for q in column_of(p) if q != p]
        if others[0] == card and others[1] == card:
            return gain + 2 * card
        if total and card in others and "?" in others and counts[card + OFFSET] > 0:
            gain += card * counts[card + OFFSET] / total
        return gain

    def _best_gain(self, grid, card, counts, mu, total) -> float:
        gains = (self._gain(grid, p, card, counts, mu, total) for p in in_grid(grid))
        return max(gains, default=-math.inf)

    def _draw_value(self, view, grid, counts, mu, total) -> float:
        if not self.exact_draw or total == 0:
            return max(0.0, self._best_gain(grid, round(mu), counts, mu, total))
        floor = 0.0 if hidden_positions(grid) else -math.inf
        value = 0.0
        for i, n in enumerate(counts):
            if n:
                value += n * max(floor, self._best_gain(grid, i - OFFSET, counts, mu, total))
        return value / total

    def _margin(self, view: View) -> float:
        if not self.shrinking_margin:
            return 0.5
        if view.ender is not None:
            return 0.1
        fewest = min(len(hidden_positions(g)) for g in view.grids)
        late = min(1.0, max(0.0, (10 - fewest) / 9))
        return 0.85 - 0.4 * late

    def _end_adjust(self, view, grid, pos, card, mu, counts) -> float:
        """Bonus (or penalty) for a move that turns the last face-down card."""
        if view.ender is not None:
            return 0.0
        mine = known_score(grid) + (mu if card is None else card)
        if self.end_penalty:
            if mine <= 0:
                return 0.0
            return -self._p_doubled(view, mine, mu, counts) * mine
        others = (g for s, g in enumerate(view.grids) if s != view.seat)
        return float(all(mine < known_score(g) + mu * len(hidden_positions(g)) for g in others))

    @staticmethod
    def _p_doubled(view, mine: float, mu: float, counts) -> float:
        total = sum(counts) or 1
        var = sum(n * (i - OFFSET - mu) ** 2 for i, n in enumerate(counts)) / total
        p_all_above = 1.0
        for s, g in enumerate(view.grids):
            if s == view.seat:
                continue
            k = len(hidden_positions(g))
            est = known_score(g) + mu * k
            sd = math.sqrt(var * k) + 1.0
            z = (mine + (0.5 if view.rules.double_on_tie else -0.5) - est) / sd
            p_all_above *= 1 - 0.5 * (1 + math.erf(z / math.sqrt(2)))
        return 1 - p_all_above

    def _usefulness(self, their_grid, card, mu: float) -> float:
        """How much a discard of ``card`` helps the next player (hidden: the unseen mean): their
        best gain with their face-down cards at the deck mean and no pair chance (total 0)."""
        card = round(mu) if card == "?" else card
        return self._best_gain(their_grid, card, (), DECK_MEAN, 0)


class HardBot(StatisticianBot):
    """Hard: Statistician with margins that shrink as the round goes on."""

    name = "hard"
    shrinking_margin = True


class UltraBot(HardBot):
    """Ultra: Hard with the exact expectation of a blind draw and a doubling-risk penalty."""

    name = "ultra"
    exact_draw = True
    end_penalty = True


BASELINES = {bot.name: bot for bot in (GreedyBot, ThresholdBot, StatisticianBot, HardBot, UltraBot)}
