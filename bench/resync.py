"""What the resync check of games/resync.py costs: its one query, for the games a
server process has sockets open on.

Run from the repository root, against the database to measure (it adds two players and
up to GAMES games to it the first time)::

    DATABASE_URL=postgres://... .venv/bin/python bench/resync.py

Each server process runs this query once every ``resync.CHECK_SECONDS``; prints its
median and 99th percentile over RUNS runs, for 50, 100 and 200 games.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import date
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from accounts.models import User  # noqa: E402
from accounts.services import register_player  # noqa: E402
from games import resync, services  # noqa: E402
from games.models import Game  # noqa: E402

GAMES = 200
RUNS = 200


def player(name: str) -> User:
    found = User.objects.filter(username=name).first()
    if found is not None:
        return found
    return register_player(
        username=name, password="a-long-Passw0rd!", date_of_birth=date(1990, 1, 1), country="GB"
    ).user


def main() -> None:
    one, two = player("bench-resync-one"), player("bench-resync-two")
    while Game.objects.filter(created_by=one).count() < GAMES:
        game = services.create_game(creator=one, variant="classic", opponent=two)
        services.accept_challenge(game_id=game.pk, user=two)
    ids = list(Game.objects.filter(created_by=one).values_list("pk", flat=True)[:GAMES])
    print(f"{connection.vendor}: one check's query (milliseconds)")
    for count in (50, 100, 200):
        resync.stored_versions(game_ids=ids[:count])  # warm
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            resync.stored_versions(game_ids=ids[:count])
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        print(f"{count:4} games: median {statistics.median(times):.2f}, p99 {times[int(RUNS * 0.99) - 1]:.2f}")


if __name__ == "__main__":
    main()
