"""The statistics rows written as rounds are scored and games rated, and the backfill that
rebuilds them for games finished before they existed."""

import importlib
import random

import pytest
from django.apps import apps

from games import engine, services
from games import services as moderation
from games.models import Lobby
from games.tests.helpers import play_one, play_to_end, restore, start_game
from stats import recording
from stats.models import GameResult, RatingChange, RoundResult

pytestmark = pytest.mark.django_db

ROUND_FIELDS = [
    "game_id",
    "number",
    "seat",
    "user_id",
    "is_bot",
    "player_count",
    "with_bots",
    "is_public",
    "counted",
    "score",
    "raw",
    "ended",
    "doubled",
    "columns_removed",
]
GAME_FIELDS = [
    "game_id",
    "seat",
    "user_id",
    "is_bot",
    "player_count",
    "with_bots",
    "is_public",
    "total",
    "won",
    "place",
    "rounds",
]
RATING_FIELDS = ["user_id", "game_id", "mu_before", "sigma_before", "mu_after", "sigma_after"]


def rows(model, fields):
    return sorted(model.objects.values_list(*fields))


def test_each_scored_round_has_a_row_per_seat_that_counts_once_the_game_ends(alice, bob):
    game = start_game(alice, bob, end_score=40)
    play_to_end(game, [alice, bob], seed=3)
    state = restore(game)
    assert state.finished
    found = rows(RoundResult, ["number", "seat", "score", "raw", "ended", "doubled", "counted"])
    expected = sorted(
        (
            number,
            seat,
            r.scores[seat],
            r.raw[seat],
            r.ender == seat,
            r.ender == seat and r.doubled,
            True,
        )
        for number, r in enumerate(state.results, start=1)
        for seat in (0, 1)
    )
    assert found == expected
    results = {r.seat: r for r in GameResult.objects.all()}
    assert [results[s].total for s in (0, 1)] == state.totals
    assert [results[s].won for s in (0, 1)] == [s in state.winners for s in (0, 1)]
    assert [results[s].place for s in (0, 1)] == [
        1 + sum(t < state.totals[s] for t in state.totals) for s in (0, 1)
    ]
    assert {r.rounds for r in results.values()} == {len(state.results)}


def test_a_rated_game_keeps_each_players_rating_before_and_after(alice, bob):
    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob], seed=4)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    alice.refresh_from_db()
    assert set(changes) == {alice.pk, bob.pk}
    assert (changes[alice.pk].mu_before, changes[alice.pk].rating_before) == (25.0, 1000)
    assert changes[alice.pk].mu_after == alice.rating_mu
    assert changes[alice.pk].rating_after == alice.rating


def play_by_seats(game, seed: int) -> None:
    """Play every seat (bots too) through the services, as the bot runner does."""
    rng = random.Random(seed)
    for _ in range(5000):
        state = restore(game)
        if state.finished:
            return
        if state.phase == engine.ROUND_OVER:
            for seat in range(state.n):
                services.game_set_ready(game_id=game.pk, seat=seat)
            continue
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat)).to_json()
        services.game_apply_action(game_id=game.pk, seat=seat, action=action, version=game.version)
    raise AssertionError("the game did not end")


def test_a_game_against_bots_is_counted_apart_and_not_rated(alice):
    game = services.bot_game_create(user=alice, bots=2, level="easy", end_score=20)
    play_by_seats(game, seed=2)
    mine = GameResult.objects.get(user=alice)
    assert (mine.with_bots, mine.is_bot, mine.player_count, mine.is_public) == (
        True,
        False,
        3,
        False,
    )
    assert GameResult.objects.filter(is_bot=True, user=None).count() == 2
    assert not RoundResult.objects.filter(with_bots=False).exists()
    assert RatingChange.objects.count() == 0


def test_a_stopped_game_never_counts(alice, bob):
    game = start_game(alice, bob, end_score=1000)
    rng = random.Random(1)
    while not RoundResult.objects.exists():
        play_one(game, [alice, bob], rng)
    moderation.game_stop(game_id=game.pk)
    assert not RoundResult.objects.filter(counted=True).exists()
    assert not GameResult.objects.exists()


def test_the_backfill_rebuilds_the_same_rows(alice, bob, charlie):
    for seed, players in ((6, [alice, bob]), (7, [bob, charlie, alice])):
        game = start_game(*players, end_score=60)
        Lobby.objects.filter(pk=game.lobby_id).update(is_public=seed == 6)
        play_to_end(game, players, seed=seed)
    stopped = start_game(alice, charlie)
    moderation.game_stop(game_id=stopped.pk)
    before = (
        rows(RoundResult, ROUND_FIELDS),
        rows(GameResult, GAME_FIELDS),
        rows(RatingChange, RATING_FIELDS),
    )
    assert before[0] and before[1] and len(before[2]) == 5
    for model in (RoundResult, GameResult, RatingChange):
        model.objects.all().delete()

    importlib.import_module("stats.migrations.0002_backfill").backfill(apps, None)

    after = (
        rows(RoundResult, ROUND_FIELDS),
        rows(GameResult, GAME_FIELDS),
        rows(RatingChange, RATING_FIELDS),
    )
    assert after == before


def test_columns_removed_counts_the_emptied_columns_of_a_grid():
    grid = [None, 5, None, 1, None, 6, None, 2, None, 7, None, 3]
    assert recording.columns_removed(grid) == 2
    assert recording.columns_removed(list(range(12))) == 0


def test_each_round_row_keeps_the_cards_turned_at_its_end_and_the_backfill_finds_them(
    alice, bob, charlie
):
    """The live game's rows get ``turned_at_end`` from the engine at the moment of scoring;
    the migration that fills older rows, replaying the record, finds the same values."""
    game = start_game(alice, bob, charlie, end_score=60)
    play_to_end(game, [alice, bob, charlie], seed=11)
    live = rows(RoundResult, ["number", "seat", "turned_at_end"])
    assert live and all(t is not None and 0 <= t <= 10 for _n, _s, t in live)
    assert any(t > 0 for _n, _s, t in live)  # someone was caught with cards face down
    assert sum(t == 0 for _n, _s, t in live) >= len(live) // 3  # every ender turned all theirs
    RoundResult.objects.update(turned_at_end=None)

    importlib.import_module("stats.migrations.0005_round_turned_at_end").backfill(apps, None)

    assert rows(RoundResult, ["number", "seat", "turned_at_end"]) == live
