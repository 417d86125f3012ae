"""The README's first command, as a newcomer runs it: ``scripts/run`` serves with Daphne itself
(not the development server and its file watcher), and e-mails link to the address it serves."""

import urllib.request
from pathlib import Path

from scripts.blackbox import start_server, stop_server


def server_commands(pid: int) -> list[str]:
    """The command lines of ``pid``'s process group."""
    commands = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[2]) == pid:  # its process group
                commands.append((proc / "cmdline").read_text().replace("\0", " "))
        except (OSError, IndexError, ValueError):
            continue
    return commands


def test_scripts_run_serves_with_daphne_and_mails_link_to_its_address(tmp_path):
    log = tmp_path / "run.log"
    process, base, _ = start_server(log, bot_delay=0.5)
    try:
        with urllib.request.urlopen(base + "/", timeout=10) as response:
            assert response.status == 200
        commands = server_commands(process.pid)
        assert any("daphne" in c and "skyjo_site.asgi:application" in c for c in commands)
        assert not any("runserver" in c for c in commands), commands
        assert f"e-mails link to {base}" in log.read_text()
    finally:
        stop_server(process)
