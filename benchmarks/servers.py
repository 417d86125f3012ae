"""The processes a relay run starts or watches: private Redis and PostgreSQL, Daphne, and
their CPU time read from /proc (so that a run on a shared machine counts only its own)."""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as /proc/loadavg prints them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int, *, reaped_children: bool = False) -> float:
    """User + system CPU of a process (all its threads); with ``reaped_children`` also that of
    its children which ended and were waited for (PostgreSQL's per-connection backends)."""
    try:
        fields = _stat(pid)
    except FileNotFoundError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLOCK_TICKS


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError, IndexError):
                if int(_stat(int(entry.name))[1]) == pid:
                    found.append(int(entry.name))
    return found


def wait_for_port(port: int, process: subprocess.Popen, what: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise SystemExit(f"{what} stopped at start: see {log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit(f"{what} did not listen within 60 s") from None
            time.sleep(0.1)


class PrivateRedis:
    """A ``redis-server`` of this run only, on a free loopback port."""

    def __init__(self, workdir: Path):
        server = shutil.which("redis-server")
        if server is None:
            raise SystemExit("--redis private needs redis-server (apt-get install redis-server)")
        self.port = free_port()
        self.log = workdir / "redis.log"
        self.process = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
            + ["--appendonly", "no", "--maxclients", "10000"],
            cwd=workdir,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.port, self.process, "redis-server", self.log)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


class SharedRedis:
    """A Redis given by URL: its CPU from ``INFO cpu`` (the whole server, maybe shared)."""

    def __init__(self, url: str):
        self.url = url

    def cpu(self) -> float:
        import redis

        info = redis.Redis.from_url(self.url).info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def stop(self) -> None:
        pass


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (trust auth, loopback, a free port, a temp dir), as
    scripts/_postgres.sh starts one; its CPU is the postmaster's and all its backends'."""

    def __init__(self):
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name)
        if not bins:
            raise SystemExit("--postgres private needs PostgreSQL (apt-get install postgresql)")
        self.bindir = bins[-1]
        self.dir = Path(tempfile.mkdtemp(prefix="skyjo-relay-pg-"))
        self.run = []
        if os.getuid() == 0:  # initdb refuses to run as root
            shutil.chown(self.dir, "postgres")
            self.run = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        quiet = {"stdout": subprocess.DEVNULL, "check": True}
        subprocess.run(
            [*self.run, self.bindir / "initdb", "-D", self.dir / "data", "-U", "postgres"]
            + ["--auth=trust"],
            **quiet,
        )
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        options += " -c max_connections=400"
        subprocess.run(
            [*self.run, self.bindir / "pg_ctl", "-D", self.dir / "data", "-l", self.dir / "log"]
            + ["-w", "-o", options, "start"],
            **quiet,
        )
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        self.pid = int((self.dir / "data" / "postmaster.pid").read_text().split()[0])

    def cpu(self) -> float:
        total = cpu_seconds(self.pid, reaped_children=True)
        return total + sum(cpu_seconds(pid) for pid in children(self.pid))

    def stop(self) -> None:
        subprocess.run(
            [*self.run, self.bindir / "pg_ctl", "-D", self.dir / "data", "-m", "fast", "-w"]
            + ["stop"],
            stdout=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


class NoCpu:
    """A server whose CPU this run cannot see (SQLite: it is inside the Daphne process)."""

    def cpu(self) -> float:
        return 0.0


def make_postgres_db(url: str, tag: str) -> tuple[str, str]:
    """A fresh database on the server of ``url``; returns (its URL, its name)."""
    import psycopg

    name = f"skyjo_relay_{os.getpid()}_{tag}"
    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}")), name


def drop_postgres_db(url: str, name: str) -> None:
    import psycopg

    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_daphne(
    env: dict, workdir: Path, name: str, application: str, connect_timeout: int
) -> tuple[subprocess.Popen, int]:
    """One Daphne process on a free loopback port, with the handshake timeout that
    docs/deployment.md recommends (Daphne's own default is 5 s)."""
    port = free_port()
    log = workdir / f"daphne-{name}.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        + ["--websocket_connect_timeout", str(connect_timeout), application],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    wait_for_port(port, process, "Daphne", log)
    return process, port


def stop_all(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
