"""Two-stage events on the real runtime (PostgreSQL, Redis, a real Celery worker and
beat), played by AI players through ``manage.py play_competition --stages``: groups of 4
then an 8-player knockout, and a Swiss then its top 4. The worker carries the players
over (league.carry_over) when the first stage's last game ends."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from league.formats.single_elimination import bracket_order
from league.formats.stages import knockout_seeds
from tests.processes import ROOT, running, scratch_database

from .test_competitions_worker import _worker_and_beat

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

PRESETS = [
    ("groups-knockout", 16, []),
    ("swiss-top4", 8, ["--rounds", "3", "--swiss-system", "fast"]),  # the carry-over is under test
]


def _ranked(table):
    """Usernames by final rank, ties by the better seed (as the carry-over takes them)."""
    return [row["username"] for row in sorted(table, key=lambda row: (row["rank"], row["seed"]))]


def _seed_order(table):
    return [row["username"] for row in sorted(table, key=lambda row: row["seed"])]


def test_two_stage_events_are_carried_over_and_played_to_the_podium_on_a_real_worker(tmp_path):
    with scratch_database(tmp_path) as env:
        worker, beat = _worker_and_beat(tmp_path)
        with running(worker, beat, env=env, log_dir=tmp_path):
            results = {}
            for index, (preset, players, extra) in enumerate(PRESETS):
                done = subprocess.run(
                    [sys.executable, "manage.py", "play_competition", "--stages", preset, "--players", str(players),
                     "--prefix", f"s{index}-", "--start-in", "3", "--timeout", "240", *extra],
                    cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                )
                logs = "".join(p.read_text()[-3000:] for p in tmp_path.glob("process-*.log"))
                assert done.returncode == 0, done.stderr[-3000:] + logs
                results[preset] = json.loads(done.stdout.strip().splitlines()[-1])

    for preset, players, _ in PRESETS:
        summary = results[preset]
        first, knockout = summary["stages"]
        assert first["status"] == knockout["status"] == "finished", summary
        assert summary["tournament"] == "finished", summary
        assert first["standings"] == players and first["one_pairing_each"], summary
        assert knockout["top"][0][1] == 1 and knockout["one_pairing_each"], summary

    # Groups of 4, then the top 2 of each group: A1 B1 C1 D1 on top, crossed over.
    first, knockout = results["groups-knockout"]["stages"]
    assert first["rounds"] == 3 and first["format"] == "round-robin"
    groups = sorted({row["group"] for row in first["table"]})
    assert groups == ["A", "B", "C", "D"]
    assert all(sum(row["group"] == g for row in first["table"]) == 4 for g in groups)
    qualifiers = [[u for u in _ranked(first["table"]) if {r["username"]: r["group"] for r in first["table"]}[u] == g][:2]
                  for g in groups]
    seeds = _seed_order(knockout["table"])
    assert seeds == knockout_seeds(qualifiers)
    assert seeds[:4] == [q[0] for q in qualifiers]  # group winners are seeds 1-4
    placed = [seeds[s - 1] for s in bracket_order(8)]
    for winner, runner_up in qualifiers:
        assert (placed.index(winner) < 4) != (placed.index(runner_up) < 4)  # opposite halves
    assert knockout["players"] == 8 and knockout["rounds"] == 3

    # A Swiss of 8 in 3 rounds, then its top 4 by rank.
    first, knockout = results["swiss-top4"]["stages"]
    assert first["rounds"] == 3
    assert _seed_order(knockout["table"]) == _ranked(first["table"])[:4]
    assert knockout["players"] == 4 and knockout["rounds"] == 2
