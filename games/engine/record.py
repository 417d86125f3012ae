"""Reading, writing and replaying the game record of ``game-record.md``."""

from collections import Counter

from .actions import Action, draw, flip, reveal, swap, take_discard
from .cards import DECK_COUNTER, DECK_SIZE, GRID_SIZE
from .errors import EngineError, RecordError
from .game import GAME_OVER, MAX_PLAYERS, MIN_PLAYERS, REVEAL_PHASE, ROUND_OVER, Game
from .rules import Rules

FORMAT = "skyjo-record/1"
ROUND_KEYS = frozenset({"deck", "reveals", "reshuffles", "actions"})


def to_record(game: Game) -> dict:
    """The game's record: enough to replay it exactly."""
    return {
        "format": FORMAT,
        "players": list(game.players),
        "rules": game.rules.to_json(),
        "rounds": [log.to_json() for log in game.logs],
    }


def from_record(data: object, *, seed: int | None = None) -> Game:
    """Replay a record and return the game in its final state, or raise RecordError.

    ``seed`` feeds the random source used where the record leaves something open (a reshuffle
    with no order given, the decks of later rounds).
    """
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
    rules = Rules.from_json(data.get("rules"))
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
        _replay_reveals(game, rnd.get("reveals"), where, last)
        _replay_actions(game, rnd.get("actions", []), where, last)
        if game.forced_reshuffles:
            used = len(game.log.reshuffles)
            raise RecordError(
                f"{where}, reshuffles[{used}]: unused, the draw pile ran out only {used} time(s)"
            )
        if not last and game.phase not in (ROUND_OVER, GAME_OVER):
            raise RecordError(f"{where}: the round is unfinished but another round follows")
    return game


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


def _replay_reveals(game: Game, reveals: object, where: str, last: bool) -> None:
    if not isinstance(reveals, list) or len(reveals) != game.n:
        raise RecordError(f"{where}: reveals must hold one entry per player")
    for seat, pair in enumerate(reveals):
        here = f"{where}, reveals[{seat}]"
        if pair is None:
            pair = []
        if not isinstance(pair, list) or len(pair) > 2:
            raise RecordError(f"{here}: expected a pair of positions")
        if len(pair) < 2 and not last:
            raise RecordError(f"{here}: every player turns two cards before play")
        for pos in pair:
            if type(pos) is not int or not 0 <= pos < GRID_SIZE:
                raise RecordError(f"{here}: position {pos!r} is off the grid (0 to 11)")
            try:
                game.apply(seat, reveal(pos))
            except EngineError as exc:
                raise RecordError(f"{here}: {exc}") from None


def _replay_actions(game: Game, actions: object, where: str, last: bool) -> None:
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list")
    if actions and game.phase == REVEAL_PHASE:
        raise RecordError(f"{where}: actions are given but the reveals are not complete")
    for index, data in enumerate(actions):
        here = f"{where}, action {index}"
        steps = _steps(data, here)
        if len(steps) == 1 and steps[0].kind == "draw" and not (last and index == len(actions) - 1):
            raise RecordError(f"{here}: a draw must be placed with swap or flip")
        seat = game.current
        if seat is None:
            if game.phase == GAME_OVER:
                raise RecordError(f"{here}: the game is over, no action may follow")
            raise RecordError(f"{here}: the round is over, no action may follow")
        for step in steps:
            try:
                game.apply(seat, step)
            except EngineError as exc:
                raise RecordError(f"{here}: {exc}") from None


def _steps(data: object, here: str) -> list[Action]:
    if not isinstance(data, dict):
        raise RecordError(f"{here}: an action must be an object")
    take = data.get("take")
    keys = set(data)
    try:
        if take == "deck" and keys == {"take"}:
            return [draw()]
        if take == "deck" and keys == {"take", "swap"}:
            return [draw(), swap(_position(data["swap"]))]
        if take == "deck" and keys == {"take", "flip"}:
            return [draw(), flip(_position(data["flip"]))]
        if take == "discard" and keys == {"take", "swap"}:
            return [take_discard(_position(data["swap"]))]
        if take == "discard" and "flip" in keys:
            raise RecordError("the discard taken must be swapped, not discarded and flipped")
    except ValueError as exc:
        raise RecordError(f"{here}: {exc}") from None
    raise RecordError(f"{here}: unknown action {data!r}"[:200])


def _position(value: object) -> int:
    if type(value) is not int or not 0 <= value < GRID_SIZE:
        raise RecordError(f"position {value!r} is off the grid (0 to 11)")
    return value
