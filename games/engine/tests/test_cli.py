"""``python -m games.engine``: exact output shapes, and exit 2 with one line for bad input."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import draw, reveal, to_record

from .grids import A10, B24, C10
from .helpers import flip_to_round_end, new_game

ROOT = Path(__file__).resolve().parents[3]


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def record():
    game = new_game(3, grids={0: A10, 1: B24, 2: C10}, reveals=[(0, 1)] * 3)
    flip_to_round_end(game)
    return to_record(game)


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record()))
    return path


def assert_fails(result, words=""):
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert words in lines[0], lines[0]


class TestReplayCommand:
    def test_it_prints_the_rounds_totals_and_winners(self, record_file):
        result = run("replay", str(record_file))
        assert result.returncode == 0 and result.stderr == ""
        assert json.loads(result.stdout) == {
            "rounds": [{"starter": 0, "ender": 0, "raw": [10, 24, 10], "scores": [20, 24, 10]}],
            "totals": [20, 24, 10],
            "finished": False,
            "winners": [],
        }

    def test_it_reads_standard_input(self):
        result = run("replay", "-", stdin=json.dumps(record()))
        assert result.returncode == 0 and json.loads(result.stdout)["totals"] == [20, 24, 10]

    def test_it_reads_a_record_that_begins_with_a_byte_order_mark(self, tmp_path):
        """As editors on Windows save JSON; RFC 8259 lets a reader ignore the mark."""
        path = tmp_path / "bom.json"
        path.write_text(json.dumps(record()), encoding="utf-8-sig")
        for result in (run("replay", str(path)), run("replay", "-", stdin=path.read_text())):
            assert result.returncode == 0, result.stderr
            assert json.loads(result.stdout)["totals"] == [20, 24, 10]


class TestOutputErrors:
    """Output that cannot be written ends with status 1 and one line, never a traceback."""

    def assert_one_line(self, returncode, stderr, words):
        assert returncode == 1, stderr
        assert "Traceback" not in stderr
        lines = stderr.splitlines()
        assert len(lines) == 1 and words in lines[0], stderr

    def test_a_full_disk(self):
        with open("/dev/full", "w") as full:
            result = subprocess.run(
                [sys.executable, "-m", "games.engine", "replay", "-"],
                cwd=ROOT,
                input=json.dumps(record()),
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=60,
            )
        self.assert_one_line(result.returncode, result.stderr, "cannot write the output")

    def test_a_reader_that_went_away(self):
        proc = subprocess.Popen(
            [sys.executable, "-m", "games.engine", "replay", "-"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        proc.stdout.close()  # before the record is sent: the output has no reader
        _, stderr = proc.communicate(json.dumps(record()), timeout=60)
        self.assert_one_line(proc.returncode, stderr, "cannot write the output")


class TestViewCommand:
    def test_it_prints_a_players_view(self, record_file):
        result = run("view", "--player", "1", str(record_file))
        assert result.returncode == 0
        data = json.loads(result.stdout)
        assert list(data) == [
            "round",
            "phase",
            "current",
            "ender",
            "deck_count",
            "discard_top",
            "drawn",
            "players",
        ]
        assert data["phase"] == "round_over" and data["players"][1]["grid"] == B24

    def test_it_prints_a_spectator_view(self, record_file):
        result = run("view", "--player", "spectator", str(record_file))
        assert result.returncode == 0 and json.loads(result.stdout)["drawn"] is None

    def test_a_drawn_card_shows_in_the_drawers_view_alone(self):
        game = new_game(3, grids={0: A10, 1: B24, 2: C10}, draws=[7], reveals=[(0, 1)] * 3)
        game.apply(0, draw())
        text = json.dumps(to_record(game))
        views = {p: json.loads(run("view", "--player", p, "-", stdin=text).stdout) for p in "012"}
        views["spectator"] = json.loads(
            run("view", "--player", "spectator", "-", stdin=text).stdout
        )
        assert [v["drawn"] for v in views.values()] == [7, None, None, None]
        assert {(v["phase"], v["current"], v["deck_count"]) for v in views.values()} == {
            ("play", 0, 150 - 38)
        }

    def test_a_record_stopped_in_the_reveal_phase(self):
        game = new_game(3, grids={0: A10, 1: B24, 2: C10})
        game.apply(1, reveal(4))
        result = run("view", "--player", "1", "-", stdin=json.dumps(to_record(game)))
        data = json.loads(result.stdout)
        assert (data["phase"], data["current"], data["drawn"]) == ("reveal", None, None)
        assert data["players"][1]["grid"] == ["?"] * 4 + [B24[4]] + ["?"] * 7
        replay = json.loads(run("replay", "-", stdin=json.dumps(to_record(game))).stdout)
        assert replay == {"rounds": [], "totals": [0, 0, 0], "finished": False, "winners": []}


def moved(change):
    data = record()
    change(data)
    return json.dumps(data)


class TestBadInput:
    @pytest.mark.parametrize(
        "text,words",
        [
            ("{not json", "malformed JSON"),
            (json.dumps(record())[:-40], "malformed JSON"),
            (moved(lambda r: r.__setitem__("format", "skyjo-record/2")), "unsupported format"),
            ("", "empty"),
            ("   \n", "empty"),
            ("[1, 2]", "JSON object"),
            ('"record"', "JSON object"),
            ("null", "JSON object"),
            ("[" * 100000 + "]" * 100000, ""),
            ('{"players": ' + "[" * 5000 + "]" * 5000 + "}", "recursion"),
            ('{"players": ' + "[" * 50 + "]" * 50 + "}", "players"),
            ("1" * 5000, ""),
            (moved(lambda r: r["rounds"][0]["deck"].__setitem__(0, 13)), "round 1 (rounds[0])"),
            (moved(lambda r: r["rounds"][0]["deck"].pop()), "deck"),
            (
                moved(
                    lambda r: r["rounds"][0]["actions"].__setitem__(2, {"take": "deck", "flip": 0})
                ),
                "round 1 (rounds[0]), action 2: ",
            ),
            (
                moved(
                    lambda r: r["rounds"][0]["actions"].__setitem__(0, {"take": "deck", "swap": 99})
                ),
                "action 0",
            ),
            (
                moved(
                    lambda r: r["rounds"][0]["actions"].__setitem__(
                        0, {"take": "discard", "flip": 3}
                    )
                ),
                "must be swapped",
            ),
            (moved(lambda r: r["rounds"][0]["actions"].append({"take": "deck"})), "round is over"),
            # Two values for one key: which one the writer meant is anyone's guess.
            ('{"format": "skyjo-record/1", "format": "skyjo-record/1"}', 'duplicate key "format"'),
            (
                json.dumps(record())[:-1] + ', "players": ["a", "b"]}',
                'duplicate key "players"',
            ),
        ],
    )
    def test_it_fails_cleanly(self, text, words):
        assert_fails(
            run(
                "replay",
                "-",
                stdin=text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
            ),
            words,
        )

    def test_it_fails_on_acting_after_the_game_ended(self, tmp_path):
        data = record()
        data["rules"]["end_score"] = 20
        data["rounds"][0]["actions"].append({"take": "deck", "flip": 0})
        path = tmp_path / "over.json"
        path.write_text(json.dumps(data))
        assert_fails(run("replay", str(path)), "the game is over")

    def test_it_fails_on_a_closed_standard_input(self):
        closed = subprocess.run(
            [sys.executable, "-m", "games.engine", "replay", "-"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=lambda: os.close(0),  # started with no standard input at all
        )
        assert_fails(closed, "standard input is closed")

    def test_it_fails_on_a_missing_file(self, tmp_path):
        assert_fails(run("replay", str(tmp_path / "nope.json")), "no such file")

    def test_it_fails_on_a_directory(self, tmp_path):
        assert_fails(run("replay", str(tmp_path)), "cannot read")

    def test_it_fails_on_a_file_that_is_not_text(self, tmp_path):
        path = tmp_path / "bin.json"
        path.write_bytes(b"\xff\xfe\x00garbage")
        assert_fails(run("replay", str(path)), "UTF-8")

    @pytest.mark.parametrize("player", ["3", "-1", "x", "1.5", ""])
    def test_it_fails_on_an_unknown_player(self, record_file, player):
        assert_fails(run("view", "--player", player, str(record_file)), "--player")

    @pytest.mark.parametrize(
        "args",
        [(), ("replay",), ("view", "x.json"), ("play", "x.json"), ("replay", "a", "b")],
    )
    def test_it_fails_on_bad_arguments(self, args):
        assert_fails(run(*args))
