"""The analysis worker process does not outlive the server process that started it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# A server process: starts the worker (as the bot runner does on its first finished game),
# says the worker's pid, and waits to be killed.
SERVER = """
import time
from analysis import worker
worker.submit({}, []).result(timeout=120)
print(*worker._pool._processes, flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
    """``pid`` is a process that has not ended (an ended one not yet reaped is a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_the_worker_ends_when_its_server_process_is_killed():
    """``kill -9`` of a Daphne process gives it no chance to stop its worker: the worker must
    notice and end by itself (it used to wait for work for ever, one idle process per crash)."""
    root = Path(__file__).resolve().parents[2]
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], cwd=root, stdout=subprocess.PIPE, text=True
    )
    worker_pid = int(server.stdout.readline())
    assert _running(worker_pid)
    server.kill()
    server.wait()
    deadline = time.monotonic() + 15
    while _running(worker_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        assert not _running(worker_pid), "the worker outlived its server process"
    finally:
        if _running(worker_pid):
            os.kill(worker_pid, signal.SIGKILL)
