"""Relay benchmark: moves of many 4-player games served by real Daphne processes to websockets,
then the same load through the bare echo (benchmarks/echo_asgi.py), the site's figures as
ratios of the echo's. docs/performance.md gives the method, the options and the standard rows."""

import argparse
import asyncio
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import servers  # noqa: E402
from benchmarks.relay_clients import PLAYERS, EchoTable, Table, open_all, percentile  # noqa: E402

SITE, ECHO = "skyjo_site.asgi:application", "benchmarks.echo_asgi:application"
CPU_MS = [f"{p} CPU ms/move" for p in ("Daphne", "database", "Redis", "analysis worker")]


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--interval-ms", type=int, default=500, help="between moves; 0: unpaced")
    parser.add_argument("--seconds", type=float, default=20, help="length of the measured phase")
    parser.add_argument("--warmup-seconds", type=float, default=3, help="played, not measured")
    parser.add_argument("--end-score", type=int, default=100, help="the games' end score rule")
    parser.add_argument("--format", choices=("json", "html"), default="json")
    parser.add_argument("--languages", default="en", help="comma-separated, taken in turn")
    parser.add_argument("--redis", choices=("private",), help="channels_redis on a new Redis")
    parser.add_argument("--layer", choices=("core", "pubsub"), default="pubsub")
    parser.add_argument("--postgres", choices=("private",), help="a new PostgreSQL cluster")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--server", choices=("daphne", "uvicorn"), default="daphne", help="site and echo both"
    )
    parser.add_argument("--timeout", type=float, default=5, help="seconds to wait for fan-out")
    parser.add_argument("--no-echo", action="store_true", help="skip the bare echo")
    parser.add_argument("--repeat", type=int, default=1, help="site and echo phases N times")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--py-spy", metavar="FILE", help="profile the site's first Daphne")
    args = parser.parse_args(argv)
    if args.processes > 1 and not args.redis:
        parser.error("--processes > 1 needs --redis: the in-memory layer is one process only")
    if args.interval_ms < 0 or args.games < 1 or args.processes < 1:
        parser.error("--interval-ms must be >= 0, --games and --processes >= 1")
    if args.py_spy and not shutil.which("py-spy", path=Path(sys.executable).parent):
        parser.error("--py-spy needs py-spy in the venv (pip install py-spy)")
    return args


def environment(args, workdir: Path, database_url: str | None, redis_url: str | None) -> dict:
    layer_keys = ("DATABASE_URL", "REDIS_URL", "SKYJO_CHANNEL_LAYER")
    env = {k: v for k, v in os.environ.items() if k not in layer_keys}
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
        env.update(REDIS_URL=redis_url, SKYJO_CHANNEL_LAYER=args.layer)
    return env


def create_games(count: int, seed: int, end_score: int) -> list:
    """``count`` started 4-player games of new users: (game id, session cookies by seat)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from games.tests.helpers import start_game

    user_model = get_user_model()
    unusable = make_password(None)
    users = user_model.objects.bulk_create(
        user_model(username=f"relay{seed}_{i}", password=unusable) for i in range(count * PLAYERS)
    )
    tables = [users[i : i + PLAYERS] for i in range(0, len(users), PLAYERS)]
    cookies = [[session_cookie(user) for user in seated] for seated in tables]
    return [
        (start_game(*t, end_score=end_score).pk, c) for t, c in zip(tables, cookies, strict=True)
    ]


def session_cookie(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def play(args, tables: list[Table], meter, on_start) -> dict:
    """Play ``tables`` through the warm-up and the measured phase; ``meter()`` reads the CPU
    seconds of (Daphne, database, Redis, analysis worker)."""
    socks = [s for t in tables for s in t.socks]
    connect_s = await open_all(socks)
    readers = [asyncio.create_task(s.read()) for s in socks]
    interval = args.interval_ms / 1000
    start = time.perf_counter() + args.warmup_seconds
    samples, before = [], []

    async def sample():
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        before.extend((meter(), time.process_time(), servers.load_average()))
        on_start()
        while True:
            samples.append((time.perf_counter(), meter(), rounds_so_far(tables)))
            await asyncio.sleep(0.5)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(t.play(start + args.seconds, interval, args) for t in tables))
    while not before:
        await asyncio.sleep(0.1)
    finished, after = time.perf_counter(), meter()
    client_cpu, load = time.process_time() - before[1], f"{before[2]} -> {servers.load_average()}"
    sampler.cancel()
    samples.append((finished, after, rounds_so_far(tables)))
    for sock in socks:
        await sock.ws.close()
    await asyncio.gather(*readers, return_exceptions=True)

    elapsed = max(finished - start, 1e-9)
    measured = [d for t in tables for d in t.done if d.sent >= start]
    moves = sum(d.added for d in measured)
    latencies = [d.latency * 1000 for d in measured if d.latency is not None]
    used = [a - b for a, b in zip(after, before[0], strict=True)]
    return {
        "load": load,
        "sockets": len(socks),
        "connected in s": connect_s,
        "moves": moves,
        "seconds": elapsed,
        "moves/s": moves / elapsed,
        "offered/s": len(tables) / interval if interval else "unpaced",
        "ticks late": sum(t.behind for t in tables),
        "games over": sum(t.over for t in tables),
        **{f"p{p} ms": percentile(latencies, p) for p in (50, 95, 99)},
        "max ms": max(latencies, default=float("nan")),
        "version gaps": sum(s.gaps for s in socks),
        "sockets that missed a version": sum(t.lost for t in tables),
        "resyncs": sum(t.resynced for t in tables),
        "busy": sum(t.busy for t in tables),
        "error frames": sum(len(s.errors) for s in socks),
        "error codes": " ".join(sorted({e for s in socks for e in s.errors})) or "-",
        "closed by the server": sum(s.closed_with not in (None, 1000) for s in socks),
        "stuck": sum(t.stuck for t in tables),
        **{
            k: u / moves * 1000 if moves else float("nan")
            for k, u in zip(CPU_MS, used, strict=True)
        },
        "Daphne share of a core": used[0] / elapsed,
        "client share of a core": client_cpu / elapsed,
        "mean chars in": sum(s.received_chars for s in socks)
        / max(1, sum(s.frames for s in socks)),
        "mean chars out": sum(t.sent_chars for t in tables)
        / max(1, sum(t.sent_frames for t in tables)),
        "Daphne CPU (moves/ms per move) by round": ", ".join(
            f"r{k} {n}/{ms:.1f}" for k, (n, ms) in cpu_by_round(samples).items()
        ),
    }


def rounds_so_far(tables: list[Table]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for done in (d for t in tables for d in t.done):
        counts[done.round] = counts.get(done.round, 0) + done.added
    return counts


def cpu_by_round(samples) -> dict[int, tuple[int, float]]:
    """``{round: (moves, Daphne CPU ms per move)}``, each 0.5 s window's CPU shared among the
    rounds of its moves."""
    cpu: dict[int, float] = {}
    moves: dict[int, int] = {}
    for (_t0, m0, r0), (_t1, m1, r1) in zip(samples, samples[1:], strict=False):
        added = {r: n - r0.get(r, 0) for r, n in r1.items() if n > r0.get(r, 0)}
        for r, n in added.items():
            cpu[r] = cpu.get(r, 0.0) + (m1[0] - m0[0]) * n / sum(added.values())
            moves[r] = moves.get(r, 0) + n
    return {r: (moves[r], cpu[r] / moves[r] * 1000) for r in sorted(moves)}


def run_phase(args, env, workdir, name, make_tables, database_cpu, redis_cpu) -> dict:
    """``make_tables(ports)`` played on ``--processes`` Daphne processes of the site or the
    echo (``name``)."""
    processes, ports, spies = [], [], []
    try:
        for i in range(args.processes):
            application = SITE if name == "site" else ECHO
            process, port = servers.start_daphne(
                env, workdir, f"{name}-{i}", application, args.server
            )
            processes.append(process)
            ports.append(port)

        def meter():
            pids = [p.pid for p in processes]
            workers = sum(servers.cpu_seconds(c) for p in pids for c in servers.children(p))
            return sum(map(servers.cpu_seconds, pids)), database_cpu(), redis_cpu(), workers

        def profile():  # py-spy on the thread holding the GIL: where the process's CPU goes
            if args.py_spy and name == "site":
                options = "record --nonblocking --gil --format raw --rate 100 --duration"
                command = [Path(sys.executable).parent / "py-spy", *options.split()]
                command += [str(int(args.seconds)), "--pid", str(processes[0].pid)]
                command += ["--output", args.py_spy]
                spies.append(
                    subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
                )

        async def phase():
            return await play(args, make_tables(ports), meter, profile)

        return asyncio.run(asyncio.wait_for(phase(), args.warmup_seconds + args.seconds + 240))
    finally:
        for spy in spies:
            spy.wait(timeout=args.seconds + 60)
        servers.stop_all(processes)


def main(argv=None) -> None:
    args = parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="skyjo-relay-"))
    cleanup = [lambda: shutil.rmtree(workdir, ignore_errors=True)]
    try:
        database_url = redis_url = None
        database_cpu = redis_cpu = servers.no_cpu
        if args.postgres:
            database_url, database_cpu, stop = servers.private_postgres()
            cleanup.append(stop)
        if args.redis:
            redis_url, redis_cpu, stop = servers.redis_server("private", workdir)
            cleanup.append(stop)
        env = environment(args, workdir, database_url, redis_url)
        os.environ.clear()
        os.environ.update(env)

        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        from games import services

        call_command("migrate", verbosity=0)
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[1]
        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[1]
        pace = f"every {args.interval_ms} ms" if args.interval_ms else "unpaced"
        print(
            f"relay: {args.games} games x {PLAYERS} {args.format} sockets "
            f"({args.languages}), {pace}, {args.warmup_seconds:g} s warm-up + "
            f"{args.seconds:g} s; {engine}, {layer}, {args.processes} {args.server} process(es); "
            f"commit {commit()}; load {servers.load_average()}",
            flush=True,
        )
        rng = random.Random(args.seed)

        ratios = []
        for repeat in range(args.repeat):
            games = create_games(args.games, args.seed + repeat, args.end_score)  # new tables
            connections.close_all()

            def site_tables(ports, games=games):
                return [Table(g, cookies, ports, args, seeded(rng)) for g, cookies in games]

            site = run_phase(args, env, workdir, "site", site_tables, database_cpu, redis_cpu)
            report("site", site)
            if repeat + 1 < args.repeat:  # else a later phase's bot runner plays them on
                for game_id, _ in games:
                    services.game_stop(game_id=game_id, void=True)
                connections.close_all()
            if args.no_echo:
                continue

            def echo_tables(ports, site=site, games=games):
                sent, frame = round(site["mean chars out"]), round(site["mean chars in"])
                return [EchoTable(g, ports, args, seeded(rng), sent, frame) for g, _ in games]

            echo = run_phase(args, env, workdir, "echo", echo_tables, servers.no_cpu, redis_cpu)
            report("echo", echo)
            ratios.append(report_ratios(args, site, echo, engine, layer))
        if len(ratios) > 1:
            cpu, rate, p99 = (statistics.median(r) for r in zip(*ratios, strict=True))
            print(
                f"median of {len(ratios)} ratios to the echo: Daphne CPU per move {cpu:.1f}x, "
                f"moves/s {rate:.2f}x, p99 {p99:.1f}x"
            )
    finally:
        for stop in reversed(cleanup):
            stop()


def seeded(rng: random.Random) -> random.Random:
    return random.Random(rng.random())


def commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout

    dirty = git("status", "--porcelain", "--", "games", "skyjo_site").strip()
    return git("rev-parse", "--short", "HEAD").strip() + ("+changes" if dirty else "")


def report(name: str, figures: dict) -> None:
    shown = [f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()]
    for i in range(0, len(shown), 5):
        print(f"[{name}] " + "; ".join(shown[i : i + 5]))


def report_ratios(args, site: dict, echo: dict, engine: str, layer: str) -> tuple:
    daphne, database, redis = CPU_MS[:3]
    cpu = site[daphne] / echo[daphne]
    rate = site["moves/s"] / echo["moves/s"]
    p99 = site["p99 ms"] / echo["p99 ms"]
    print(
        f"ratios to the echo: Daphne CPU per move {cpu:.1f}x, moves/s {rate:.2f}x, p99 {p99:.1f}x"
    )
    print(
        f"row: | {engine} | {layer} | {args.processes} | {args.format} {args.languages} | "
        f"{args.games} | {args.interval_ms or 'unpaced'} | {site['moves/s']:.1f} ({rate:.2f}x) | "
        f"{site['p50 ms']:.0f} / {site['p99 ms']:.0f} ({p99:.1f}x) | {site[daphne]:.1f} "
        f"({cpu:.1f}x) | {site[database]:.1f} / {site[redis]:.1f} | "
        f"{site['sockets that missed a version']} / {site['stuck']} / {site['error frames']} | "
        f"{echo['moves/s']:.0f} / {echo[daphne]:.2f} | {site['load']} |"
    )
    return cpu, rate, p99


if __name__ == "__main__":
    main()
