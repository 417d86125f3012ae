"""docs/configuration.md names every environment variable the project reads, with its default.

The variables are found in the code itself (settings.py and every other module, the tests and
scripts/ included), so a new one fails here until the configuration doc has a row for it.
"""

import ast
import re

import pytest

from skyjo_site.tests.settings_helpers import ROOT, variables_read

CONFIGURATION = ROOT / "docs" / "configuration.md"
# Read by the code but no setting of anyone's: Python's own, and the benchmark's SQLite file,
# which benchmarks/relay.py sets for the server it starts itself.
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "SKYJO_BENCH_SQLITE"}
SKIPPED_FOLDERS = {".venv", "staticfiles", "node_modules", "test-artifacts", ".git"}
# scripts/: ${NAME:-default} (the default may be empty).
SHELL_READ = re.compile(r"\$\{([A-Z][A-Z0-9_]*):-([^}]*)\}")


def _python_files():
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts):
            yield path


def _read_in_code() -> dict[str, tuple[str, str | None]]:
    """Each variable the project reads: ``(where, default as documented or None)``."""
    found: dict[str, tuple[str, str | None]] = {}
    for path in _python_files():
        tests = "tests" in path.parts or path.name == "conftest.py"
        for name, default in variables_read(path).items():
            if tests and name.startswith("X_"):  # skyjo_site.env's own tests
                continue
            found.setdefault(name, (str(path.relative_to(ROOT)), _as_documented(default)))
    for path in sorted((ROOT / "scripts").iterdir()):
        if path.suffix in ("", ".sh"):
            for name, default in SHELL_READ.findall(path.read_text()):
                found.setdefault(name, (str(path.relative_to(ROOT)), default or None))
    return {name: where for name, where in found.items() if name not in NOT_SETTINGS}


def _as_documented(default: ast.expr | None) -> str | None:
    """A literal default as the doc writes it (``true``, ``0.8``, ``5/h``, ``empty``); ``None``
    for a default the code computes (``not DEBUG``), which the doc explains in words."""
    if not isinstance(default, ast.Constant) or default.value is None:
        return None
    value = default.value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == "":
        return "empty"
    return str(value)


def _rows(doc=CONFIGURATION) -> dict[str, str]:
    """Each variable of the doc's tables with its row's default cell."""
    rows = {}
    for line in doc.read_text().splitlines():
        if line.startswith("| `"):
            cells = line.split("|")
            for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[1]):
                rows[name] = cells[2]
    return rows


VARIABLES = _read_in_code()


def test_the_code_reads_the_variables_found_here():
    """The finder itself: names from settings.py, another module, a test and a script."""
    for name in ("DEBUG", "SKYJO_WS_HEARTBEAT", "SKYJO_CHROMIUM", "SKYJO_ADDR", "PYTHON"):
        assert name in VARIABLES
    assert VARIABLES["SKYJO_BOT_DELAY"] == ("skyjo_site/settings.py", "0.8")
    assert VARIABLES["SKYJO_RATELIMIT"] == ("skyjo_site/settings.py", "true")


@pytest.mark.parametrize("name", sorted(VARIABLES))
def test_every_variable_has_a_row_with_its_default(name):
    where, default = VARIABLES[name]
    rows = _rows()
    assert name in rows, f"{name} (read in {where}) has no row in docs/configuration.md"
    if default is not None:
        cell = rows[name]
        written = "empty" in cell if default == "empty" else f"`{default}`" in cell
        assert written, (
            f"{name}: docs/configuration.md's default {cell.strip()!r}, code {default!r}"
        )


def test_every_row_is_a_variable_the_code_reads():
    assert sorted(set(_rows()) - set(VARIABLES)) == []


def test_the_readmes_main_variables_have_the_codes_defaults():
    rows = _rows(ROOT / "README.md")
    assert "SKYJO_AUTOPLAY" in rows  # the table is found
    for name, cell in rows.items():
        assert name in VARIABLES, f"README.md names {name}, which nothing reads"
        default = VARIABLES[name][1]
        assert default is None or f"`{default}`" in cell, (name, cell, default)
