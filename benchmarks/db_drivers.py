"""What a move's database statements cost in CPU, driven four ways from one event loop.

Run:  .venv/bin/python benchmarks/db_drivers.py [--postgres URL] [--busy-loop 20000] [--repeat 3]

The question (docs/performance.md, ninth sitting): would a non-blocking driver for a move's
statements save the CPU that the database threads cost? Each "move" here is the shape of a move
of games.services, in raw SQL on tables of its own: a transaction that locks a game row (with a
JSON snapshot of the size of the site's), reads its four players, inserts a move row and
updates the game row. ``--tasks`` coroutines (one per game) make ``--moves`` moves in all, on
``--connections`` connections, driven by:

- ``threads``: blocking psycopg calls on a pool of threads, one connection each (the site's
  way: core.db);
- ``pipeline``: the same, with each transaction's statements sent in psycopg's pipeline mode;
- ``async``: psycopg's ``AsyncConnection`` on the loop itself;
- ``blocking``: blocking psycopg calls on the loop's thread (the loop waits for every answer).

``--busy-loop N`` runs N small chunks of pure Python work on the loop beside the moves (about
0.1 ms each, yielding between chunks), as a server's sockets keep its loop busy; the chunks'
own CPU is measured alone first and subtracted. Printed per driver: this process's CPU per
move (``time.process_time``, so PostgreSQL's CPU is not in it) and wall time per move.
"""

import argparse
import asyncio
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import servers  # noqa: E402

SNAPSHOT = json.dumps({"cards": [list(range(12))] * 4, "pile": list(range(100)), "up": [0] * 4})
ACTION = json.dumps({"kind": "flip", "at": 3})
LOCK = "SELECT id, version, snapshot, phase FROM game WHERE id = %s FOR UPDATE"
PLAYERS = "SELECT id, seat, timeouts, last_seen, connections FROM player WHERE game_id = %s"
INSERT = "INSERT INTO move (game_id, version, seat, action) VALUES (%s, %s, %s, %s)"
UPDATE = "UPDATE game SET snapshot = %s, version = %s, phase = %s, updated = now() WHERE id = %s"


def create_tables(url: str, games: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE game (id int PRIMARY KEY, version int, snapshot jsonb, phase text, "
            "updated timestamptz)"
        )
        conn.execute(
            "CREATE TABLE player (id serial PRIMARY KEY, game_id int, seat int, timeouts int, "
            "last_seen timestamptz, connections int)"
        )
        conn.execute("CREATE INDEX ON player (game_id)")
        conn.execute(
            "CREATE TABLE move (id serial PRIMARY KEY, game_id int, version int, seat int, "
            "action jsonb)"
        )
        for game in range(games):
            conn.execute("INSERT INTO game VALUES (%s, 0, %s, 'play', now())", (game, SNAPSHOT))
            for seat in range(4):
                conn.execute(
                    "INSERT INTO player (game_id, seat, timeouts, last_seen, connections) "
                    "VALUES (%s, %s, 0, now(), 1)",
                    (game, seat),
                )


def move(conn: psycopg.Connection, game: int) -> None:
    with conn.transaction():
        version = conn.execute(LOCK, (game,)).fetchone()[1] + 1
        conn.execute(PLAYERS, (game,)).fetchall()
        conn.execute(INSERT, (game, version, 0, ACTION))
        conn.execute(UPDATE, (SNAPSHOT, version, "play", game))


def move_pipelined(conn: psycopg.Connection, game: int) -> None:
    with conn.pipeline(), conn.transaction():
        lock, players = conn.execute(LOCK, (game,)), conn.execute(PLAYERS, (game,))
        version = lock.fetchone()[1] + 1
        players.fetchall()
        conn.execute(INSERT, (game, version, 0, ACTION))
        conn.execute(UPDATE, (SNAPSHOT, version, "play", game))


async def move_async(conn: psycopg.AsyncConnection, game: int) -> None:
    async with conn.transaction():
        version = (await (await conn.execute(LOCK, (game,))).fetchone())[1] + 1
        await (await conn.execute(PLAYERS, (game,))).fetchall()
        await conn.execute(INSERT, (game, version, 0, ACTION))
        await conn.execute(UPDATE, (SNAPSHOT, version, "play", game))


async def play(args, one_move) -> None:
    """``args.tasks`` games, each moving as soon as its last move is done, ``args.moves`` in
    all; ``one_move(game)`` is a coroutine."""
    left = [args.moves]

    async def table(game: int) -> None:
        while left[0] > 0:
            left[0] -= 1
            await one_move(game)

    await asyncio.gather(*(table(game) for game in range(args.tasks)))


def in_threads(args, url: str, how):
    async def run() -> None:
        local = threading.local()

        def work(game: int) -> None:
            if getattr(local, "conn", None) is None:
                local.conn = psycopg.connect(url)
            how(local.conn, game)

        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(args.connections) as pool:
            await play(args, lambda game: loop.run_in_executor(pool, work, game))

    return run


def on_loop_async(args, url: str):
    async def run() -> None:
        idle = asyncio.Queue()
        for _ in range(args.connections):
            idle.put_nowait(await psycopg.AsyncConnection.connect(url))

        async def one(game: int) -> None:
            conn = await idle.get()
            try:
                await move_async(conn, game)
            finally:
                idle.put_nowait(conn)

        await play(args, one)
        while not idle.empty():
            await idle.get_nowait().close()

    return run


def on_loop_blocking(args, url: str):
    async def run() -> None:
        with psycopg.connect(url) as conn:

            async def one(game: int) -> None:
                move(conn, game)

            await play(args, one)

    return run


def busy_loop(chunks: int):
    async def run() -> None:
        for _ in range(chunks):
            total = 0
            for i in range(2000):
                total += i
            await asyncio.sleep(0)

    return run


def measure(run, chunks: int) -> tuple[float, float]:
    async def both() -> None:
        await asyncio.gather(run(), busy_loop(chunks)())

    cpu, wall = time.process_time(), time.perf_counter()
    asyncio.run(both())
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--tasks", type=int, default=20, help="games moving at once")
    parser.add_argument("--connections", type=int, default=4, help="as SKYJO_DB_THREADS")
    parser.add_argument("--busy-loop", type=int, default=0, metavar="CHUNKS")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    url, name = servers.make_postgres_db(args.postgres, "drivers")
    try:
        create_tables(url, args.tasks)
        drivers = {
            "threads": in_threads(args, url, move),
            "pipeline": in_threads(args, url, move_pipelined),
            "async": on_loop_async(args, url),
            "blocking": on_loop_blocking(args, url),
        }
        loop_cpu, _ = measure(busy_loop(0), args.busy_loop)
        print(
            f"{args.moves} moves, {args.tasks} games at once, {args.connections} connections, "
            f"busy loop {args.busy_loop} chunks ({loop_cpu:.2f} s CPU alone, subtracted); "
            f"load {servers.load_average()}"
        )
        for turn in range(args.repeat):
            for driver, run in drivers.items():
                cpu, wall = measure(run, args.busy_loop)
                per_move = (cpu - loop_cpu) / args.moves * 1e6
                print(
                    f"  {turn + 1} {driver:9s} CPU {per_move:5.0f} us/move, "
                    f"wall {wall / args.moves * 1e6:5.0f} us/move",
                    flush=True,
                )
    finally:
        servers.drop_postgres_db(args.postgres, name)


if __name__ == "__main__":
    main()
