"""docs/engine.md and the engine's docstrings tell the truth: their examples run as written,
and the package stands without Django, as the page says."""

import doctest
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import games.engine

ROOT = Path(__file__).resolve().parents[3]
ENGINE_DOC = ROOT / "docs" / "engine.md"


def api_example() -> list[str]:
    """The lines of the code block under "The API in ten lines"."""
    text = ENGINE_DOC.read_text(encoding="utf-8")
    section = text.split("## The API in ten lines", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    return block.group(1).splitlines()


def test_the_api_example_of_the_engine_page_runs_as_written():
    names: dict = {}
    lines = api_example()
    assert len(lines) >= 10
    for line in lines:
        raises = re.search(r"# raises (\w+)", line)
        if raises:
            expected = getattr(games.engine, raises.group(1))
            with pytest.raises(expected):
                exec(line, names)
        else:
            exec(line, names)
    assert names["same"].players == names["game"].players
    assert names["now"].cards == names["game"].cards


@pytest.mark.parametrize(
    "module",
    sorted(
        info.name
        for info in pkgutil.iter_modules(games.engine.__path__, "games.engine.")
        if info.name not in ("games.engine.__main__", "games.engine.tests")
    ),
)
def test_the_examples_in_every_engine_docstring_run(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


def test_nothing_in_the_engine_or_its_tests_imports_django():
    modules = [
        info.name
        for info in pkgutil.walk_packages(games.engine.__path__, "games.engine.")
        if info.name != "games.engine.__main__"
    ]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "games.engine.tests.test_cli" in modules
    assert result.stdout.strip() == "[]"
