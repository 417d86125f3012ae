"""The game record (skyjo-record/1) of a stored game, assembled from its rows when asked (never
on a move), the same dict as ``engine.to_record`` of the game."""

from core.caches import BoundedCache
from games import engine
from games.models import Game, Move, Round

# (game, status) -> the record of a game that is over (a long one is about a megabyte).
_finished = BoundedCache(32)


def finished_record(game: Game) -> dict:
    """The record of a game that is over, assembled once per process; shared: never change it."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise ValueError(f"game {game.pk} is not over: its record still grows")
    key = (game.pk, game.status)
    record = _finished.get(key)
    if record is None:
        record = game_record(game)
        _finished.put(key, record)
    return record


def game_record(game: Game) -> dict:
    """``game``'s record as it stands (a round in progress included): two queries."""
    snapshot = game.snapshot
    n = len(snapshot["players"])
    rounds = {
        number: {"deck": deck, "reveals": [[] for _ in range(n)], "actions": [], "reshuffles": []}
        for number, deck in Round.objects.filter(game=game)
        .order_by("number")
        .values_list("number", "deck")
    }
    moves = (
        Move.objects.filter(game=game)
        .order_by("version")
        .values_list("round", "seat", "action", "reshuffle")
    )
    for number, seat, action, reshuffle in moves:
        _add_step(rounds[number], seat, action)
        if reshuffle is not None:
            rounds[number]["reshuffles"].append(reshuffle)
    return {
        "format": engine.FORMAT,
        "players": list(snapshot["players"]),
        "rules": dict(snapshot["rules"]),
        "rounds": [  # no "reshuffles" in a round without any
            {key: value for key, value in rounds[number].items() if value or key != "reshuffles"}
            for number in sorted(rounds)
        ],
    }


def _add_step(rnd: dict, seat: int, action: dict) -> None:
    """One Move row's step into its round: a take starts a turn entry, a swap or flip ends it."""
    if "reveal" in action:
        rnd["reveals"][seat].append(action["reveal"])
    elif "take" in action:
        rnd["actions"].append(dict(action))
    else:
        rnd["actions"][-1].update(action)


def stand_in_steps(game: Game) -> list[int]:
    """The turn steps of ``game`` (every step but the reveals, numbered from 0 in the game's
    order) that the server played for a human seat (``Move.stand_in``). One query when it
    never did, two when it did."""
    if not Move.objects.filter(game=game, stand_in=True).exists():
        return []
    steps = Move.objects.filter(game=game).order_by("version").values_list("action", "stand_in")
    turn_steps = (stand_in for action, stand_in in steps if "reveal" not in action)
    return [number for number, stand_in in enumerate(turn_steps) if stand_in]
