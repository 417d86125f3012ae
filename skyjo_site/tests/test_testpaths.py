"""Every test file is collected by ``pytest`` with no arguments, as scripts/test runs it: its
top folder is in pyproject.toml's ``testpaths`` (chat's tests once sat outside them unseen)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", ".git", "node_modules", "benchmarks", "test-artifacts"}


def test_every_test_file_is_under_a_testpath():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    testpaths = set(config["tool"]["pytest"]["ini_options"]["testpaths"])
    tops = {
        path.relative_to(ROOT).parts[0]
        for path in ROOT.rglob("test_*.py")
        if path.relative_to(ROOT).parts[0] not in SKIP and len(path.relative_to(ROOT).parts) > 1
    }
    assert tops, "no test files found"
    assert tops <= testpaths, f"test folders outside testpaths: {sorted(tops - testpaths)}"
