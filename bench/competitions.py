"""A Swiss played end to end through Celery: 256 players, 8 rounds, AI-driven players.

Run from the repository root with PostgreSQL and Redis up on 127.0.0.1::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ttt REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/competitions.py [--players 256 --rounds 8 --drivers 2 --worker-concurrency 2]

A scratch PostgreSQL database (created, migrated, dropped) and an empty Redis database
(flushed after); a real Celery worker (prefork) and beat. Beat starts round 1 from its
one-off ClockedSchedule; the worker pairs every round (league.formats.swiss), creates
the games through games.services, records each result and schedules the next round.
``manage.py play_competition`` registers the players and makes their moves with the
"random" AI level through games.services.submit_move (as bot clients would), in
``--drivers`` processes. Printed: wall time from the first pairing to the final
standings, games, moves and moves per second, rounds, and the per-round timings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.processes import running, scratch_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--format", default="swiss")
    parser.add_argument("--swiss-system", choices=("dutch", "fast"), default="fast",
                        help="a Swiss's pairing system (default fast: the figures in docs/benchmarks.md)")
    parser.add_argument("--drivers", type=int, default=2)
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--rated", action="store_true", help="Rated games (the worker rates each one too).")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: this benchmark runs on the real services.")
    with tempfile.TemporaryDirectory(prefix="ttt-competitions-") as tmp, scratch_database(Path(tmp)) as env:
        env = dict(env, DJANGO_DEBUG="0", LOG_LEVEL="WARNING")
        worker = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency",
                  str(args.worker_concurrency), "-l", "WARNING", "--without-mingle", "--without-gossip"]
        beat = [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "WARNING", "--max-interval", "1",
                "-s", str(Path(tmp) / "beat-schedule")]
        with running(worker, beat, env=env, log_dir=Path(tmp)):
            time.sleep(3)  # the worker's pool is up before round 1
            command = [sys.executable, "manage.py", "play_competition", "--format", args.format,
                       "--players", str(args.players), "--rounds", str(args.rounds), "--start-in", "30",
                       "--drivers", str(args.drivers), "--timeout", "3600"]
            if args.rated:
                command.append("--rated")
            if args.format == "swiss":
                command += ["--swiss-system", args.swiss_system]
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
            if done.returncode:
                sys.exit(done.stderr[-4000:])
            summary = json.loads(done.stdout.strip().splitlines()[-1])
            rounds = subprocess.run(
                [sys.executable, "-c", _ROUND_TIMES, str(summary["section"])], cwd=ROOT, env=env,
                capture_output=True, text=True, check=True,
            ).stdout
    print(f"{args.format}: {summary['players']} players, {summary['rounds']} rounds, status {summary['status']}")
    print(f"wall time (first pairing to final standings): {summary['wall_seconds']:.1f} s")
    print(f"games: {summary['games']}, moves: {summary['moves']}, moves/s: {summary['moves_per_second']}")
    print(f"drivers: {args.drivers}, worker concurrency: {args.worker_concurrency}, rated: {args.rated}")
    print(rounds.rstrip())
    print("top:", summary["top"])


_ROUND_TIMES = """
import sys, django
django.setup()
from league.models import Round
rows = Round.objects.filter(section_id=int(sys.argv[1])).order_by("number")
from django.db.models import Max
for r in rows:
    late = (r.started_at - r.starts_at).total_seconds() if r.started_at else float("nan")
    paired = r.pairings.aggregate(m=Max("created_at"))["m"]
    pairing = (paired - r.started_at).total_seconds() if paired and r.started_at else float("nan")
    play = (r.finished_at - r.started_at).total_seconds() if r.finished_at and r.started_at else float("nan")
    print(f"round {r.number}: started {late:+.2f} s after due, {r.pairings.count()} boards paired and their "
          f"games created in {pairing:.2f} s, round over {play:.1f} s after its start")
"""


if __name__ == "__main__":
    main()
