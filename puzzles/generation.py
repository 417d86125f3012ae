"""Puzzles from a finished game's analysis: pure Python over the engine and the bots.

A decision becomes a puzzle when the analysis says the move made lost at least
:data:`MIN_LOST` points and a larger rollout sample than the analysis's confirms it: every
legal option of the decision played forward on the same ``samples`` deals of what the player
could not see (``games.bots.search``), the best option's expected round score at least
:data:`MIN_LOST` points below the move made and :data:`MIN_GAP` below the second best.
"""

import random
from dataclasses import dataclass

from games.bots.search import sample_outcomes
from games.engine import DRAW, FLIP, SWAP, TAKE_DISCARD, Action, View, iter_steps

#: The best option beats the move made by at least this many expected points.
MIN_LOST = 3.0
#: ... and the second best option by at least this many.
MIN_GAP = 1.5
#: Deals of the confirming rollouts (the analysis plays 48).
CONFIRM_SAMPLES = 200

TAKE_OR_DRAW, PLACE = "take_or_draw", "place"
_PREFIX = {TAKE_DISCARD: "take", SWAP: "swap", FLIP: "flip"}
_KIND = {v: k for k, v in _PREFIX.items()}


def code_of(action: Action) -> str:
    """A move as a short code: ``draw``, ``take-5``, ``swap-0``, ``flip-11``."""
    if action.kind == DRAW:
        return "draw"
    return f"{_PREFIX[action.kind]}-{action.pos}"


def action_of(code: str) -> Action | None:
    """The move of a code from :func:`code_of`, ``None`` for anything else."""
    if code == "draw":
        return Action(DRAW)
    prefix, _, pos = str(code).partition("-")
    if prefix not in _KIND or not pos.isdigit() or len(pos) > 2:
        return None
    return Action(_KIND[prefix], int(pos))


@dataclass(frozen=True)
class Candidate:
    """A confirmed puzzle, ready to store."""

    step: int
    seat: int
    view: dict
    decision: str
    options: list[dict]
    answer: str
    played: str
    topic: str
    analysis_lost: float
    confirmed_lost: float
    confirmed_gap: float
    samples: int


def view_data(view: View) -> dict:
    """What the puzzle keeps of ``view``: the seat's own view without the players' names."""
    data = view.to_json()
    for player in data["players"]:
        del player["name"]
    return {"seat": view.seat, "drawing": view.drawing, **data}


def confirm(view: View, played: Action, samples: int) -> tuple[list[dict], float, float]:
    """Every legal option of ``view``'s decision with its expected round score (best first),
    and the best option's lead over ``played`` and over the second best."""
    actions = view.legal_actions()
    rng = random.Random(repr(("puzzle", view.seat, view.discard, view.grids, view.drawn)))
    estimates = sample_outcomes(view, actions, samples, rng)
    options = sorted(
        (
            {
                "code": code_of(e.action),
                "move": e.action.to_json(),
                "points": round(sum(e.own) / len(e.own), 2),
            }
            for e in estimates
        ),
        key=lambda o: o["points"],
    )
    mine = next(o["points"] for o in options if o["code"] == code_of(played))
    best = options[0]["points"]
    second = options[1]["points"] if len(options) > 1 else best
    return options, round(mine - best, 2), round(second - best, 2)


def candidates(
    record: dict,
    analysis: dict,
    *,
    samples: int = CONFIRM_SAMPLES,
    min_lost: float = MIN_LOST,
    min_gap: float = MIN_GAP,
) -> list[Candidate]:
    """The confirmed puzzles of one game (its record and its stored analysis)."""
    wanted = {d["step"]: d for d in analysis.get("decisions", []) if d["lost"] >= min_lost}
    found = []
    if not wanted:
        return found
    last = max(wanted)
    for step, seat, action, view in iter_steps(record):
        if step > last:
            break
        decision = wanted.get(step)
        if decision is None or decision["seat"] != seat:
            continue
        options, lost, gap = confirm(view, action, samples)
        if lost < min_lost or gap < min_gap or options[0]["code"] == code_of(action):
            continue
        found.append(
            Candidate(
                step=step,
                seat=seat,
                view=view_data(view),
                decision=PLACE if view.drawing else TAKE_OR_DRAW,
                options=options,
                answer=options[0]["code"],
                played=code_of(action),
                topic=decision["topic"],
                analysis_lost=decision["lost"],
                confirmed_lost=lost,
                confirmed_gap=gap,
                samples=samples,
            )
        )
    return found
