"""``python -m games.engine replay FILE`` and ``view --player N FILE`` (``-`` reads stdin): a bad
input exits 2, unwritable output 1, each with one line on standard error, never a traceback."""

import argparse
import json
import os
import sys
from pathlib import Path

from .errors import EngineError
from .record import from_record, replay_summary
from .view import view_of

USAGE_ERROR = 2
OUTPUT_ERROR = 1
BYTE_ORDER_MARK = "\ufeff"


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print a usage block and exit
        raise _UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games.engine", description="Replay and view Skyjo records.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="print the rounds, totals and winners")
    replay.add_argument("file", help="a game record (JSON), or - for standard input")
    view = commands.add_parser("view", help="print what one seat sees at the end of the record")
    view.add_argument("--player", required=True, help="a seat number, or 'spectator'")
    view.add_argument("file", help="a game record (JSON), or - for standard input")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        data = _load(args.file)
        game = from_record(data)
        if args.command == "replay":
            output = replay_summary(game)
        else:
            output = view_of(game, _seat(args.player, game.n)).to_json()
    except (_UsageError, EngineError, OSError, ValueError, RecursionError) as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return USAGE_ERROR
    return _write(json.dumps(output))


def _write(line: str) -> int:
    """Print ``line``, or say on standard error why it cannot be and return OUTPUT_ERROR."""
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except OSError as exc:
        print(f"error: cannot write the output: {exc.strerror}", file=sys.stderr)
        # Python flushes standard output again at exit, which would fail the same way.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OUTPUT_ERROR
    return 0


def _load(path: str) -> object:
    try:
        if path == "-":
            if sys.stdin is None:  # started with it closed
                raise _UsageError("standard input is closed")
            text = sys.stdin.read()
        else:
            text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _UsageError(f"no such file: {path}") from None
    except UnicodeDecodeError:
        raise _UsageError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise _UsageError(f"cannot read {path}: {exc.strerror}") from None
    text = text.removeprefix(BYTE_ORDER_MARK)  # as editors on Windows save JSON
    if not text.strip():
        raise _UsageError(f"{'standard input' if path == '-' else path} is empty")
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise _UsageError(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None


def _refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object, unless a key comes twice: ``json`` would keep the last value silently."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise _UsageError(f"duplicate key {json.dumps(twice)} in a JSON object")
    return data


def _seat(player: str, n: int) -> int | None:
    if player == "spectator":
        return None
    try:
        seat = int(player)
    except ValueError:
        raise _UsageError(
            f"--player must be a seat number or 'spectator', not {player!r}"
        ) from None
    if not 0 <= seat < n:
        raise _UsageError(f"--player {seat} is not a seat of this game (0 to {n - 1})")
    return seat


def _one_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return " ".join(text.split())
