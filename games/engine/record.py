"""Reading, writing and replaying the game record of ``game-record.md``."""

from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain

from .actions import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Action
from .cards import COLS, COLUMNS, DECK_COUNTER, DECK_SIZE, GRID_SIZE
from .errors import EngineError, RecordError
from .game import GAME_OVER, MAX_PLAYERS, MIN_PLAYERS, PLAY, REVEAL_PHASE, ROUND_OVER, Game
from .rules import Rules
from .view import View, view_of

DEAL = "deal"

FORMAT = "skyjo-record/1"
ROUND_KEYS = frozenset({"deck", "reveals", "reshuffles", "actions"})


def to_record(game: Game) -> dict:
    """The game's record, enough to replay it exactly; ValueError if it keeps none."""
    if game.logs is None:
        raise ValueError("this game keeps no record (restored from a snapshot)")
    return {
        "format": FORMAT,
        "players": list(game.players),
        "rules": game.rules.to_json(),
        "rounds": [log.to_json() for log in game.logs],
    }


def from_record(data: object, *, seed: int | None = None) -> Game:
    """The game a record replays to, or RecordError; ``seed`` feeds what the record leaves open
    (a reshuffle with no order given, later rounds' decks)."""
    return deque(_walk(data, seed), maxlen=1)[0][0]


@dataclass(frozen=True, slots=True)
class Position:
    """One step of a replay and the spectator view right after it. ``kind`` is ``"deal"`` (with
    ``seat`` and ``action`` ``None``) or the action's kind; ``text`` (:func:`describe`) tells
    ``facts``, its ``(fact, details)`` pairs, from public information only."""

    step: int
    round: int
    kind: str
    seat: int | None
    action: Action | None
    text: str
    view: View
    facts: tuple = ()

    @property
    def label(self) -> str:
        return f"Round {self.round} · {self.text}"


def iter_positions(data: object, *, seed: int | None = None) -> Iterator[Position]:
    """The :class:`Position` after each deal, reveal, draw and placement of a record; a bad
    record raises RecordError when the walk reaches the fault.

    >>> from games.engine import Game, reveal
    >>> game = Game(["ann", "ben"], seed=3)
    >>> game.apply(0, reveal(4))
    >>> deal, turned = iter_positions(to_record(game))
    >>> deal.label, turned.step, turned.seat, turned.text.startswith("ann turns position 4: ")
    ('Round 1 · the cards are dealt', 1, 0, True)
    >>> turned.facts[0][0], turned.facts[0][1]["pos"]
    ('reveal', 4)
    """
    for index, (game, seat, step, before) in enumerate(_walk(data, seed, before=_before)):
        yield _spectator_position(index, game, seat, step, before)


def position_at(data: object, step: int, *, seed: int | None = None) -> Position:
    """What :func:`iter_positions` yields at ``step``, describing and viewing none of the steps
    before it; IndexError past the last step.

    >>> from games.engine import Game, reveal
    >>> game = Game(["ann", "ben"], seed=3)
    >>> game.apply(0, reveal(4))
    >>> position_at(to_record(game), 1) == list(iter_positions(to_record(game)))[1]
    True
    """
    if step < 0:
        raise IndexError(f"step {step} is before the first")
    walked = -1
    for index, (game, seat, action, before) in enumerate(_walk(data, seed, before=_before)):
        if index == step:
            return _spectator_position(index, game, seat, action, before)
        walked = index
    raise IndexError(f"step {step} is past the last ({walked})")


def _before(game: Game, seat: int, _step: Action) -> dict:
    """What a step's facts need of the game just before it."""
    return {
        "discard": game.discard[-1] if game.discard else None,
        "drawn": game.drawn,
        "cards": list(game.cards[seat]),
        "up": list(game.up[seat]),
        "phase": game.phase,
        "results": len(game.results),
    }


def _spectator_position(
    index: int, game: Game, seat: int | None, step: Action | None, before: dict | None
) -> Position:
    if step is None:
        kind, facts = DEAL, ((DEAL, {}),)
    else:
        kind, facts = step.kind, _facts(game, seat, step, before)
    return Position(index, game.round, kind, seat, step, describe(facts), view_of(game), facts)


def iter_steps(data: object, *, seed: int | None = None) -> Iterator[tuple[int, int, Action, View]]:
    """``(step, seat, action, view)`` for each step of a record, ``view`` the seat's own just
    before it; ``step`` counts as :func:`iter_positions` does (deals included).

    >>> from games.engine import Game, reveal
    >>> game = Game(["ann", "ben"], seed=3)
    >>> game.apply(1, reveal(4))
    >>> [(step, seat, action.kind, view.revealed) for step, seat, action, view in iter_steps(
    ...     to_record(game))]
    [(1, 1, 'reveal', (0, 0))]
    """
    walk = _walk(data, seed, before=lambda game, seat, _step: view_of(game, seat))
    for index, (_game, seat, step, view) in enumerate(walk):
        if step is not None:
            yield index, seat, step, view


def _facts(game: Game, seat: int, step: Action, before: dict) -> tuple:
    """What a spectator saw of one step, from values that are public once it is done."""
    name, pos, kind = game.players[seat], step.pos, step.kind
    if kind == DRAW:
        return ((DRAW, {"name": name}),)
    old = before["cards"][pos]
    if kind == REVEAL:
        facts = [(REVEAL, {"name": name, "pos": pos, "value": old})]
        if game.phase == PLAY:
            facts.append(("starts", {"name": game.players[game.starter]}))
        return tuple(facts)
    if kind in (TAKE_DISCARD, SWAP):
        placed = before["discard" if kind == TAKE_DISCARD else "drawn"]
        facts = [(kind, {"name": name, "placed": placed, "pos": pos, "old": old})]
    else:
        placed = old
        facts = [(kind, {"name": name, "drawn": before["drawn"], "pos": pos, "value": old})]
    cards, up = before["cards"], before["up"]
    if all((cards[p] == placed and up[p]) or p == pos for p in COLUMNS[pos % COLS]):
        facts.append(("removed", {"column": pos % COLS + 1, "value": placed}))
    if before["phase"] == PLAY and game.ender == seat:
        facts.append(("last_turns", {"name": name}))
    if len(game.results) > before["results"]:
        result = game.results[-1]
        scores = tuple(zip(game.players, result.raw, result.scores, strict=True))
        facts.append(("round_over", {"scores": scores}))
        if game.phase == GAME_OVER:
            facts.append(("game_over", {"winners": tuple(game.players[s] for s in game.winners)}))
    return tuple(facts)


_TEXTS = {
    DEAL: "the cards are dealt",
    REVEAL: "{name} turns position {pos}: {value}",
    "starts": "{name} starts",
    DRAW: "{name} draws from the pile",
    TAKE_DISCARD: "{name} takes the discard {placed} and swaps position {pos}, discarding {old}",
    SWAP: "{name} swaps the drawn {placed} into position {pos}, discarding {old}",
    FLIP: "{name} discards the drawn {drawn} and turns position {pos}: {value}",
    "removed": "column {column} of three {value}s removed",
    "last_turns": "{name} has turned every card: last turns",
}


def describe(facts: tuple) -> str:
    """The English text of a step's facts (the record's own language).

    >>> describe((("draw", {"name": "ann"}), ("last_turns", {"name": "ann"})))
    'ann draws from the pile · ann has turned every card: last turns'
    """
    parts = []
    for fact, details in facts:
        if fact == "round_over":
            scores = ", ".join(
                f"{name} {raw} × 2 = {score}" if score != raw else f"{name} {score}"
                for name, raw, score in details["scores"]
            )
            parts.append(f"round over: {scores}")
        elif fact == "game_over":
            winners = details["winners"]
            verb = "wins" if len(winners) == 1 else "win"
            parts.append(f"game over: {' and '.join(winners)} {verb}")
        else:
            parts.append(_TEXTS[fact].format(**details))
    return " · ".join(parts)


def _walk(
    data: object, seed: int | None, *, before: Callable[[Game, int, Action], object] | None = None
) -> Iterator[tuple[Game, int | None, Action | None, object]]:
    """Replay a record, yielding the same mutable ``(game, seat, step, seen)`` after each deal
    (the rest ``None``) and each step, ``seen`` what ``before(game, seat, step)`` returned just
    before it."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    unknown = sorted(set(data) - {"format", "players", "rules", "rounds"})
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} in the record")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unsupported format {data.get('format')!r}, expected {FORMAT!r}")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        or not all(isinstance(p, str) and p for p in players)
    ):
        raise RecordError(f"players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names")
    rules = Rules.from_json(data.get("rules", {}))
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("rounds must be a non-empty list")
    game: Game | None = None
    for index, rnd in enumerate(rounds):
        where = f"round {index + 1} (rounds[{index}])"
        last = index == len(rounds) - 1
        if not isinstance(rnd, dict):
            raise RecordError(f"{where}: a round must be an object")
        unknown = sorted(set(rnd) - ROUND_KEYS)
        if unknown:
            raise RecordError(f"{where}: unknown key {unknown[0]!r} in the round")
        deck = _deck(rnd.get("deck"), where)
        if game is None:
            game = Game(players, rules, seed=seed, deck=deck)
        elif game.phase == GAME_OVER:
            raise RecordError(f"{where}: the game already ended after round {index}")
        else:
            game.next_round(deck)
        game.forced_reshuffles = _reshuffles(rnd.get("reshuffles", []), where)
        yield game, None, None, None
        reveals = _reveals(game, rnd.get("reveals"), where, last)
        for seat, step, here in chain(reveals, _actions(game, rnd.get("actions", []), where, last)):
            seen = None if before is None else before(game, seat, step)
            try:
                game.apply(seat, step)
            except EngineError as exc:
                raise RecordError(f"{here}: {exc}") from None
            yield game, seat, step, seen
        if game.forced_reshuffles:
            used = len(game.log.reshuffles)
            raise RecordError(
                f"{where}, reshuffles[{used}]: unused, the draw pile ran out only {used} time(s)"
            )
        if not last and game.phase not in (ROUND_OVER, GAME_OVER):
            raise RecordError(f"{where}: the round is unfinished but another round follows")


def replay_summary(game: Game) -> dict:
    """The output of ``python -m games.engine replay``."""
    return {
        "rounds": [result.to_json() for result in game.results],
        "totals": list(game.totals),
        "finished": game.finished,
        "winners": game.winners,
    }


def _deck(deck: object, where: str) -> list[int]:
    if not isinstance(deck, list) or len(deck) != DECK_SIZE:
        raise RecordError(f"{where}: deck must be a list of {DECK_SIZE} card values")
    if not all(type(v) is int for v in deck) or Counter(deck) != DECK_COUNTER:
        raise RecordError(f"{where}: deck is not the 150-card Skyjo deck")
    return list(deck)


def _reshuffles(reshuffles: object, where: str) -> list[list[int]]:
    if not isinstance(reshuffles, list) or not all(
        isinstance(r, list) and all(type(v) is int for v in r) for r in reshuffles
    ):
        raise RecordError(f"{where}: reshuffles must be a list of lists of card values")
    return [list(r) for r in reshuffles]


def _reveals(game: Game, reveals: object, where: str, last: bool) -> Iterator:
    """The reveal steps of a round, as ``(seat, action, where)``, checked as they are reached."""
    if not isinstance(reveals, list) or len(reveals) != game.n:
        raise RecordError(f"{where}: reveals must hold one entry per player")
    for seat, pair in enumerate(reveals):
        here = f"{where}, reveals[{seat}]"
        pair = [] if pair is None else pair
        if not isinstance(pair, list) or len(pair) > 2:
            raise RecordError(f"{here}: expected a pair of positions")
        if len(pair) < 2 and not last:
            raise RecordError(f"{here}: every player turns two cards before play")
        for pos in pair:
            yield seat, Action(REVEAL, _position(pos, here)), here


def _actions(game: Game, actions: object, where: str, last: bool) -> Iterator:
    """The steps of a round's actions, as ``(seat, action, where)``, checked as they are reached."""
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list")
    if actions and game.phase == REVEAL_PHASE:
        raise RecordError(f"{where}: actions are given but the reveals are not complete")
    for index, data in enumerate(actions):
        here = f"{where}, action {index}"
        steps = _steps(data, here)
        if len(steps) == 1 and steps[0].kind == DRAW and not (last and index == len(actions) - 1):
            raise RecordError(f"{here}: a draw must be placed with swap or flip")
        seat = game.current
        if seat is None:
            if game.phase == GAME_OVER:
                raise RecordError(f"{here}: the game is over, no action may follow")
            raise RecordError(f"{here}: the round is over, no action may follow")
        for step in steps:
            yield seat, step, here


def _steps(data: object, here: str) -> list[Action]:
    if not isinstance(data, dict):
        raise RecordError(f"{here}: an action must be an object")
    take, rest = data.get("take"), set(data) - {"take"}
    if take == "deck" and not rest:
        return [Action(DRAW)]
    if take == "deck" and rest in ({SWAP}, {FLIP}):
        (kind,) = rest
        return [Action(DRAW), Action(kind, _position(data[kind], here))]
    if take == "discard" and rest == {SWAP}:
        return [Action(TAKE_DISCARD, _position(data[SWAP], here))]
    if take == "discard" and FLIP in rest:
        raise RecordError(f"{here}: the discard taken must be swapped, not discarded and flipped")
    raise RecordError(f"{here}: unknown action {data!r}"[:200])


def _position(value: object, here: str) -> int:
    if type(value) is not int or not 0 <= value < GRID_SIZE:
        raise RecordError(f"{here}: position {value!r} is off the grid (0 to 11)")
    return value
