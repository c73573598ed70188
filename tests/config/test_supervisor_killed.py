"""uvicorn with --workers (the Procfile's `web`): its supervisor killed outright left its
server processes behind, still serving the port on the old code, so the `web` started
again failed with "address already in use" (a chaos probe, kill -9 of the server). Each
server process now leaves when its supervisor is gone (config/supervision.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.processes import ROOT, free_port, scratch_database, uvicorn_command, wait_for_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(child) for child in found]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"  # a zombie has left


def test_the_server_processes_leave_when_their_supervisor_is_killed(tmp_path):
    port = free_port()
    with scratch_database(tmp_path) as env, open(tmp_path / "web.log", "w") as log:
        supervisor = subprocess.Popen(uvicorn_command(port, "--workers", "2"), cwd=ROOT, env=env, stdout=log,
                                      stderr=subprocess.STDOUT)
        servers: list[int] = []
        try:
            wait_for_port(port, timeout=90, process=supervisor)
            deadline = time.monotonic() + 60
            while len(servers) < 2 and time.monotonic() < deadline:  # the two server processes
                servers = [pid for pid in children(supervisor.pid)  # not its resource tracker
                           if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
                time.sleep(0.5)
            assert len(servers) >= 2, servers
            supervisor.send_signal(signal.SIGKILL)
            supervisor.wait(10)
            deadline = time.monotonic() + 30
            while any(alive(pid) for pid in servers) and time.monotonic() < deadline:
                time.sleep(0.5)
            assert not any(alive(pid) for pid in servers), (tmp_path / "web.log").read_text()[-3000:]
        finally:
            for pid in servers:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
