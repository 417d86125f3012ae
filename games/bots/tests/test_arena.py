import subprocess
import sys

from games.bots.arena import main


def test_it_prints_one_table_per_opponent(capsys):
    assert main(["--candidate", "medium", "--against", "greedy,ultra", "--games", "8"]) == 0
    out = capsys.readouterr().out
    assert out.count("## medium vs ") == 2
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    assert len(rows) == 2 * 3
    assert any(line.startswith("| medium ") for line in rows)
    assert "[" in rows[1] and "%" in rows[1]


def test_it_runs_as_a_module_with_two_players_and_two_jobs():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.bots.arena",
            "--candidate",
            "easy",
            "--against",
            "medium",
            "--games",
            "20",
            "--players",
            "2",
            "--jobs",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "## easy vs medium" in result.stdout
    assert "medium (x1)" in result.stdout


def test_it_rejects_an_unknown_opponent(capsys):
    try:
        main(["--against", "nobody"])
    except SystemExit as exit_:
        assert exit_.code == 2
    else:
        raise AssertionError("expected a usage error")
