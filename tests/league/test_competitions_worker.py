"""Full tournaments in every format on the real runtime: PostgreSQL, Redis, a real
Celery worker process and a real Celery beat process (django-celery-beat starts round
1 from its one-off ClockedSchedule; the worker pairs, records results and schedules
the next rounds). AI-driven players move from a third process, as bot clients would.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.processes import ROOT, running, scratch_database

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

FORMATS = [
    ("single-elimination", 8, []),
    ("double-elimination", 6, []),
    ("round-robin", 5, []),
    ("swiss", 10, ["--rounds", "4", "--swiss-system", "fast"]),  # the worker is under test, not the pairer
    ("arena", 6, ["--arena-seconds", "12"]),
]


def _worker_and_beat(tmp_path):
    worker = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "threads", "--concurrency", "2",
              "-l", "INFO", "--without-mingle", "--without-gossip"]
    beat = [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO", "--max-interval", "1",
            "-s", str(tmp_path / "beat-schedule")]
    return worker, beat


def test_every_format_is_played_to_final_standings_on_a_real_worker_and_beat(tmp_path):
    with scratch_database(tmp_path) as env:
        worker, beat = _worker_and_beat(tmp_path)
        with running(worker, beat, env=env, log_dir=tmp_path):
            results = {}
            for index, (fmt, players, extra) in enumerate(FORMATS):
                done = subprocess.run(
                    [sys.executable, "manage.py", "play_competition", "--format", fmt, "--players", str(players),
                     "--prefix", f"w{index}-", "--start-in", "3", "--timeout", "240", "--rated", *extra],
                    cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                )
                logs = "".join(p.read_text()[-3000:] for p in tmp_path.glob("process-*.log"))
                assert done.returncode == 0, done.stderr[-3000:] + logs
                results[fmt] = json.loads(done.stdout.strip().splitlines()[-1])
        for fmt, players, _ in FORMATS:
            summary = results[fmt]
            assert summary["status"] == "finished", summary
            assert summary["standings"] == players, summary
            assert summary["one_pairing_each"], summary
            assert summary["top"][0][1] == 1, summary
            assert summary["games"] > 0 and summary["moves"] > 0, summary
        assert results["round-robin"]["rounds"] == 5
        assert results["swiss"]["rounds"] == 4
        assert results["single-elimination"]["games"] >= 7  # 7 matches, drawn ones replayed
