"""Per-seat and spectator views: exactly what each may see."""

import doctest

import games.engine
from games.engine import HIDDEN, Rules, View, draw, reveal, view_of

from .grids import A10, B24, C10
from .helpers import flip_to_round_end, new_game, turn

VIEW_KEYS = ["round", "phase", "current", "ender", "deck_count", "discard_top", "drawn", "players"]


def three_players(**kw):
    return new_game(3, grids={0: A10, 1: B24, 2: C10}, discard=7, draws=[9, 8], **kw)


class TestViewShape:
    def test_the_json_view_has_exactly_the_documented_keys(self):
        game = three_players(reveals=[(0, 1)] * 3)
        data = view_of(game, 1).to_json()
        assert list(data) == VIEW_KEYS
        assert [list(p) for p in data["players"]] == [["name", "grid", "total"]] * 3
        assert data == {
            "round": 1,
            "phase": "play",
            "current": 0,
            "ender": None,
            "deck_count": 150 - 37,
            "discard_top": 7,
            "drawn": None,
            "players": [
                {"name": "p0", "grid": [5, 4] + ["?"] * 10, "total": 0},
                {"name": "p1", "grid": [2, 1] + ["?"] * 10, "total": 0},
                {"name": "p2", "grid": [0, 1] + ["?"] * 10, "total": 0},
            ],
        }

    def test_current_is_null_during_the_reveal_phase(self):
        game = three_players()
        game.apply(0, reveal(3))
        data = view_of(game, 0).to_json()
        assert data["phase"] == "reveal" and data["current"] is None
        assert data["players"][0]["grid"][3] == 0 and data["players"][0]["grid"].count("?") == 11

    def test_a_spectator_sees_no_drawn_card(self):
        game = three_players(reveals=[(0, 1)] * 3)
        game.apply(0, draw())
        assert view_of(game, 0).drawn == 9 and view_of(game, 0).to_json()["drawn"] == 9
        for seat in (None, 1, 2):
            view = view_of(game, seat)
            assert view.drawn is None and view.drawing and view.to_json()["drawn"] is None

    def test_a_face_down_value_is_hidden_from_its_owner_too(self):
        game = three_players(reveals=[(0, 1)] * 3)
        for seat in (None, 0, 1, 2):
            grid = view_of(game, seat).grids[0]
            assert grid[2:] == (HIDDEN,) * 10

    def test_every_player_and_a_spectator_see_the_same_table(self):
        game = three_players(reveals=[(0, 1)] * 3)
        turn(game, {"take": "deck", "flip": 5})
        views = [view_of(game, s).to_json() for s in (None, 0, 1, 2)]
        assert all(v == views[0] for v in views)

    def test_the_view_after_the_round_shows_every_card_and_the_totals(self):
        game = three_players(reveals=[(0, 1)] * 3, rules=Rules(end_score=500))
        flip_to_round_end(game)
        data = view_of(game).to_json()
        assert data["phase"] == "round_over" and data["current"] is None and data["ender"] == 0
        assert [p["grid"] for p in data["players"]] == [A10, B24, C10]
        assert [p["total"] for p in data["players"]] == [20, 24, 10]

    def test_the_view_never_holds_the_draw_pile(self):
        view = view_of(three_players(reveals=[(0, 1)] * 3), 0)
        assert not hasattr(view, "draw_pile") and view.deck_count == 113
        assert "draw_pile" not in View.__slots__


class TestViewLegalActions:
    def test_a_view_gives_the_same_legal_actions_as_the_game(self):
        game = three_players()
        game.apply(0, reveal(0))

        def check():
            for seat in range(3):
                assert view_of(game, seat).legal_actions() == game.legal_actions(seat)
            assert view_of(game).legal_actions() == []

        check()
        for seat in range(3):
            for pos in (0, 1):
                if not game.up[seat][pos]:
                    game.apply(seat, reveal(pos))
        check()
        game.apply(game.current, draw())
        check()


def test_the_package_docstring_example_runs():
    failures, tried = doctest.testmod(games.engine, verbose=False)
    assert tried > 0 and failures == 0
