"""Relay benchmark: moves of many 4-player games fanned out by a real Daphne to JSON sockets.

Run (embedded default: SQLite file in a temp dir, in-memory channel layer, one process):

    .venv/bin/python benchmarks/relay.py --games 25 --interval-ms 500 --seconds 20

On Redis (channels_redis core or RedisPubSubChannelLayer), PostgreSQL, two processes:

    .venv/bin/python benchmarks/relay.py --redis redis://127.0.0.1:6379/9 --layer pubsub \
        --postgres postgres://postgres@127.0.0.1:5432/postgres --processes 2 --games 50

What it does: migrates a fresh database (a temp SQLite file, or a temp PostgreSQL database
made on the ``--postgres`` server and dropped afterwards), creates 4 users per game and starts
each game through games.services, measures the queries of ``game_apply_action`` in this process
(CaptureQueriesContext), then starts ``--processes`` Daphne servers on 127.0.0.1 and connects 4
JSON sockets per game (seats spread over the processes). Each game then makes one random legal
move every ``--interval-ms``: the acting seat's client picks it from its own JSON view with
``games.engine.legal_actions``, and the next move waits until all 4 sockets hold the new
version. Printed: moves applied per second, fan-out latency (send to the 4th socket having the
version), version gaps, sockets that never got a version (then resynced with ``{"sync": true}``),
error frames, and server CPU per move (from /proc of the Daphne processes).

Everything stops by itself: the play phase after ``--seconds``, the whole run after a hard
deadline. Use a Redis database of its own (e.g. ``/9``): game ids restart at 1 on every run.
"""

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 4
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--interval-ms", type=int, default=500, help="per game, between moves")
    parser.add_argument("--seconds", type=float, default=20, help="length of the play phase")
    parser.add_argument("--max-moves", type=int, default=0, help="stop each game after N moves")
    parser.add_argument("--redis", metavar="URL", help="channels_redis on this Redis")
    parser.add_argument("--layer", choices=("core", "pubsub"), default="core")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server to make a DB on")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=5, help="seconds to wait for fan-out")
    parser.add_argument("--query-moves", type=int, default=300, help="moves for the query count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.processes > 1 and not args.redis:
        parser.error("--processes > 1 needs --redis: the in-memory layer is one process only")
    return args


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ------------------------------------------------------------------------------- setup


def make_postgres_db(url: str) -> tuple[str, str]:
    """A fresh database on the server of ``url``; returns (its URL, its name)."""
    import psycopg

    name = f"skyjo_relay_{os.getpid()}"
    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), name


def drop_postgres_db(url: str, name: str) -> None:
    import psycopg

    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def environment(args, workdir: Path, database_url: str | None) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "SKYJO_CHANNEL_LAYER")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="benchmarks.relay_settings",
        SKYJO_BENCH_SQLITE=str(workdir / "relay.sqlite3"),
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    if args.redis:
        env["REDIS_URL"] = args.redis
        env["SKYJO_CHANNEL_LAYER"] = args.layer
    return env


def create_games(count: int, seed: int) -> list[tuple[int, list[str]]]:
    """``count`` started 4-player games; returns (game id, session cookies by seat)."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore

    from games import services

    user_model = get_user_model()
    unusable = make_password(None)
    users = user_model.objects.bulk_create(
        user_model(username=f"relay{seed}_{i}", password=unusable) for i in range(count * PLAYERS)
    )
    cookies = {}
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        cookies[user.pk] = f"sessionid={session.session_key}"
    games = []
    for g in range(count):
        seated = users[g * PLAYERS : (g + 1) * PLAYERS]
        lobby = services.lobby_create(host=seated[0], name=f"Relay {g}", seat_count=PLAYERS)
        for user in seated[1:]:
            services.lobby_join(lobby_id=lobby.pk, user=user)
        game = services.lobby_start(lobby_id=lobby.pk, user=seated[0])
        games.append((game.pk, [cookies[u.pk] for u in seated]))
    return games


def measure_queries(moves: int, seed: int) -> dict:
    """Queries and wall time of ``game_apply_action`` on one game played at random here."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import engine, services
    from games.models import Game

    game_id, _ = create_games(1, seed=seed + 1000)[0]
    users = [p.user for p in Game.objects.get(pk=game_id).players.select_related("user")]
    rng = random.Random(seed)
    counts: dict[str, list[int]] = {}
    walls = []
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        if game.is_over:
            break
        state = engine.from_record(game.record)
        if state.phase == engine.ROUND_OVER:
            for user in users:
                services.game_set_ready(game_id=game_id, user=user)
            continue
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat)).to_json()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            services.game_apply_action(
                game_id=game_id, user=users[seat], action=action, version=game.version
            )
            walls.append(time.perf_counter() - started)
        kind = next(iter(action)) if len(action) == 1 else "take discard"
        counts.setdefault(kind, []).append(len(captured))
    every = [n for ns in counts.values() for n in ns]
    return {
        "moves": len(every),
        "min": min(every),
        "max": max(every),
        "mean": statistics.fmean(every),
        "by_kind": {k: (min(v), max(v)) for k, v in sorted(counts.items())},
        "wall_ms_p50": statistics.median(walls) * 1000,
        "wall_ms_max": max(walls) * 1000,
    }


def start_daphne(env: dict, workdir: Path, index: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    log = open(workdir / f"daphne-{index}.log", "w")  # noqa: SIM115 (closed with the process)
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["skyjo_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise SystemExit(f"Daphne stopped at start: see {workdir}/daphne-{index}.log")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit("Daphne did not listen within 60 s") from None
            time.sleep(0.1)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


# ------------------------------------------------------------------------------- clients


class Sock:
    """One player's JSON game socket: records when each version arrived."""

    def __init__(self, table, seat: int, port: int, cookie: str):
        self.table, self.seat, self.port, self.cookie = table, seat, port, cookie
        self.ws = None
        self.state = None
        self.version = -1
        self.reached: dict[int, float] = {}
        self.gaps = 0
        self.errors: list[dict] = []
        self.closed_with = None

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/games/{self.table.game_id}/?format=json",
            additional_headers={"Cookie": self.cookie},
            origin=f"http://127.0.0.1:{self.port}",
            open_timeout=30,
            max_queue=None,
        )
        self.take(json.loads(await asyncio.wait_for(self.ws.recv(), 30)))

    def take(self, frame: dict) -> None:
        now = time.perf_counter()
        if "error" in frame:
            self.errors.append(frame["error"])
            self.table.changed.set()
            return
        version = frame.get("version")
        if version is None or "players" not in frame:
            return
        if version > self.version:
            if self.version >= 0 and version > self.version + 1:
                self.gaps += 1
            for v in range(self.version + 1, version + 1):
                self.reached.setdefault(v, now)
            self.version, self.state = version, frame
            self.table.changed.set()

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.ws:
                self.take(json.loads(text))
        except ConnectionClosed as exc:
            self.closed_with = exc.rcvd.code if exc.rcvd else None
        self.table.changed.set()

    async def send(self, data: dict) -> None:
        await self.ws.send(json.dumps(data))


class Table:
    """One game and its four sockets; plays one move per tick."""

    def __init__(self, game_id: int, cookies: list[str], ports: list[int], rng: random.Random):
        self.game_id = game_id
        self.rng = rng
        self.changed = asyncio.Event()
        self.socks = [
            Sock(self, seat, ports[seat % len(ports)], cookie)
            for seat, cookie in enumerate(cookies)
        ]
        self.latencies: list[float] = []
        self.moves = 0
        self.lost = 0
        self.resynced = 0
        self.behind = 0
        self.stuck = False
        self.over = False

    @property
    def version(self) -> int:
        return min(s.version for s in self.socks)

    def pick(self) -> tuple[list[Sock], list[dict], int]:
        """Who acts, what they send, and how many versions it adds (from their own views)."""
        from games import engine

        state = self.socks[0].state
        version = state["version"]
        phase = state["phase"]
        if phase == engine.GAME_OVER:
            return [], [], 0
        if phase == engine.ROUND_OVER:
            return self.socks, [{"ready": True}] * PLAYERS, PLAYERS
        if phase == engine.REVEAL_PHASE:
            choices = [s for s in self.socks if own_legal(s) and s.state["version"] == version]
            sock = self.rng.choice(choices)
        else:
            sock = self.socks[state["current"]]
        action = self.rng.choice(own_legal(sock)).to_json()
        return [sock], [{**action, "version": version}], 1

    async def wait_for(self, target: int, deadline: float, errors_before: int) -> bool:
        while self.version < target:
            if sum(len(s.errors) for s in self.socks) > errors_before:
                return False
            if any(s.closed_with is not None or s.ws.close_code for s in self.socks):
                return False
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return False
        return True

    async def play(self, end: float, interval: float, timeout: float, max_moves: int) -> None:
        await asyncio.sleep(self.rng.random() * interval)
        tick = time.perf_counter()
        while time.perf_counter() < end and not self.stuck and not self.over:
            if max_moves and self.moves >= max_moves:
                return
            socks, frames, added = self.pick()
            if not socks:
                self.over = True
                return
            target = self.version + added
            errors_before = sum(len(s.errors) for s in self.socks)
            sent = time.perf_counter()
            for sock, frame in zip(socks, frames, strict=True):
                await sock.send(frame)
            if await self.wait_for(target, sent + timeout, errors_before):
                if added == 1:
                    self.latencies.append(max(s.reached[target] for s in self.socks) - sent)
                self.moves += added
            elif not await self.resync(target, timeout):
                self.stuck = True
                return
            tick += interval
            now = time.perf_counter()
            if now > tick:
                self.behind += 1
                tick = now
            else:
                await asyncio.sleep(tick - now)

    async def resync(self, target: int, timeout: float) -> bool:
        """After a missed version or an error: ask every lagging socket for the state."""
        lagging = [s for s in self.socks if s.version < target and s.closed_with is None]
        self.lost += len(lagging)
        for sock in self.socks:
            await sock.send({"sync": True})
        self.resynced += 1
        await asyncio.sleep(0.2)
        deadline = time.perf_counter() + timeout
        while any(s.version != self.socks[0].version for s in self.socks):
            if time.perf_counter() > deadline:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), deadline - time.perf_counter())
            except TimeoutError:
                return False
        self.moves += max(0, self.version - (target - 1)) if self.version >= target else 0
        return True


def own_legal(sock: Sock) -> list:
    """The legal steps of ``sock``'s seat, from its own JSON view only."""
    from games import engine

    state = sock.state
    grid = state["players"][sock.seat]["grid"]
    face_down = [c == engine.HIDDEN for c in grid]
    return engine.legal_actions(
        phase=state["phase"],
        current=state["current"],
        seat=sock.seat,
        drawn=state["drawn"] is not None,
        revealed=sum(1 for c in grid if c != engine.HIDDEN and c is not None),
        face_down=face_down,
        removed=[c is None for c in grid],
    )


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def run_clients(args, games, ports: list[int], pids: list[int]) -> dict:
    rng = random.Random(args.seed)
    tables = [
        Table(game_id, cookies, ports, random.Random(rng.random())) for game_id, cookies in games
    ]
    socks = [s for t in tables for s in t.socks]
    started = time.perf_counter()
    gate = asyncio.Semaphore(50)

    async def open_one(sock):
        async with gate:
            await sock.open()

    await asyncio.gather(*(open_one(s) for s in socks))
    connect_s = time.perf_counter() - started
    readers = [asyncio.create_task(s.read()) for s in socks]

    cpu_before = [cpu_seconds(pid) for pid in pids]
    client_before = time.process_time()
    started = time.perf_counter()
    end = started + args.seconds
    interval = args.interval_ms / 1000
    await asyncio.gather(*(t.play(end, interval, args.timeout, args.max_moves) for t in tables))
    elapsed = time.perf_counter() - started
    cpu = sum(cpu_seconds(pid) for pid in pids) - sum(cpu_before)
    client_cpu = time.process_time() - client_before

    for sock in socks:
        await sock.ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    moves = sum(t.moves for t in tables)
    latencies = [x for t in tables for x in t.latencies]
    return {
        "sockets": len(socks),
        "connect_s": connect_s,
        "elapsed": elapsed,
        "moves": moves,
        "offered_per_s": len(tables) / interval,
        "moves_per_s": moves / elapsed,
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "max": max(latencies, default=float("nan")) * 1000,
        "gaps": sum(s.gaps for s in socks),
        "lost": sum(t.lost for t in tables),
        "resyncs": sum(t.resynced for t in tables),
        "errors": sum(len(s.errors) for s in socks),
        "error_codes": sorted({e.get("code", "?") for s in socks for e in s.errors}),
        "closed": sum(1 for s in socks if s.closed_with not in (None, 1000)),
        "stuck_games": sum(1 for t in tables if t.stuck),
        "behind": sum(t.behind for t in tables),
        "server_cpu_s": cpu,
        "server_cpu_ms_per_move": cpu / moves * 1000 if moves else float("nan"),
        "server_cpu_share": cpu / elapsed,
        "client_cpu_share": client_cpu / elapsed,
    }


# ------------------------------------------------------------------------------- main


def main() -> None:
    args = parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="skyjo-relay-"))
    database_url = db_name = None
    if args.postgres:
        database_url, db_name = make_postgres_db(args.postgres)
    env = environment(args, workdir, database_url)
    os.environ.update(env)
    for name in ("DATABASE_URL", "REDIS_URL", "SKYJO_CHANNEL_LAYER"):
        if name not in env:
            os.environ.pop(name, None)
    processes = []
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[1]
        database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
        print(
            f"relay: {args.games} games x {PLAYERS} sockets, one move per game every "
            f"{args.interval_ms} ms for {args.seconds:g} s; {database}, {layer}, "
            f"{args.processes} Daphne process(es)",
            flush=True,
        )
        queries = measure_queries(args.query_moves, args.seed)
        games = create_games(args.games, args.seed)
        connections.close_all()
        started = [start_daphne(env, workdir, i) for i in range(args.processes)]
        processes = [p for p, _ in started]
        result = asyncio.run(
            asyncio.wait_for(
                run_clients(args, games, [port for _, port in started], [p.pid for p in processes]),
                timeout=args.seconds + 180,
            )
        )
        report(args, queries, result)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if db_name:
            from django.db import connections

            connections.close_all()
            drop_postgres_db(args.postgres, db_name)
        shutil.rmtree(workdir, ignore_errors=True)


def report(args, queries: dict, r: dict) -> None:
    kinds = ", ".join(f"{k} {lo}-{hi}" for k, (lo, hi) in queries["by_kind"].items())
    print(
        f"queries per game_apply_action ({queries['moves']} moves in-process): "
        f"min {queries['min']}, max {queries['max']}, mean {queries['mean']:.1f} ({kinds}); "
        f"wall p50 {queries['wall_ms_p50']:.1f} ms, max {queries['wall_ms_max']:.1f} ms"
    )
    print(f"connected {r['sockets']} sockets in {r['connect_s']:.1f} s")
    print(
        f"moves applied: {r['moves']} in {r['elapsed']:.1f} s = {r['moves_per_s']:.1f}/s "
        f"(offered {r['offered_per_s']:.1f}/s; ticks late: {r['behind']})"
    )
    print(
        f"fan-out latency (send -> all 4 sockets): p50 {r['p50']:.1f} ms, p95 {r['p95']:.1f} ms, "
        f"p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms"
    )
    print(
        f"version gaps seen: {r['gaps']}; sockets that missed a version: {r['lost']} "
        f"(resyncs {r['resyncs']}); error frames: {r['errors']} {r['error_codes'] or ''}; "
        f"sockets closed by the server: {r['closed']}; games stuck: {r['stuck_games']}"
    )
    print(
        f"server CPU: {r['server_cpu_s']:.1f} s = {r['server_cpu_ms_per_move']:.1f} ms per move "
        f"({r['server_cpu_share']:.0%} of a core); benchmark client: "
        f"{r['client_cpu_share']:.0%} of a core"
    )
    print(
        "row: | {layer} | {db} | {p} | {g} | {i} | {o:.0f} | {m:.1f} | {p50:.0f} / {p95:.0f} / "
        "{p99:.0f} | {gaps} / {lost} | {cpu:.1f} | {share:.0%} |".format(
            layer=("in-memory" if not args.redis else args.layer),
            db="postgres" if args.postgres else "sqlite",
            p=args.processes,
            g=args.games,
            i=args.interval_ms,
            o=r["offered_per_s"],
            m=r["moves_per_s"],
            p50=r["p50"],
            p95=r["p95"],
            p99=r["p99"],
            gaps=r["gaps"],
            lost=r["lost"],
            cpu=r["server_cpu_ms_per_move"],
            share=r["server_cpu_share"],
        )
    )


if __name__ == "__main__":
    main()
