"""Play a dealt table (:mod:`games.bots.sampler`) to the end of the round with a fast policy.

Every player follows one rule of thumb that reads only face-up cards (a face-down card is worth
the table's ``mu``, the mean of the unseen cards): put a card where it saves most points (a
completed column counts whole, a new pair next to a face-down third a little); take the discard
when that saves at least ``TAKE`` points, else draw, keep the drawn card if it saves at least
``KEEP``, else discard it and turn a face-down card outside a pair. A player does not turn
their last face-down card while their known total plus ``mu`` is not clearly below every
opponent's (known total plus ``mu`` per face-down card); after ``PATIENCE`` turns they do.

:func:`step` applies one engine action to a table, :func:`play_out` plays on and scores the
round, :func:`outcome` says how it went for a seat.
"""

import random

from games.engine import DRAW, FLIP, SWAP, TAKE_DISCARD, Action

from .sampler import Table

#: The two other positions of each position's column.
OTHERS = tuple(tuple(q for q in (p % 4, p % 4 + 4, p % 4 + 8) if q != p) for p in range(12))
TAKE = 2.0
KEEP = 1.0
PAIR = 1.5
END_MARGIN = 2.0
SWAP_LOSS = 3.0
PATIENCE = 120


def best_place(g, u, c: int, mu: float, keep_hidden: bool) -> tuple[float, int]:
    """``(points saved, position)`` of the best place for card ``c`` (``-1`` if none)."""
    best_gain, best_p = -1000.0, -1
    for p in range(12):
        x = g[p]
        if x is None:
            continue
        a, b = OTHERS[p]
        if u[p]:
            gain = x - c
        elif keep_hidden:
            continue
        else:
            gain = mu - c
        ua, ub = u[a], u[b]
        if ua and ub:
            if g[a] == c and g[b] == c:
                gain += 3 * c
        elif c > 0 and ((ua and g[a] == c) or (ub and g[b] == c)):
            gain += PAIR
        if gain > best_gain:
            best_gain, best_p = gain, p
    return best_gain, best_p


def _flip_choice(g, u) -> int:
    """A face-down position, one outside a face-up pair if there is one."""
    fallback = -1
    for p in range(12):
        if not u[p]:
            a, b = OTHERS[p]
            if u[a] and u[b] and g[a] == g[b] and g[a] is not None:
                fallback = p
                continue
            return p
    return fallback


def _place(t: Table, s: int, p: int, c: int) -> None:
    g, u = t.cards[s], t.up[s]
    t.discard.append(g[p])
    g[p] = c
    if not u[p]:
        u[p] = True
        t.hidden[s] -= 1
    _clear(t, s, p)


def _flip(t: Table, s: int, p: int) -> None:
    u = t.up[s]
    u[p] = True
    t.hidden[s] -= 1
    _clear(t, s, p)


def _clear(t: Table, s: int, p: int) -> None:
    g, u = t.cards[s], t.up[s]
    a, b = OTHERS[p]
    v = g[p]
    if u[a] and u[b] and g[a] == v and g[b] == v:
        t.discard.extend((v, v, v))
        g[p] = g[a] = g[b] = None


def _end_turn(t: Table, s: int, rng: random.Random) -> None:
    if not t.pile:
        top = t.discard.pop()
        t.pile = t.discard
        rng.shuffle(t.pile)
        t.discard = [top]
    if t.ender is None and t.hidden[s] == 0:
        t.ender = s
    t.current = (s + 1) % t.n


def _known(g, u) -> int:
    return sum(c for c, up in zip(g, u, strict=True) if up and c is not None)


def _keep_hidden(t: Table, s: int, turns: int) -> bool:
    """Whether ``s`` should avoid turning its last face-down card (ending the round) now."""
    if t.hidden[s] != 1 or t.ender is not None or turns > PATIENCE:
        return False
    mu = t.mu
    mine = _known(t.cards[s], t.up[s]) + mu
    if mine <= 0:
        return False
    rivals = min(_known(t.cards[o], t.up[o]) + mu * t.hidden[o] for o in range(t.n) if o != s)
    return mine > rivals - END_MARGIN


def _play_drawn(t: Table, s: int, d: int, keep_hidden: bool) -> None:
    g, u = t.cards[s], t.up[s]
    gain, p = best_place(g, u, d, t.mu, keep_hidden)
    must_swap = t.hidden[s] == 0 or (keep_hidden and gain >= -SWAP_LOSS)
    if p >= 0 and (gain >= KEEP or must_swap):
        _place(t, s, p, d)
    else:
        t.discard.append(d)
        _flip(t, s, _flip_choice(g, u))


def _turn(t: Table, s: int, rng: random.Random, turns: int) -> None:
    g, u = t.cards[s], t.up[s]
    keep_hidden = _keep_hidden(t, s, turns)
    top = t.discard[-1]
    gain, p = best_place(g, u, top, t.mu, keep_hidden)
    if gain >= TAKE:
        t.discard.pop()
        _place(t, s, p, top)
    else:
        _play_drawn(t, s, t.pile.pop(), keep_hidden)
    _end_turn(t, s, rng)


def step(t: Table, s: int, action: Action, rng: random.Random) -> None:
    """Apply ``action`` (a turn step of the current seat ``s``) to ``t``; a draw is followed
    by the fast policy's use of the card drawn."""
    kind = action.kind
    if kind == DRAW:
        _play_drawn(t, s, t.pile.pop(), _keep_hidden(t, s, 0))
    elif kind == TAKE_DISCARD:
        _place(t, s, action.pos, t.discard.pop())
    elif kind == SWAP:
        d, t.drawn = t.drawn, None
        _place(t, s, action.pos, d)
    elif kind == FLIP:
        t.discard.append(t.drawn)
        t.drawn = None
        _flip(t, s, action.pos)
    else:
        raise ValueError(f"not a turn step: {action}")
    _end_turn(t, s, rng)


def play_out(t: Table, rng: random.Random) -> list[int]:
    """Play every remaining turn of the round with the fast policy; the round's scores
    (final reveal, columns cleared as the rules say, the ender doubled)."""
    s = t.current
    turns = 0
    while s != t.ender:
        _turn(t, s, rng, turns)
        turns += 1
        s = t.current
    return scores(t)


def scores(t: Table) -> list[int]:
    raw = []
    for g in t.cards:
        total = 0
        for col in range(4):
            a, b, c = g[col], g[col + 4], g[col + 8]
            if a is None or (t.clears and a == b == c):
                continue
            total += a + b + c
        raw.append(total)
    e = t.ender
    mine = raw[e]
    if mine > 0 and any((x <= mine if t.on_tie else x < mine) for o, x in enumerate(raw) if o != e):
        raw[e] = 2 * mine
    return raw


def outcome(result: list[int], seat: int) -> float:
    """How the round went for ``seat``: its score minus the mean of the others' (lower is
    better)."""
    return result[seat] - (sum(result) - result[seat]) / (len(result) - 1)


__all__ = ["best_place", "outcome", "play_out", "scores", "step"]
