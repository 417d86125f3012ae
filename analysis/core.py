"""The analysis of a finished game: pure Python (no Django), from its record alone.

Every turn decision of the chosen seats is judged from that seat's view at that moment (the
record replayed through the engine, ``engine.iter_steps``). The strong bot's model
(``games.bots.evaluation``) names the best move; a different move is priced by playing both
forward to the end of the round on ``SAMPLES`` deals of the cards the seat could not see
(``games.bots.search``, the same deals for both): the points lost are how much higher the
seat's round score comes out, on average (0 when the move is no worse). A
turn holds one or two decisions: before drawing (take the discard into a position, or draw) and,
after a draw, where the drawn card goes (swap into a position, or discard it and turn a card).
The reveals of the deal are not judged (every choice there is worth the same).

>>> from games.engine import Game, to_record, view_of
>>> from games.bots import get_bot
>>> import random
>>> game, rng = Game(["ann", "bot"], seed=4), random.Random(1)
>>> while game.phase not in ("round_over", "game_over"):
...     seat = game.to_act()[0]
...     game.apply(seat, get_bot("strong").choose(view_of(game, seat), rng))
>>> result = analyse_record(to_record(game), seats=[1])
>>> [p["seat"] for p in result["players"]], result["players"][0]["lost"]
([1], 0.0)
"""

import random
from collections import Counter

from games.bots.evaluation import EVAL_VERSION, best, evaluate
from games.bots.search import paired, sample_outcomes
from games.engine import HIDDEN, REVEAL, View, iter_steps

#: Stored analyses older than this are computed again (the evaluation's version, and this
#: module's revision of labels and figures).
ANALYSIS_REVISION = 2
#: Deals on which a move that differs from the best one is played forward (two rollouts each).
SAMPLES = 48
VERSION = EVAL_VERSION * 100 + ANALYSIS_REVISION

#: Points lost from which a decision gets a label (docs/bots.md, "Post-game analysis").
BLUNDER = 6.0
MISTAKE = 3.0
INACCURACY = 1.0
LABELS = ("inaccuracy", "mistake", "blunder")
#: A decision within this many points of the best one counts as accurate.
ACCURATE = 0.5


def label_for(lost: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for ``lost`` points.

    >>> label_for(0.4), label_for(1.0), label_for(3.2), label_for(12)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    if lost >= BLUNDER:
        return "blunder"
    if lost >= MISTAKE:
        return "mistake"
    if lost >= INACCURACY:
        return "inaccuracy"
    return None


def _ends_round(view: View, action) -> bool:
    """Whether ``action`` turns the seat's last face-down card before anyone ended."""
    grid = view.grids[view.seat]
    if view.ender is not None or action.pos is None or grid[action.pos] != HIDDEN:
        return False
    return sum(1 for c in grid if c == HIDDEN) == 1


def _topic(view: View, chosen, top) -> str:
    """What the decision was about, for the reader: the first that differs."""
    if _ends_round(view, chosen) != _ends_round(view, top):
        return "end_round"
    if not view.drawing:
        return "take_or_draw" if chosen.kind != top.kind or chosen.kind == "draw" else "which_swap"
    if chosen.kind != top.kind:
        return "swap_or_flip"
    return "which_swap" if chosen.kind == "swap" else "which_flip"


def judge(view: View, action) -> dict | None:
    """One decision: the move made, the best move and the points lost (``None`` if the step
    is no turn decision). ``estimate`` is the rollouts' signed difference (negative: the move
    made came out better than the bot's); ``lost`` is that, or 0 when it is negative."""
    moves = evaluate(view)
    if not moves:
        return None
    chosen = next((m for m in moves if m.action == action), None)
    if chosen is None:
        return None
    top = best(moves)
    estimate = 0.0 if action == top.action else rollout_loss(view, action, top.action)
    lost = max(0.0, estimate)
    if lost < 0.005:
        lost, top = 0.0, chosen
    return {
        "move": action.to_json(),
        "best": top.action.to_json(),
        "lost": round(lost, 2),
        "estimate": round(estimate, 2),
        "label": label_for(lost),
        "topic": _topic(view, action, top.action),
    }


def rollout_loss(view: View, action, reference) -> float:
    """How much higher the seat's round score comes out, on average, after ``action`` than
    after ``reference``, both played forward on the same ``SAMPLES`` deals from ``view``. The
    deals depend on the view and the two moves only, so a judgement is reproducible."""
    rng = random.Random(repr((view.seat, view.discard, view.grids, view.drawn, action, reference)))
    mine, theirs = sample_outcomes(view, [action, reference], SAMPLES, rng)
    return paired(mine.own, theirs.own)[0]


def analyse_record(record: dict, seats=None, stand_in=()) -> dict:
    """The analysis of a game record for ``seats`` (all when ``None``), as JSON-ready data:

    ``{"version", "decisions": [{"step", "seat", "round", "move", "best", "lost", "estimate",
    "label", "topic"}], "players": [{"seat", "decisions", "lost", "rounds", "labels",
    "accuracy", "stand_in"}]}``; ``step`` is the replay's step number
    (``engine.iter_positions``), ``rounds`` the points lost in each round (1-based rounds, as a
    list). A player's ``lost`` and ``rounds`` add up the signed estimates: each is unbiased,
    while the sum of the decisions' ``lost`` (each floored at 0 on a noisy estimate) would
    overstate the total. ``stand_in`` numbers the turn steps (every step but the reveals, from
    0, in the game's order) that someone else played for the seat: they are not judged, and
    each player's ``stand_in`` counts theirs.
    """
    wanted = None if seats is None else set(seats)
    skipped = set(stand_in)
    decisions, stood_in = [], Counter()
    turn_steps = (s for s in iter_steps(record) if s[2].kind != REVEAL)
    for number, (step, seat, action, view) in enumerate(turn_steps):
        if wanted is not None and seat not in wanted:
            continue
        if number in skipped:
            stood_in[seat] += 1
            continue
        verdict = judge(view, action)
        if verdict is not None:
            decisions.append({"step": step, "seat": seat, "round": view.round, **verdict})
    n_rounds = len(record.get("rounds", []))
    players = []
    for seat in sorted(wanted if wanted is not None else range(len(record["players"]))):
        mine = [d for d in decisions if d["seat"] == seat]
        rounds = [0.0] * n_rounds
        for d in mine:
            rounds[d["round"] - 1] += d["estimate"]
        players.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "lost": round(sum(d["estimate"] for d in mine), 2),
                "rounds": [round(x, 2) for x in rounds],
                "labels": {label: sum(d["label"] == label for d in mine) for label in LABELS},
                "accuracy": accuracy([d["lost"] for d in mine]),
                "stand_in": stood_in[seat],
            }
        )
    return {"version": VERSION, "decisions": decisions, "players": players}


def accuracy(losses: list[float]) -> float | None:
    """The share of decisions within :data:`ACCURATE` points of the best, in percent.

    >>> accuracy([0, 0, 0.3, 2.5]), accuracy([])
    (75.0, None)
    """
    if not losses:
        return None
    return round(100 * sum(lost < ACCURATE for lost in losses) / len(losses), 1)


__all__ = ["VERSION", "LABELS", "accuracy", "analyse_record", "judge", "label_for"]
