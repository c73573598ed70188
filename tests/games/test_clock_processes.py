"""The clock check as it runs: the platform's real processes (Celery beat and a worker
with PostgreSQL and Redis; the embedded runtime's own otherwise) end an abandoned game
on time, and say nothing about it at INFO every 5 s (docs/operations.md)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.processes import ROOT, free_port, platform_commands, running, scratch_database, wait_for_port

pytestmark = pytest.mark.slow

ABANDONED = """
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Game
lucia, sam = User.objects.get(username="lucia"), User.objects.get(username="sam")
game = services.create_game(creator=lucia, variant="classic", opponent=sam, creator_seat=0)
services.accept_challenge(game_id=game.pk, user=sam)
services.submit_move(game_id=game.pk, user=lucia, ply=0, move={"cell": 5})
# Sam walked away ten minutes ago: past the standard 3 min game clock.
Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(minutes=10))
print(game.pk)
"""

STATUS = """
from games.models import Game
game = Game.objects.get(pk={pk})
print(game.status, game.winner_seat, game.end_reason)
"""


def shell(env: dict[str, str], code: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    return done.stdout.strip().splitlines()[-1]


def test_the_periodic_clock_check_ends_an_abandoned_game_quietly(tmp_path):
    port = free_port()
    with scratch_database(tmp_path) as env:
        game_id = int(shell(env, ABANDONED))
        assert shell(env, STATUS.format(pk=game_id)).startswith("active")
        with running(*platform_commands(port), env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            deadline = time.monotonic() + 90
            status = ""
            while time.monotonic() < deadline:
                status = shell(env, STATUS.format(pk=game_id))
                if not status.startswith("active"):
                    break
                time.sleep(1)
            time.sleep(6)  # at least one more clock check, to read its (absent) log lines
        assert status == "finished 0 Player 2 ran out of time."
        logs = "".join(path.read_text(errors="replace") for path in sorted(tmp_path.glob("process-*.log")))
        # Celery ran, and its routine lines about the clock check (beat's "Sending due
        # task ... (games.flag_expired_clocks)", the worker's "Task
        # games.flag_expired_clocks[...] received/succeeded") stayed out of the log.
        assert "beat: Starting" in logs or "Embedded Celery worker and beat started" in logs, logs[-3000:]
        assert "(games.flag_expired_clocks)" not in logs and "games.flag_expired_clocks[" not in logs, logs[-3000:]
