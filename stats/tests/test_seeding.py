"""``manage.py seed_games``: valid records, statistics rows that agree with them, ratings,
and the same games for the same seed."""

import io

import pytest
from django.core.management import call_command

from games import engine
from games.models import Game, GamePlayer, Lobby, Round
from games.records import game_record
from stats.models import GameResult, RatingChange, RoundResult

pytestmark = pytest.mark.django_db


def seeded(seed: int) -> list:
    call_command("seed_games", games=12, players=6, seed=seed, pool=4, stdout=io.StringIO())
    return [
        (
            g.snapshot["players"],
            list(Round.objects.filter(game=g).order_by("number").values_list("scores", flat=True)),
        )
        for g in Game.objects.order_by("pk")
    ]


def test_every_seeded_game_replays_to_its_stored_scores():
    seeded(3)
    assert Game.objects.filter(status="finished").count() == 12
    for game in Game.objects.all():
        state = engine.from_record(game_record(game))
        assert state.finished
        rounds = list(Round.objects.filter(game=game).order_by("number"))
        assert [list(r.scores) for r in state.results] == [r.scores for r in rounds]
        players = list(GamePlayer.objects.filter(game=game).order_by("seat"))
        assert [p.total for p in players] == state.totals
        assert [p.won for p in players] == [s in state.winners for s in range(state.n)]
        results = RoundResult.objects.filter(game=game, counted=True)
        assert sorted(results.values_list("number", "seat", "score")) == sorted(
            (n, seat, score)
            for n, r in enumerate(state.results, start=1)
            for seat, score in enumerate(r.scores)
        )
        assert GameResult.objects.filter(game=game).count() == state.n
        humans = [p for p in players if p.user_id]
        assert RatingChange.objects.filter(game=game).count() == (
            len(humans) if len(humans) > 1 else 0
        )


def test_the_same_seed_gives_the_same_games(django_user_model):
    first = seeded(5)
    for model in (Lobby, django_user_model):  # a lobby goes with its games
        model.objects.all().delete()
    assert seeded(5) == first
