"""What issue #18's periodic and per-keystroke reads cost, by the rows they read:

- the clock check (games.services.flag_expired_clocks, every 5 s): N games in play,
  none due, so the figure is the read that runs every time;
- the player search (accounts.players.search_players, per keystroke): among N players;
- the presence sweep (accounts.presence.sweep_stale_presence, every 15 s): N rows whose
  server died (all deleted).

Run from the repository root against a migrated scratch PostgreSQL database and Redis
(it adds rows and removes them; docs/benchmarks.md)::

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python bench/lobby.py 1000 10000
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from datetime import timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
django.setup()

from django.conf import settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts import players, presence  # noqa: E402
from accounts.models import Presence, User  # noqa: E402
from games import rule_sets, services  # noqa: E402
from games.models import Game, Seat  # noqa: E402


def timed(call, repeat: int = 5) -> float:
    """The median wall time of ``call`` in ms."""
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs)


def main(sizes: list[int]) -> None:
    tag = uuid.uuid4().hex[:6]
    rules = rule_sets.standard_rule_set("classic")  # 3 min per game
    for count in sizes:
        people = User.objects.bulk_create(User(username=f"b{tag}{count}x{i}", is_active=True) for i in range(count))
        now = timezone.now()
        games = Game.objects.bulk_create(
            Game(rule_set=rules, variant="classic", status=Game.Status.ACTIVE, seed="0", seed_hash="0", ply=1,
                 to_move=[1], turn_started_at=now, started_at=now)
            for _ in range(count)
        )
        Seat.objects.bulk_create(
            Seat(game=game, number=n, user=people[(i + n) % count], clock_ms=180_000)
            for i, game in enumerate(games) for n in (0, 1)
        )
        check_ms = timed(lambda at=now + timedelta(seconds=1): services.flag_expired_clocks(now=at))
        assert Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.ACTIVE).count() == count

        search_ms = timed(lambda query=f"b{tag}{count}x12": players.search_players(query))

        prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "")
        Presence.objects.bulk_create(
            Presence(user=person, channel_name=f"{prefix}specific.bench{uuid.uuid4().hex}") for person in people
        )
        Presence.objects.filter(user__in=people).update(connected_at=now - timedelta(minutes=5))
        started = time.perf_counter()
        swept = presence.sweep_stale_presence(older_than=timedelta(0))
        sweep_ms = (time.perf_counter() - started) * 1000
        assert swept == count, swept

        Game.objects.filter(pk__in=[g.pk for g in games]).delete()
        User.objects.filter(pk__in=[p.pk for p in people]).delete()
        print(f"{count:>6}: clock check {check_ms:7.1f} ms (games in play, none due); "
              f"search {search_ms:6.1f} ms (players); presence sweep {sweep_ms:7.1f} ms (dead rows)")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1000])
