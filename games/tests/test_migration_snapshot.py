"""Migration 0004: games stored with a whole record become a snapshot and rows, exactly."""

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import engine

BEFORE = [("games", "0003_turn_clock")]
AFTER = [("games", "0004_game_snapshot")]


def played_with_a_reshuffle() -> tuple[engine.Game, list[tuple[int, int, dict]]]:
    """A 6-player game played in this process until the pile ran out once and round 2 began:
    the game and its steps as (round, seat, action)."""
    rng = random.Random(4)
    game = engine.Game([f"p{i}" for i in range(6)], engine.Rules(end_score=1000), seed=4)
    steps = []
    while len(game.results) < 1 or game.round < 2 or game.phase != "play":
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        step = rng.choice(legal)
        if game.phase != "reveal" and not game.log.reshuffles:
            face_up = [a for a in legal if a.kind == "swap" and game.up[seat][a.pos]]
            step = engine.draw() if game.drawn is None else rng.choice(face_up or legal)
        steps.append((game.round, seat, step.to_json()))
        game.apply(seat, step)
    assert game.logs[0].reshuffles
    return game, steps


def before_the_snapshot(graph) -> list[tuple[str, str | None]]:
    """Migration targets with games at 0003 and every other app at its last migration that
    does not need games 0004 (``(app, None)``: none of them; apps such as chat, moderation and
    analysis start after it)."""
    targets = list(BEFORE)
    for leaf in graph.leaf_nodes():
        if leaf[0] == "games":
            continue
        chain = [node for node in graph.forwards_plan(leaf) if node[0] == leaf[0]]
        earlier = [node for node in chain if AFTER[0] not in graph.forwards_plan(node)]
        targets.append(earlier[-1] if earlier else (leaf[0], None))
    return targets


@pytest.mark.django_db(transaction=True)
def test_a_stored_record_becomes_a_snapshot_and_rows():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    before = before_the_snapshot(executor.loader.graph)
    executor.migrate(before)
    old = executor.loader.project_state([node for node in before if node[1] is not None]).apps
    game, steps = played_with_a_reshuffle()
    record = engine.to_record(game)
    host = old.get_model("accounts", "User").objects.create(username="host")
    lobby = old.get_model("games", "Lobby").objects.create(name="old", host=host)
    row = old.get_model("games", "Game").objects.create(
        lobby=lobby, seed=1, record=record, phase=game.phase, version=len(steps) + 1
    )
    for number, rnd in enumerate(record["rounds"], start=1):
        old.get_model("games", "Round").objects.create(game=row, number=number, deck=rnd["deck"])
    Move = old.get_model("games", "Move")
    Move.objects.bulk_create(
        Move(game=row, version=v, round=number, seat=seat, action=action)
        for v, (number, seat, action) in enumerate(steps, start=1)
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.migrate(leaves)

    from games.models import Game
    from games.models import Move as NewMove
    from games.records import game_record

    migrated = Game.objects.get(pk=row.pk)
    assert migrated.snapshot == engine.to_snapshot(game)
    assert game_record(migrated) == record
    assert NewMove.objects.filter(game=migrated, reshuffle__isnull=False).count() == len(
        record["rounds"][0]["reshuffles"]
    ) + len(record["rounds"][1].get("reshuffles", []))
