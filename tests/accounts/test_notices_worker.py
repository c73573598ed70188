"""A Celery worker killed at a round's start, right after the round's transaction
commits (before any live push, before the task is acknowledged): the redelivered task
finds the round started and does nothing, and every paired player still has their
notice, exactly once (PostgreSQL, Redis, real worker processes)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.processes import ROOT, WORKER_COMMAND, scratch_database

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]
SCRIPT = str(Path(__file__).with_name("notices_worker_script.py"))


def script(env: dict[str, str], *args: object) -> str:
    done = subprocess.run([sys.executable, SCRIPT, *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def test_a_worker_killed_at_a_round_start_leaves_every_player_their_notice_once(tmp_path):
    with scratch_database(tmp_path) as env:
        queue = f"notices-kill-{uuid.uuid4().hex[:8]}"
        env = dict(env, LEAGUE_BROKER_VISIBILITY_TIMEOUT="3", NOTICE_TEST_QUEUE=queue)
        section_id = script(env, "setup")
        marker = tmp_path / "killed"
        worker = [*WORKER_COMMAND, "--without-mingle", "--without-gossip", "-Q", queue,
                  "--include", "tests.accounts.notices_worker_script"]
        with open(tmp_path / "worker-1.log", "wb") as log:
            first = subprocess.Popen(worker, cwd=ROOT, env=dict(env, NOTICE_KILL_MARKER=str(marker)), stdout=log,
                                     stderr=subprocess.STDOUT)
            try:
                script(env, "send", section_id)
                assert first.wait(timeout=180) == -signal.SIGKILL, (tmp_path / "worker-1.log").read_text()[-3000:]
            finally:
                if first.poll() is None:
                    first.kill()
        assert marker.exists()  # it died where the test meant: after the commit
        committed = json.loads(script(env, "count", section_id))
        assert committed["rounds"] == 1 and committed["pairings"] == 2

        with open(tmp_path / "worker-2.log", "wb") as log:
            second = subprocess.Popen(worker, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            try:
                # The redelivery (after the 3 s visibility timeout) reaches the new worker.
                deadline = time.monotonic() + 240
                while "league.start_round" not in (text := (tmp_path / "worker-2.log").read_text()) or \
                        "succeeded" not in text:
                    assert time.monotonic() < deadline, text[-3000:]
                    time.sleep(1)
            finally:
                second.terminate()
                second.wait(timeout=30)
        final = json.loads(script(env, "count", section_id))
        assert final["rounds"] == 1 and final["pairings"] == 2 and len(final["games"]) == 2
        assert len(final["notices"]) == 4 and set(final["notices"].values()) == {1}, final
        assert final["links"] == sorted(f"/play/{game}/" for game in final["games"] for _ in range(2))
