"""Puzzles from real games played through the services: found from the analysis, confirmed
by a larger rollout sample, stored once, from the player's view only."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import engine
from games.engine.record import _walk
from games.records import game_record
from puzzles import generation
from puzzles.models import ExaminedGame, Puzzle
from puzzles.services import puzzles_make
from puzzles.tests.factories import played_game

pytestmark = pytest.mark.django_db

SAMPLES = 48


@pytest.fixture
def games(alice, bob, monkeypatch):
    """A finished, analysed public game of random legal moves."""
    return [played_game(monkeypatch, alice, bob, seed=1)]


def test_puzzles_are_confirmed_positions_of_the_games(games):
    made = puzzles_make(samples=SAMPLES)
    puzzles = list(Puzzle.objects.order_by("pk"))
    assert made == len(puzzles) > 0
    assert {p.game_id for p in puzzles} <= {g.pk for g in games}
    for p in puzzles:
        points = [o["points"] for o in p.options]
        assert points == sorted(points) and p.answer == p.options[0]["code"] != p.played
        assert p.analysis_lost >= generation.MIN_LOST
        assert p.confirmed_lost >= generation.MIN_LOST and p.confirmed_gap >= generation.MIN_GAP
        assert p.option(p.played)["points"] - points[0] == pytest.approx(p.confirmed_lost, abs=0.02)
        assert points[1] - points[0] == pytest.approx(p.confirmed_gap, abs=0.02)
        assert p.samples == SAMPLES and p.samples > 48 - 1
        assert all("name" not in player for player in p.view["players"])
    # the stored view is the deciding seat's view at that step, and the move is the one made
    puzzle = puzzles[0]
    steps = {s: (seat, a, v) for s, seat, a, v in engine.iter_steps(game_record(puzzle.game))}
    seat, action, view = steps[puzzle.step]
    assert seat == puzzle.seat and generation.code_of(action) == puzzle.played
    assert puzzle.view == generation.view_data(view)


def test_the_command_is_idempotent_and_skips_private_games(games, bob, charlie, monkeypatch):
    private = played_game(monkeypatch, bob, charlie, seed=3, end_score=10)
    private.lobby.is_public = False
    private.lobby.save(update_fields=["is_public"])
    call_command("make_puzzles", samples=SAMPLES)
    first = Puzzle.objects.count()
    assert first > 0
    assert list(ExaminedGame.objects.values_list("game_id", flat=True)) == [games[0].pk]
    assert puzzles_make(samples=SAMPLES) == 0
    ExaminedGame.objects.all().delete()  # examined again: the positions are not stored twice
    assert puzzles_make(samples=SAMPLES) == 0
    assert Puzzle.objects.count() == first


def _true_game_before(record: dict, step: int) -> engine.Game:
    for index, (game, _seat, _action, _seen) in enumerate(
        _walk(record, None, before=lambda g, s, a: None)
    ):
        if index == step - 1:
            return game
    raise AssertionError(step)


def test_the_page_never_shows_a_hidden_card(games, client, charlie):
    puzzles_make(samples=SAMPLES)
    client.force_login(charlie)
    for puzzle in Puzzle.objects.all():
        page = client.get(reverse("puzzles:puzzle", args=[puzzle.pk])).content.decode()
        html = page[page.index('id="puzzle"') :]  # the site's header draws cards of its own
        game = _true_game_before(game_record(puzzle.game), puzzle.step)
        assert game.current == puzzle.seat

        def shown(seat, game=game):
            return [
                "?" if not up else str(value)
                for value, up in zip(game.cards[seat], game.up[seat], strict=True)
                if value is not None
            ]

        expected = [v for s in range(game.n) if s != puzzle.seat for v in shown(s)]
        expected.append(str(game.discard[-1]))
        if game.drawn is not None:
            expected.append(str(game.drawn))
        expected += shown(puzzle.seat)
        assert re.findall(r'data-v="([^"]*)"', html) == expected
        assert html.count("card-back") == expected.count("?") + 1  # the draw pile's back
