"""PostgreSQL stops and starts again in the middle of a 4-player game (issue 9, item 8).

The test runs its own PostgreSQL cluster (never the machine's shared one, which others use)
and a real Daphne process on it, configured as docs/deployment.md advises (persistent
connections, the bot runner on). Four players (games.tests.failover) play a whole game; twice,
right after a player sent a step, the cluster goes down for a while: once with a clean
shutdown (``pg_ctl stop -m fast``), once like a crash (``-m immediate``). While it is down the
server must answer a clear, retryable error (``unavailable``), never a state it has not stored
nor a traceback (a new socket is refused until it is back); then the game goes on. Afterwards every step a player saw
acknowledged must be stored as that version's move, and nothing else.
"""

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from glob import glob
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus

from games.tests.failover import FailoverPlayer, Table

pytestmark = [
    pytest.mark.asyncio,
    # The test brings its own cluster, so it runs once, in scripts/test's PostgreSQL stage.
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="a PostgreSQL outage: scripts/test runs this in its PostgreSQL stage",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
SEATS = 4
# (steps played before it, pg_ctl stop mode): both in round 1, which takes at least 88 steps
OUTAGES = ((20, "fast"), (60, "immediate"))
DOWN = 2.0  # seconds the database stays down


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A throw-away PostgreSQL cluster (as scripts/_postgres.sh starts one): trust auth,
    loopback only, a free port, its data in a temporary directory."""

    def __init__(self, bindir: str):
        self.bindir = bindir
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="skyjo-outage-pg-"))
        # initdb refuses to run as root: run the server as the postgres user then.
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.run_as:
            shutil.chown(self.dir, "postgres")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/skyjo"

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self.run_as, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def init(self) -> None:
        self._run(
            f"{self.bindir}/initdb", "-D", f"{self.dir}/data", "-U", "postgres", "-A", "trust"
        )
        self.start()
        with psycopg.connect(
            f"postgres://postgres@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE skyjo")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        self._run(
            f"{self.bindir}/pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w",
            "-o", options, "start",
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._run(f"{self.bindir}/pg_ctl", "-D", f"{self.dir}/data", "-m", mode, "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already down
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def cluster():
    bindirs = sorted(glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]))
    if not bindirs:
        pytest.fail(
            "This test runs a PostgreSQL cluster of its own: install the server "
            "(apt-get install postgresql; scripts/test does so when run as root)."
        )
    cluster = Cluster(bindirs[-1])
    try:
        cluster.init()
        yield cluster
    finally:
        cluster.remove()


def _site_env(cluster: Cluster) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SKYJO_", "DATABASE_", "REDIS_", "CACHE_", "DJANGO_"))
    }
    env.update(
        DATABASE_URL=cluster.url,
        DATABASE_CONN_MAX_AGE="60",  # as docs/deployment.md advises
        SKYJO_RATELIMIT="false",
        SKYJO_BOT_DELAY="0.05",
        PYTHONUNBUFFERED="1",
    )
    return env


SETUP = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from games.tests.helpers import start_game
from games.tests.live import session_cookie
users = [get_user_model().objects.create_user(f"outage{i}") for i in range(%d)]
game = start_game(*users, end_score=100, disconnect_grace=3600)
print(json.dumps({"game": game.pk, "cookies": [session_cookie(u) for u in users]}))
"""

STORED = """
import json, sys, django
django.setup()
from games import engine
from games.models import Game, Move
from games.records import game_record
game = Game.objects.get(pk=int(sys.argv[1]))
moves = Move.objects.filter(game=game).values_list("version", "seat", "action")
print(json.dumps({
    "status": game.status,
    "version": game.version,
    "view": engine.view_of(engine.from_record(game_record(game)), None).to_json(),
    "moves": [[v, seat, action] for v, seat, action in moves],
}))
"""


def _django(env: dict, script: str, *args: str) -> dict:
    """Run ``script`` with the site's settings on the private cluster; its JSON output."""
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "skyjo_site.settings"},
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


async def _knock(port: int, cookie: str, game_id: int) -> object:
    """Open one more game socket (a second tab); how the server answered: the HTTP status of
    a refused handshake, else the first frame."""
    try:
        async with ws_connect(
            f"ws://127.0.0.1:{port}/ws/games/{game_id}/?format=json",
            additional_headers={"Cookie": cookie},
            origin=f"http://127.0.0.1:{port}",
            open_timeout=10,
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 10))
    except InvalidStatus as exc:
        return exc.response.status_code


def _start_daphne(env: dict, log_path: Path) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    log = open(log_path, "w")  # noqa: SIM115 (closed with the process, in the test)
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "skyjo_site.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"Daphne did not start: {log_path.read_text()}") from None
            time.sleep(0.1)


async def test_database_restart_loses_no_acknowledged_move(cluster, tmp_path):
    env = _site_env(cluster)
    site = await asyncio.to_thread(_django, env, SETUP % SEATS)
    server_log = tmp_path / "daphne.log"
    server, port = await asyncio.to_thread(_start_daphne, env, server_log)
    players = [
        FailoverPlayer(f"seat {i}", cookie, site["game"], [port], first=0)
        for i, cookie in enumerate(site["cookies"])
    ]
    outages: list[asyncio.Task] = []

    knocks = []  # how handshakes were answered while the database was down

    async def outage(mode: str) -> None:
        await asyncio.to_thread(cluster.stop, mode)
        knocks.append(await _knock(port, site["cookies"][0], site["game"]))
        await asyncio.sleep(DOWN)  # the players go on sending meanwhile
        await asyncio.to_thread(cluster.start)
        tab = FailoverPlayer("second tab", site["cookies"][0], site["game"], [port], first=0)
        knocks.append("state" if "version" in await tab.connect() else "no state")
        await tab.close()

    async def down_when_due(step: int, player: FailoverPlayer) -> None:
        if len(outages) < len(OUTAGES) and step >= OUTAGES[len(outages)][0]:
            outages.append(asyncio.create_task(outage(OUTAGES[len(outages)][1])))

    table = Table(players, after_send=down_when_due)
    try:
        await table.open()
        final = await table.play()
        await asyncio.gather(*outages)
    finally:
        await table.close()
        server.terminate()
        await asyncio.to_thread(server.wait, 10)
    stored_game = await asyncio.to_thread(_django, env, STORED, str(site["game"]))

    log = server_log.read_text()
    refusals = [e["error"]["code"] for p in players for e in p.errors]
    print(
        f"\n{len(table.moves)} moves and {len(table.readies)} readies acknowledged, "
        f"{table.resent} sent again; {len(refusals)} refusals {sorted(set(refusals))}, "
        f"{len(table.outages)} reconnects; server log: {len(log.splitlines())} lines, "
        f"{log.count('Traceback')} tracebacks"
    )
    assert len(outages) == len(OUTAGES)
    assert refusals, "no player noticed the outages"
    # A new socket is refused (403: connect again later) while the database is down, not
    # answered 500 with a traceback, and gets in once it is back.
    assert knocks == [403, "state"] * len(OUTAGES)
    stored = {v: (seat, action) for v, seat, action in stored_game["moves"]}
    acknowledged = {step.version: (step.seat, step.action) for step in table.moves}
    assert [v for v in acknowledged if stored.get(v) != acknowledged[v]] == []
    assert sorted(stored) == sorted(acknowledged)  # nothing stored that nobody saw applied
    assert stored_game["status"] == "finished"
    assert final["phase"] == "game_over"
    assert {**stored_game["view"], "version": stored_game["version"]} == {**final, "drawn": None}
    assert "Traceback" not in log, log
