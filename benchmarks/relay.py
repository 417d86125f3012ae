"""Relay benchmark: moves of many 4-player games served by real Daphne processes to websockets,
then the same sockets, pacing and frame sizes through the bare echo (benchmarks/echo_asgi.py)
in the same run; the site's figures are printed as ratios of the echo's. docs/performance.md
gives the method, the standard rows and what is printed.

    .venv/bin/python benchmarks/relay.py --games 50 --interval-ms 500 --seconds 20
    .venv/bin/python benchmarks/relay.py --postgres private --redis private --games 10 \
        --interval-ms 0 --repeat 3 [--format html --languages en,de] [--processes 2]
"""

import argparse
import asyncio
import os
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import servers  # noqa: E402
from benchmarks.relay_clients import (  # noqa: E402
    PLAYERS,
    EchoTable,
    Table,
    open_all,
    percentile,
    seeded,
)

CONNECT_TIMEOUT = 30  # docs/deployment.md: Daphne's --websocket_connect_timeout
SITE, ECHO = "skyjo_site.asgi:application", "benchmarks.echo_asgi:application"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--interval-ms", type=int, default=500, help="between moves; 0: unpaced")
    parser.add_argument("--seconds", type=float, default=20, help="length of the measured phase")
    parser.add_argument("--warmup-seconds", type=float, default=3, help="played, not measured")
    parser.add_argument("--max-moves", type=int, default=0, help="stop each game after N moves")
    parser.add_argument("--rounds", type=int, default=0, help="stop each game after N rounds")
    parser.add_argument("--end-score", type=int, default=100, help="the games' end score rule")
    parser.add_argument("--format", choices=("json", "html"), default="json")
    parser.add_argument("--languages", default="en", help="comma-separated, taken in turn")
    parser.add_argument("--redis", metavar="URL|private", help="channels_redis on this Redis")
    parser.add_argument("--layer", choices=("core", "pubsub"), default="core")
    parser.add_argument("--postgres", metavar="URL|private", help="a PostgreSQL to make a DB on")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=5, help="seconds to wait for fan-out")
    parser.add_argument("--query-moves", type=int, default=200, help="in-process moves; 0: none")
    parser.add_argument("--no-echo", action="store_true", help="skip the bare echo")
    parser.add_argument(
        "--repeat", type=int, default=1, help="site and echo phases in turn, then median ratios"
    )
    parser.add_argument("--wave", type=int, default=50, help="handshakes in flight at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--py-spy", metavar="FILE", help="profile the site's first Daphne (benchmarks/pyspy_top.py)"
    )
    args = parser.parse_args(argv)
    if args.processes > 1 and not args.redis:
        parser.error("--processes > 1 needs --redis: the in-memory layer is one process only")
    if args.interval_ms < 0 or args.games < 1 or args.processes < 1:
        parser.error("--interval-ms must be >= 0, --games and --processes >= 1")
    return args


# ------------------------------------------------------------------------------- setup


def environment(args, workdir: Path, database_url: str | None, redis_url: str | None) -> dict:
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
        # The move path is measured, not the per-socket frame limit (an unpaced seat may pass it).
        SKYJO_RATELIMIT="false",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
        env["SKYJO_CHANNEL_LAYER"] = args.layer
    return env


def create_games(count: int, seed: int, end_score: int) -> list[tuple[int, list[str]]]:
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
        lobby = services.lobby_create(
            host=seated[0], name=f"Relay {g}", seat_count=PLAYERS, end_score=end_score
        )
        for user in seated[1:]:
            services.lobby_join(lobby_id=lobby.pk, user=user)
        game = services.lobby_start(lobby_id=lobby.pk, user=seated[0])
        games.append((game.pk, [cookies[u.pk] for u in seated]))
    return games


def measure_service(moves: int, seed: int, end_score: int) -> dict:
    """Queries, wall and CPU time of ``game_apply_action`` on one game played at random here,
    from each seat's ``state.json``."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from benchmarks.relay_clients import json_legal
    from games import services

    game_id, cookies = create_games(1, seed=seed + 1000, end_score=end_score)[0]
    clients = [Client(HTTP_HOST="127.0.0.1") for _ in cookies]
    for client, cookie in zip(clients, cookies, strict=True):
        client.cookies["sessionid"] = cookie.split("=", 1)[1]
    users = list(get_user_model().objects.filter(username__startswith=f"relay{seed + 1000}_"))
    users.sort(key=lambda u: int(u.username.rsplit("_", 1)[1]))
    rng = random.Random(seed)
    by_round: dict[int, list[tuple[int, float, float]]] = {}
    for _ in range(moves):
        views = [c.get(f"/games/{game_id}/state.json").json() for c in clients]
        view = views[0]
        if view["phase"] == "game_over":
            break
        if view["phase"] == "round_over":
            for user in users:
                services.game_set_ready(game_id=game_id, user=user)
            continue
        legal = {seat: json_legal(views[seat], seat) for seat in range(PLAYERS)}
        seat = rng.choice([s for s in range(PLAYERS) if legal[s]])
        action = rng.choice(legal[seat])
        with CaptureQueriesContext(connection) as captured:
            wall, cpu = time.perf_counter(), time.thread_time()
            services.game_apply_action(
                game_id=game_id, user=users[seat], action=action, version=view["version"]
            )
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        by_round.setdefault(view["round"], []).append((len(captured), wall, cpu))
    every = [m for ms in by_round.values() for m in ms]
    return {
        "moves": len(every),
        "queries": (min(q for q, _, _ in every), max(q for q, _, _ in every)),
        "by_round": {
            r: (
                len(ms),
                statistics.fmean(q for q, _, _ in ms),
                statistics.median(w for _, w, _ in ms) * 1000,
                statistics.fmean(c for _, _, c in ms) * 1000,
            )
            for r, ms in sorted(by_round.items())
        },
    }


# ------------------------------------------------------------------------------- a phase


class Meters:
    """CPU seconds of the Daphne processes, the database, Redis and the analysis worker."""

    def __init__(self, pids: list[int], database, redis):
        self.pids, self.database, self.redis = pids, database, redis

    def read(self) -> tuple[float, float, float, float]:
        daphne = sum(servers.cpu_seconds(pid) for pid in self.pids)
        workers = sum(
            servers.cpu_seconds(child) for pid in self.pids for child in servers.children(pid)
        )
        return daphne, self.database.cpu(), self.redis.cpu(), workers


async def play(args, tables: list[Table], meters: Meters, origin_of, on_start=None) -> dict:
    socks = [s for t in tables for s in t.socks]
    connect_s = await open_all(socks, origin_of, args.wave)
    readers = [asyncio.create_task(s.read()) for s in socks]
    interval = args.interval_ms / 1000
    now = time.perf_counter()
    start, end = now + args.warmup_seconds, now + args.warmup_seconds + args.seconds
    samples = []

    async def sample():
        while True:
            samples.append((time.perf_counter(), meters.read(), rounds_so_far(tables)))
            await asyncio.sleep(0.5)

    async def measure_from_start():
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        nonlocal before, client_before, load_before
        before, client_before = meters.read(), time.process_time()
        load_before = servers.load_average()
        if on_start:
            on_start()

    before = client_before = load_before = None
    sampler = asyncio.create_task(sample())
    starter = asyncio.create_task(measure_from_start())
    await asyncio.gather(*(t.play(end, interval, args.timeout, args) for t in tables))
    await starter
    finished = time.perf_counter()
    after, client_cpu = meters.read(), time.process_time() - client_before
    load_after = servers.load_average()
    sampler.cancel()
    samples.append((finished, after, rounds_so_far(tables)))

    for sock in socks:
        await sock.ws.close()
    await asyncio.gather(*readers, return_exceptions=True)
    elapsed = max(finished - start, 1e-9)
    measured = [d for t in tables for d in t.done if d.sent >= start]
    moves = sum(d.added for d in measured)
    latencies = [d.latency for d in measured if d.latency is not None]
    cpu = [a - b for a, b in zip(after, before, strict=True)]
    per_move = [c / moves * 1000 if moves else float("nan") for c in cpu]
    return {
        "sockets": len(socks),
        "connect_s": connect_s,
        "elapsed": elapsed,
        "moves": moves,
        "moves_per_s": moves / elapsed,
        "offered": len(tables) / interval if interval else None,
        "p50": percentile(latencies, 50) * 1000,
        "p95": percentile(latencies, 95) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "max": max(latencies, default=float("nan")) * 1000,
        "gaps": sum(s.gaps for s in socks),
        "lost": sum(t.lost for t in tables),
        "resyncs": sum(t.resynced for t in tables),
        "busy": sum(t.busy for t in tables),
        "errors": sum(len(s.errors) for s in socks),
        "error_codes": sorted({e for s in socks for e in s.errors}),
        "closed": sum(1 for s in socks if s.closed_with not in (None, 1000)),
        "stuck": sum(1 for t in tables if t.stuck),
        "over": sum(1 for t in tables if t.over),
        "behind": sum(t.behind for t in tables),
        "cpu": cpu,
        "cpu_ms": per_move,
        "cpu_share": cpu[0] / elapsed,
        "client_share": client_cpu / elapsed,
        "by_round": cpu_by_round(samples, start),
        "frame_chars": sum(s.received_chars for s in socks) / max(1, sum(s.frames for s in socks)),
        "sent_chars": sum(t.sent_chars for t in tables)
        / max(1, sum(t.sent_frames for t in tables)),
        "load": f"{load_before} -> {load_after}",
    }


def rounds_so_far(tables: list[Table]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for table in tables:
        for done in table.done:
            counts[done.round] = counts.get(done.round, 0) + done.added
    return counts


def cpu_by_round(samples, start: float) -> dict[int, tuple[int, float]]:
    """``{round: (moves, Daphne CPU ms per move)}``, each 0.5 s window's CPU shared among the
    rounds of its moves."""
    cpu: dict[int, float] = {}
    moves: dict[int, int] = {}
    for (t0, m0, r0), (_t1, m1, r1) in zip(samples, samples[1:], strict=False):
        if t0 < start:
            continue
        added = {r: n - r0.get(r, 0) for r, n in r1.items() if n > r0.get(r, 0)}
        total = sum(added.values())
        for r, n in added.items():
            cpu[r] = cpu.get(r, 0.0) + (m1[0] - m0[0]) * n / total
            moves[r] = moves.get(r, 0) + n
    return {r: (moves[r], cpu[r] / moves[r] * 1000) for r in sorted(moves)}


def run_phase(args, env, workdir, name, application, make_tables, database, redis) -> dict:
    processes = []
    profiler = []
    try:
        started = [
            servers.start_daphne(env, workdir, f"{name}-{i}", application, CONNECT_TIMEOUT)
            for i in range(args.processes)
        ]
        processes = [p for p, _ in started]
        ports = [port for _, port in started]
        meters = Meters([p.pid for p in processes], database, redis)

        def profile():
            if args.py_spy and name == "site":
                profiler.append(start_py_spy(args.py_spy, processes[0].pid, args.seconds))

        async def main():
            tables = make_tables(ports)
            return await play(args, tables, meters, lambda s: origin(s.url), profile)

        budget = args.warmup_seconds + args.seconds + 240
        return asyncio.run(asyncio.wait_for(main(), timeout=budget))
    finally:
        for spy in profiler:
            spy.wait(timeout=args.seconds + 60)
        servers.stop_all(processes)


def start_py_spy(path: str, pid: int, seconds: float):
    """py-spy on the thread holding the GIL: where the process's CPU goes."""
    import subprocess

    options = f"record --nonblocking --gil --format raw --rate 100 --duration {int(seconds)}"
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "py-spy"), *options.split()]
        + ["--pid", str(pid), "--output", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def origin(url: str) -> str:
    return "http://" + url.split("/")[2]


# ------------------------------------------------------------------------------- main


def main(argv=None) -> None:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="skyjo-relay-"))
    cleanup = []
    db_server = db_name = None
    try:
        database = redis = servers.NoCpu()
        database_url = redis_url = None
        if args.postgres:
            if args.postgres == "private":
                database = servers.PrivatePostgres()
                cleanup.append(database.stop)
                db_server = database.url
            else:
                db_server = args.postgres
            database_url, db_name = servers.make_postgres_db(db_server, "relay")
        if args.redis:
            redis = (
                servers.PrivateRedis(workdir)
                if args.redis == "private"
                else servers.SharedRedis(args.redis)
            )
            cleanup.append(redis.stop)
            redis_url = redis.url
        env = environment(args, workdir, database_url, redis_url)
        os.environ.update(env)
        for name in ("DATABASE_URL", "REDIS_URL", "SKYJO_CHANNEL_LAYER"):
            if name not in env:
                os.environ.pop(name, None)

        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[1]
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
        pace = f"every {args.interval_ms} ms" if args.interval_ms else "unpaced"
        print(
            f"relay: {args.games} games x {PLAYERS} {args.format} sockets "
            f"({args.languages}), {pace}, {args.warmup_seconds:g} s warm-up + "
            f"{args.seconds:g} s; {engine}, {layer}, {args.processes} Daphne process(es); "
            f"commit {commit()}; load {servers.load_average()}",
            flush=True,
        )
        if args.query_moves:
            report_service(measure_service(args.query_moves, args.seed, args.end_score))
        rng = random.Random(args.seed)

        ratios = []
        for repeat in range(args.repeat):
            games = create_games(args.games, args.seed + repeat, args.end_score)  # new tables
            connections.close_all()

            def site_tables(ports, games=games):
                return [Table(g, cookies, ports, args, seeded(rng)) for g, cookies in games]

            site = run_phase(args, env, workdir, "site", SITE, site_tables, database, redis)
            report("site", args, site)
            if repeat + 1 < args.repeat:
                stop_games(games)
            if args.no_echo:
                continue

            def echo_tables(ports, site=site, games=games):
                sent, frame = round(site["sent_chars"]), round(site["frame_chars"])
                return [EchoTable(g, ports, args, seeded(rng), sent, frame) for g, _ in games]

            echo_args = argparse.Namespace(**{**vars(args), "rounds": 0})
            echo = run_phase(
                echo_args, env, workdir, "echo", ECHO, echo_tables, servers.NoCpu(), redis
            )
            report("echo", args, echo)
            ratios.append(report_ratios(args, site, echo, engine, layer))
        if len(ratios) > 1:
            cpu, rate, p99 = (statistics.median(r) for r in zip(*ratios, strict=True))
            print(
                f"median of {len(ratios)} ratios to the echo: Daphne CPU per move {cpu:.1f}x, "
                f"moves/s {rate:.2f}x, p99 {p99:.1f}x"
            )
    finally:
        if db_name:
            from django.db import connections

            connections.close_all()
            servers.drop_postgres_db(db_server, db_name)
        for stop in reversed(cleanup):
            stop()
        shutil.rmtree(workdir, ignore_errors=True)


def stop_games(games) -> None:
    """Void ``games`` after their phase: else a later phase's bot runner plays them on."""
    from django.db import connections

    from games import services as moderation

    for game_id, _cookies in games:
        moderation.game_stop(game_id=game_id, void=True)
    connections.close_all()


def commit() -> str:
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, text=True
        ).stdout

    dirty = git("status", "--porcelain", "--", "games", "skyjo_site").strip()
    return git("rev-parse", "--short", "HEAD").strip() + ("+changes" if dirty else "")


# ------------------------------------------------------------------------------- report


def report_service(s: dict) -> None:
    print(
        f"in-process game_apply_action ({s['moves']} moves of one game): queries "
        f"{s['queries'][0]}-{s['queries'][1]}; by round (moves, mean queries, wall p50 ms, "
        "CPU ms): "
        + ", ".join(
            f"r{r} {n}/{q:.1f}/{w:.1f}/{c:.1f}" for r, (n, q, w, c) in s["by_round"].items()
        )
    )


def report(name: str, args, r: dict) -> None:
    offered = f"offered {r['offered']:.0f}/s" if r["offered"] else "unpaced"
    cpu_ms = r["cpu_ms"]
    print(f"[{name}] load {r['load']}; {r['sockets']} sockets connected in {r['connect_s']:.1f} s")
    print(
        f"[{name}] applied {r['moves']} in {r['elapsed']:.1f} s = {r['moves_per_s']:.1f}/s "
        f"({offered}; ticks late {r['behind']}; games over {r['over']})"
    )
    print(
        f"[{name}] send -> all 4 sockets: p50 {r['p50']:.1f} ms, p95 {r['p95']:.1f} ms, "
        f"p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms"
    )
    print(
        f"[{name}] gaps {r['gaps']}; sockets that missed a version {r['lost']} (resyncs "
        f"{r['resyncs']}); busy {r['busy']}; error frames {r['errors']} "
        f"{r['error_codes'] or ''}; closed by the server {r['closed']}; stuck {r['stuck']}"
    )
    print(
        f"[{name}] CPU per move: Daphne {cpu_ms[0]:.2f} ms ({r['cpu_share']:.0%} of a core), "
        f"database {cpu_ms[1]:.2f} ms, Redis {cpu_ms[2]:.2f} ms, analysis worker "
        f"{cpu_ms[3]:.2f} ms; client "
        f"{r['client_share']:.0%} of a core; mean frame {r['frame_chars']:.0f} chars in, "
        f"{r['sent_chars']:.0f} out"
    )
    if name == "site" and len(r["by_round"]) > 1:
        print(
            f"[{name}] Daphne CPU per move by round (moves, ms): "
            + ", ".join(f"r{k} {n}/{ms:.1f}" for k, (n, ms) in r["by_round"].items())
        )


def report_ratios(args, site: dict, echo: dict, engine: str, layer: str) -> tuple:
    cpu = site["cpu_ms"][0] / echo["cpu_ms"][0]
    rate = site["moves_per_s"] / echo["moves_per_s"]
    p99 = site["p99"] / echo["p99"]
    print(
        f"ratios to the echo: Daphne CPU per move {cpu:.1f}x, moves/s {rate:.2f}x, p99 {p99:.1f}x"
    )
    pace = args.interval_ms or "unpaced"
    print(
        f"row: | {engine} | {layer} | {args.processes} | {args.format} {args.languages} | "
        f"{args.games} | {pace} | {site['moves_per_s']:.1f} ({rate:.2f}x) | "
        f"{site['p50']:.0f} / {site['p99']:.0f} ({p99:.1f}x) | "
        f"{site['cpu_ms'][0]:.1f} ({cpu:.1f}x) | {site['cpu_ms'][1]:.1f} / "
        f"{site['cpu_ms'][2]:.1f} | {site['lost']} / {site['stuck']} / {site['errors']} | "
        f"{echo['moves_per_s']:.0f} / {echo['cpu_ms'][0]:.2f} | {site['load']} |"
    )
    return cpu, rate, p99


if __name__ == "__main__":
    main()
