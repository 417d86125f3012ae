"""The game record (skyjo-record/1) of a stored game, assembled from its rows.

Nothing on the path of a move writes or reads the record: each row is written once when its
part happens (games.models). This puts them back together, in the engine's own shape
(``engine.to_record`` of the same game played in one process gives the same dict).
"""

from core.caches import BoundedCache
from games import engine
from games.models import Game, Move, Round

# (game, status) -> the record of a game that is over. A long game's record is about a megabyte
# of objects: a few dozen in a process.
_finished = BoundedCache(32)


def finished_record(game: Game) -> dict:
    """The record of a game that is over, assembled once per process (it never changes):
    replays and downloads ask for it at every step. Shared: never to be changed."""
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
        number: {"deck": deck, "reveals": [[] for _ in range(n)], "reshuffles": [], "actions": []}
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
        "rounds": [_round_json(rounds[number]) for number in sorted(rounds)],
    }


def _add_step(rnd: dict, seat: int, action: dict) -> None:
    """One Move row's step into its round: a reveal, a draw or a take starts an entry, a swap
    or flip after a draw completes it (the record's turn objects)."""
    if "reveal" in action:
        rnd["reveals"][seat].append(action["reveal"])
    elif "take" in action:
        rnd["actions"].append(dict(action))
    else:
        rnd["actions"][-1].update(action)


def _round_json(rnd: dict) -> dict:
    data = {"deck": rnd["deck"], "reveals": rnd["reveals"], "actions": rnd["actions"]}
    if rnd["reshuffles"]:
        data["reshuffles"] = rnd["reshuffles"]
    return data
