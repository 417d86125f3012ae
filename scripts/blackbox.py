#!/usr/bin/env python3
"""Black-box check of the whole site, as players see it: only HTTP and the JSON game socket.
Starts ``scripts/run`` with a fresh database; three clients play a public
table with rematches, two more play bots. Fails on a ``server_error`` frame or a traceback."""

import argparse
import asyncio
import http.cookiejar
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks import servers  # noqa: E402
from benchmarks.relay_clients import percentile  # noqa: E402

PASSWORD = "black-box-horse-42"


class Browser:
    """One player's HTTP session: cookies, CSRF token, form posts (redirects followed)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def post(self, path: str, fields: dict) -> tuple[str, str]:
        """The URL the post ends on, after its redirects, and that page."""
        if not self.cookie("csrftoken"):
            self.opener.open(self.base + "/accounts/register/", timeout=60).close()
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        headers = {"Referer": self.base + path}
        request = urllib.request.Request(self.base + path, data=data.encode(), headers=headers)
        try:
            with self.opener.open(request, timeout=60) as r:
                return r.url, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.url, exc.read().decode(errors="replace")

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)


def _id_after(url: str, prefix: str) -> int:
    match = re.search(rf"{prefix}(\d+)/", url)
    if not match:
        raise RuntimeError(f"expected a redirect to {prefix}<id>/, got {url!r}")
    return int(match.group(1))


def register(base: str, name: str) -> Browser:
    browser = Browser(base)
    form = dict(username=name, email=f"{name}@example.org", password1=PASSWORD, password2=PASSWORD)
    url, body = browser.post("/accounts/register/", form)
    if url.endswith("/accounts/register/"):
        raise RuntimeError(f"registering {name} failed: {body[:300]}")
    return browser


@dataclass
class Stats:
    frames: int = 0
    sent: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    games_finished: int = 0
    latencies: list[float] = field(default_factory=list)
    versions: dict[int, int] = field(default_factory=dict)  # game id -> the last version seen
    stuck: bool = False


class Player:
    """Plays one seat over the JSON socket: random legal moves, ready, rematch."""

    def __init__(self, name: str, browser: Browser, stats: Stats, rng: random.Random) -> None:
        self.name, self.browser, self.stats, self.rng = name, browser, stats, rng

    async def play(self, game_id: int, games: int, stop: asyncio.Event) -> None:
        for number in range(games):
            game_id = await self._play_game(game_id, rematch=number + 1 < games, stop=stop)
            if game_id is None:
                return

    async def _play_game(self, game_id: int, *, rematch: bool, stop: asyncio.Event):
        base = self.browser.base
        url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}/?format=json"
        headers = {"Cookie": f"sessionid={self.browser.cookie('sessionid')}"}
        async with connect(url, origin=base, additional_headers=headers, max_size=2**22) as ws:
            acted_at = -1  # the version we last acted on (one action per version on our turn)
            revealed_round = ready_round = 0
            sent_at, over, asked = None, False, False
            pause = 0.2  # seconds before a resync after a "slow down" answer
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                frame = json.loads(raw)
                self.stats.frames += 1
                if "error" in frame:
                    self.stats.errors[frame["error"]["code"]] += 1
                    if frame["error"]["code"] == "server_error":
                        print(f"{self.name}: server_error: {frame}", file=sys.stderr)
                    # Resync from a fresh state, after a growing pause while asked to slow down.
                    acted_at, revealed_round, ready_round, asked = -1, 0, 0, False
                    if frame["error"]["code"] in ("rate_limited", "busy"):
                        await asyncio.sleep(pause * (0.5 + self.rng.random()))
                        pause = min(pause * 2, 2.0)
                    await self._send(ws, {"sync": True})
                    continue
                pause = 0.2
                if "rematch" in frame and isinstance(frame["rematch"], dict):
                    return frame["rematch"]["game"]
                if "version" not in frame or "players" not in frame:
                    continue
                if sent_at is not None:
                    self.stats.latencies.append(time.monotonic() - sent_at)
                    sent_at = None
                version, phase = frame["version"], frame["phase"]
                self.stats.versions[game_id] = max(version, self.stats.versions.get(game_id, 0))
                names = [p["name"] for p in frame["players"]]
                seat = names.index(self.name)
                grid = frame["players"][seat]["grid"]
                if phase == "game_over":
                    if not over:
                        over = True
                        self.stats.games_finished += 1
                    if not rematch:
                        return None
                    if not asked:
                        asked = True
                        await self._send(ws, {"rematch": True})
                    continue
                if phase == "round_over":
                    if ready_round != frame["round"]:
                        ready_round = frame["round"]
                        await self._send(ws, {"ready": True})
                    continue
                if phase == "reveal":
                    if revealed_round != frame["round"]:
                        revealed_round = frame["round"]
                        up = [p for p, c in enumerate(grid) if c not in ("?", None)]
                        down = [p for p, c in enumerate(grid) if c == "?"]
                        for pos in self.rng.sample(down, 2 - len(up)):
                            await self._send(ws, {"reveal": pos, "version": version})
                    continue
                if frame["current"] != seat or acted_at >= version:
                    continue
                acted_at = version
                sent_at = time.monotonic()
                await self._send(ws, {**self._choose(frame, grid), "version": version})
        return None

    def _choose(self, frame: dict, grid: list) -> dict:
        in_grid = [p for p, c in enumerate(grid) if c is not None]
        down = [p for p, c in enumerate(grid) if c == "?"]
        if frame["drawn"] is None:
            if frame["discard_top"] is not None and self.rng.random() < 0.3:
                return {"take": "discard", "swap": self.rng.choice(in_grid)}
            return {"take": "deck"}
        if down and self.rng.random() < 0.5:
            return {"flip": self.rng.choice(down)}
        return {"swap": self.rng.choice(in_grid)}

    async def _send(self, ws, message: dict) -> None:
        kind = next(iter(message))
        self.stats.sent[kind] += 1
        await ws.send(json.dumps(message))


def start_server(log_path: Path, bot_delay: float) -> tuple[subprocess.Popen, str, Path]:
    """``scripts/run`` on a free port with a fresh ``db.sqlite3``: it serves the tree it is in,
    so it runs from a temporary copy of this tree (sharing its .venv)."""
    port = servers.free_port()
    workdir = Path(tempfile.mkdtemp(prefix="skyjo-blackbox-"))
    tree = workdir / "site"
    skip = (".venv", ".git", "*.sqlite3*", "staticfiles", "test-artifacts", "__pycache__")
    shutil.copytree(ROOT, tree, symlinks=True, ignore=shutil.ignore_patterns(*skip))
    os.symlink(ROOT / ".venv", tree / ".venv")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SKYJO_ADDR=f"127.0.0.1:{port}", SKYJO_BOT_DELAY=str(bot_delay))
    command = [str(tree / "scripts" / "run")]
    process = servers.start(command, log_path, port, 180, cwd=tree, env=env, start_new_session=True)
    return process, f"http://127.0.0.1:{port}", workdir


def stop_server(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


async def run(base: str, args: argparse.Namespace) -> tuple[Stats, Stats, float]:
    rng = random.Random(args.seed)
    tag = secrets.token_hex(3)
    names = [f"bb{tag}{i}" for i in range(5)]
    browsers = [await asyncio.to_thread(register, base, name) for name in names]
    host, *guests = browsers[:3]
    lobby = {"name": "Black box", "seat_count": 3, "is_public": "on", "end_score": args.end_score}
    rules = {"double_on_tie": "on", "final_reveal_clears_columns": "on"}
    location, _ = host.post("/lobbies/", lobby | rules)
    lobby_id = _id_after(location, "/lobbies/")
    for guest in guests:
        guest.post(f"/lobbies/{lobby_id}/join/", {})
    game_id = _id_after(host.post(f"/lobbies/{lobby_id}/start/", {})[0], "/games/")
    against_bots = {"bots": 3, "level": "medium", "end_score": args.end_score}
    bot_games = [_id_after(b.post("/play/bots/", against_bots)[0], "/games/") for b in browsers[3:]]

    table, beside = Stats(), Stats()
    stop = asyncio.Event()
    players = [Player(names[i], browsers[i], table, random.Random(rng.random())) for i in range(3)]
    bots = [Player(names[3 + i], browsers[3 + i], beside, random.Random(i)) for i in range(2)]
    start = time.monotonic()
    beside_tasks = [
        asyncio.create_task(p.play(g, 100, stop)) for p, g in zip(bots, bot_games, strict=True)
    ]
    table_tasks = [asyncio.create_task(p.play(game_id, args.games, stop)) for p in players]
    _, pending = await asyncio.wait(table_tasks, timeout=args.timeout)
    elapsed = time.monotonic() - start
    if pending:
        print(f"TIMEOUT: the table's games did not finish in {args.timeout} s", file=sys.stderr)
        table.stuck = True
    stop.set()
    outcomes = await asyncio.gather(*table_tasks, *beside_tasks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            print(f"a client failed: {outcome!r}", file=sys.stderr)
            table.stuck = True
    return table, beside, elapsed


def _report(label: str, stats: Stats) -> None:
    moves = sum(n for k, n in stats.sent.items() if k not in ("sync", "rematch", "ready"))
    median, p95 = (percentile(stats.latencies or [0], p) * 1000 for p in (50, 95))
    print(
        f"{label}: {moves} moves sent ({dict(stats.sent)}), {stats.frames} frames, "
        f"{stats.games_finished} games seen to the end (per player), "
        f"errors {dict(stats.errors) or 0}; turn answer median {median:.0f} ms, p95 {p95:.0f} ms; "
        f"{sum(stats.versions.values())} changes in {len(stats.versions)} games"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games the three clients play")
    parser.add_argument("--end-score", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=900, help="seconds for the table's games")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the server's SKYJO_BOT_DELAY")
    args = parser.parse_args()

    log_path = Path(tempfile.gettempdir()) / f"skyjo-blackbox-{os.getpid()}.log"
    process, base, workdir = start_server(log_path, args.bot_delay)
    print(f"scripts/run on {base}, log {log_path}")
    try:
        table, beside, elapsed = asyncio.run(run(base, args))
    finally:
        time.sleep(2)  # let the server finish the clients' disconnects
        played_bytes = log_path.stat().st_size  # the log of the play, apart from the shutdown
        stop_server(process)
        shutil.rmtree(workdir, ignore_errors=True)
    _report("3 players at one table", table)
    _report("2 players against bots", beside)
    print(
        f"the table's {args.games} games took {elapsed:.0f} s"
        + (" and did not finish (stuck or a client failed)" if table.stuck else "")
    )
    server_errors = table.errors["server_error"] + beside.errors["server_error"]
    raw = log_path.read_bytes()
    tracebacks = raw[:played_bytes].count(b"Traceback (most recent call last)")
    locked = raw[:played_bytes].count(b"database is locked")
    print(f"server log during play: {tracebacks} tracebacks, {locked} 'database is locked'")
    shutdown = raw[played_bytes:].count(b"Traceback (most recent call last)")
    print(f"server log at shutdown (SIGINT): {shutdown} tracebacks")
    print(f"server_error frames: {server_errors}")
    return 1 if server_errors or tracebacks or locked or table.stuck else 0


if __name__ == "__main__":
    sys.exit(main())
