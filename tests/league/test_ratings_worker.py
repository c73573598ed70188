"""Exactly once when the process rating a game is killed (kill -9) in the middle:
its transaction dies with it, and the task run again applies the game once.

With Redis, a real Celery worker is killed while it holds the task unacknowledged
(acks_late); the broker redelivers it after the visibility timeout to a new worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.processes import ROOT, WORKER_COMMAND, scratch_database

pytestmark = pytest.mark.slow
SCRIPT = str(Path(__file__).with_name("ratings_worker_script.py"))


def script(env: dict[str, str], *args: object) -> str:
    done = subprocess.run([sys.executable, SCRIPT, *map(str, args)], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def wait_for(path: Path, process: subprocess.Popen, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None:
            raise AssertionError(f"the process ended ({process.returncode}) before it paused")
        if time.monotonic() > deadline:
            raise TimeoutError("the rating task never reached its pause")
        time.sleep(0.1)


def paused(env: dict[str, str], marker: Path) -> dict[str, str]:
    return dict(env, LEAGUE_RATING_PAUSE_AFTER_WRITE="120", LEAGUE_RATING_PAUSE_MARKER=str(marker))


def test_a_process_killed_mid_task_leaves_nothing_and_the_rerun_applies_once(tmp_path):
    with scratch_database(tmp_path) as env:
        game_id = script(env, "setup")
        marker = tmp_path / "paused"
        process = subprocess.Popen([sys.executable, SCRIPT, "run", game_id], cwd=ROOT, env=paused(env, marker))
        wait_for(marker, process)  # its rows are written, not committed
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert script(env, "count", game_id) == "0 0"
        script(env, "run", game_id)
        script(env, "run", game_id)
        assert script(env, "count", game_id) == "2 1"


@pytest.mark.redis
def test_a_celery_worker_killed_mid_task_gets_it_redelivered_and_applied_once(tmp_path):
    with scratch_database(tmp_path) as env:
        # A queue of its own: another run's worker on the same Redis database must not take the task.
        queue = f"ratings-kill-{uuid.uuid4().hex[:8]}"
        env = dict(env, LEAGUE_BROKER_VISIBILITY_TIMEOUT="3", RATING_TEST_QUEUE=queue)
        game_id = script(env, "setup")
        marker = tmp_path / "paused"
        # --include: the worker loads the script's pause (it pauses only where the env asks).
        worker = [*WORKER_COMMAND, "--without-mingle", "--without-gossip", "-Q", queue,
                  "--include", "tests.league.ratings_worker_script"]
        log = open(tmp_path / "worker-1.log", "wb")  # noqa: SIM115
        first = subprocess.Popen(worker, cwd=ROOT, env=paused(env, marker), stdout=log, stderr=subprocess.STDOUT)
        try:
            script(env, "send", game_id)
            wait_for(marker, first)
        finally:
            os.kill(first.pid, signal.SIGKILL)
            first.wait()
        assert script(env, "count", game_id) == "0 0"
        log2 = open(tmp_path / "worker-2.log", "wb")  # noqa: SIM115
        second = subprocess.Popen(worker, cwd=ROOT, env=env, stdout=log2, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 240  # generous: the machine is shared and often loaded
            while script(env, "count", game_id) != "2 1":
                assert time.monotonic() < deadline, (tmp_path / "worker-2.log").read_text()[-3000:]
                time.sleep(1)
            time.sleep(5)  # any second delivery would land now
            assert script(env, "count", game_id) == "2 1"
        finally:
            second.terminate()
            second.wait(timeout=30)
