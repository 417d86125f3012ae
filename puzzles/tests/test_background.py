"""The bot runner's hook makes the puzzles of analysed public games, one game at a time, in
the analysis worker's process or in its own thread, each game once."""

import logging
import time

import pytest

from games.records import game_record
from puzzles import background, generation
from puzzles.models import ExaminedGame, Puzzle
from puzzles.tests.factories import played_game
from web import runner

pytestmark = pytest.mark.django_db

SAMPLES = 48


@pytest.fixture
def game(alice, bob, monkeypatch, settings):
    """A finished, analysed public game; the hook on, with the tests' sample."""
    settings.SKYJO_PUZZLES_BACKGROUND = True
    monkeypatch.setattr(background, "SAMPLES", SAMPLES)
    monkeypatch.setattr(runner, "close_old_connections", lambda: None)
    background.forget()
    yield played_game(monkeypatch, alice, bob, seed=1)
    background.forget()


def _expected(game) -> set[int]:
    analysis = game.analysis.data
    found = generation.candidates(game_record(game), analysis, samples=SAMPLES)
    return {c.step for c in found}


def test_the_runner_makes_a_games_puzzles_once(game):
    expected = _expected(game)
    assert expected  # the game has puzzles to find
    runner._tick()
    assert set(Puzzle.objects.values_list("step", flat=True)) == expected
    assert ExaminedGame.objects.get(game=game).puzzles == len(expected)
    runner._tick()  # nothing left to examine
    assert Puzzle.objects.count() == len(expected)


def test_the_worker_process_finds_what_the_runners_thread_would(game, settings):
    settings.SKYJO_ANALYSIS_WORKER = True
    expected = _expected(game)
    background.puzzles_tick()  # hands the game to the worker
    assert not ExaminedGame.objects.exists()
    deadline = time.monotonic() + 120
    while not ExaminedGame.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
        background.puzzles_tick()
    assert set(Puzzle.objects.values_list("step", flat=True)) == expected


def test_a_game_whose_examination_fails_is_examined_with_none(game, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("broken")

    monkeypatch.setattr(generation, "candidates", broken)
    with caplog.at_level(logging.ERROR, logger="puzzles.background"):
        background.puzzles_tick()
    assert ExaminedGame.objects.get(game=game).puzzles == 0
    assert not Puzzle.objects.exists()
    assert f"puzzles: game {game.pk} failed" in caplog.text


def test_switched_off_the_runner_makes_none(game, settings):
    settings.SKYJO_PUZZLES_BACKGROUND = False
    background.puzzles_tick()
    assert not ExaminedGame.objects.exists() and not Puzzle.objects.exists()
