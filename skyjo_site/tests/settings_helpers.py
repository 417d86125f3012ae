"""What the settings tests share: where settings.py is, the variables it reads, and runners."""

import ast
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "skyjo_site" / "settings.py"


def variables_read(path: Path) -> dict[str, ast.expr | None]:
    """The environment variables a module reads, each with its default as written (``None``
    when it has none): ``env_*("NAME", default)`` (skyjo_site.env), ``os.environ["NAME"]``,
    ``os.environ.get("NAME", default)``, ``os.getenv`` and ``"NAME" in os.environ``."""
    found: dict[str, ast.expr | None] = {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        name, default = None, None
        if isinstance(node, ast.Call) and node.args and _is_text(node.args[0]):
            function = ast.unparse(node.func)
            if function.startswith("env_") or function in ("os.environ.get", "os.getenv"):
                name = node.args[0].value
                default = node.args[1] if len(node.args) > 1 else None
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            if _is_text(node.slice) and isinstance(node.ctx, ast.Load):
                name = node.slice.value
        elif (
            isinstance(node, ast.Compare)
            and _is_text(node.left)
            and any(ast.unparse(c) == "os.environ" for c in node.comparators)
        ):
            name = node.left.value
        if name is not None:
            found.setdefault(name, default)
    return found


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


# Every variable settings.py reads: the settings tests clear them all before they set theirs.
VARIABLES = sorted(variables_read(SETTINGS))
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "skyjo.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://skyjo.example.org",
}


def _manage(*args, **variables):
    environment = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    environment.update(variables)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
