"""The processes a relay run starts or watches: private Redis and PostgreSQL, Daphne, and
their CPU time read from /proc (so that a run on a shared machine counts only its own).
A server is ``(url, cpu, stop)``: ``cpu()`` its CPU seconds so far, ``stop()`` ends it."""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONNECT_TIMEOUT = 30  # docs/deployment.md: Daphne's --websocket_connect_timeout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_seconds(pid: int, *, reaped_children: bool = False) -> float:
    """User + system CPU of a process (all its threads); with ``reaped_children`` also that of
    its ended children (PostgreSQL's per-connection backends)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    ticks = [int(f) for f in stat[11:15]]
    return sum(ticks if reaped_children else ticks[:2]) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in task.read_text().split()]
    return found


def no_cpu() -> float:
    """A server whose CPU this run cannot see (SQLite: it is inside the Daphne process)."""
    return 0.0


def start(command: list, log: Path, port: int, wait=60, **options) -> subprocess.Popen:
    """``command`` started with its output in ``log``, once it listens on ``port`` (within
    ``wait`` seconds)."""
    process = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT, **options)
    deadline = time.monotonic() + wait
    while True:
        if process.poll() is not None:
            raise SystemExit(f"{command[:3]} stopped at start: see {log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise SystemExit(f"{command[:3]} did not listen within {wait} s") from None
            time.sleep(0.1)


def stop_all(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def redis_server(url: str, workdir: Path) -> tuple:
    """``url`` as it is (its CPU unseen), or with "private" a ``redis-server`` of this run only
    on a free loopback port."""
    if url != "private":
        return url, no_cpu, lambda: None
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("no redis-server: apt-get install redis-server, or give a Redis URL")
    port = free_port()
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--maxclients", "10000"]
    process = start(command, workdir / "redis.log", port, cwd=workdir)
    url = f"redis://127.0.0.1:{port}/0"
    return url, lambda: cpu_seconds(process.pid), lambda: stop_all([process])


def private_postgres() -> tuple:
    """A throw-away PostgreSQL cluster (trust auth, loopback, a free port, a temp dir), as
    scripts/_postgres.sh starts one; its CPU is the postmaster's and all its backends'."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name)
    if not bins:
        raise SystemExit("--postgres private needs PostgreSQL (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="skyjo-relay-pg-"))
    run = []
    if os.getuid() == 0:  # initdb refuses to run as root
        shutil.chown(folder, "postgres")
        run = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    ctl = [*run, bins[-1] / "pg_ctl", "-D", folder / "data", "-w"]
    initdb = [*run, bins[-1] / "initdb", "-D", folder / "data", "-U", "postgres", "--auth=trust"]
    subprocess.run(initdb, stdout=subprocess.DEVNULL, check=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=400"
    subprocess.run(
        [*ctl, "-l", folder / "log", "-o", options, "start"], stdout=subprocess.DEVNULL, check=True
    )
    pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])

    def cpu() -> float:
        return cpu_seconds(pid, reaped_children=True) + sum(map(cpu_seconds, children(pid)))

    def stop() -> None:
        subprocess.run([*ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL, check=False)
        shutil.rmtree(folder, ignore_errors=True)

    return f"postgres://postgres@127.0.0.1:{port}/postgres", cpu, stop


def start_daphne(
    env: dict, workdir: Path, name: str, application: str, server: str = "daphne"
) -> tuple:
    """One server process on a free loopback port; returns (process, port). Daphne with the
    handshake timeout that docs/deployment.md recommends (its own default is 5 s), or
    (``server="uvicorn"``, to compare) uvicorn with uvloop, httptools and websockets."""
    port = free_port()
    if server == "uvicorn":
        command = [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port)]
        command += ["--loop", "uvloop", "--http", "httptools", "--ws", "websockets"]
        command += ["--no-access-log", "--lifespan", "off", application]
    else:
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        command += ["--websocket_connect_timeout", str(CONNECT_TIMEOUT), application]
    return start(command, workdir / f"{server}-{name}.log", port, cwd=ROOT, env=env), port
