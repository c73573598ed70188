"""What the observer sweep (games.observing.sweep_stale_observers) costs, by the rows it
reads: N rows whose sockets are alive (kept: every one asked of Redis) and N rows a dead
server left (deleted, and their games told the new count). docs/benchmarks.md.

Run from the repository root against a migrated PostgreSQL database and Redis (it adds
its own rows to game 1 and removes them)::

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python bench/observer_sweep.py 1500 10000
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from datetime import timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
django.setup()

import redis  # noqa: E402
from django.conf import settings  # noqa: E402

from games import observing  # noqa: E402
from games.models import Game, Observer  # noqa: E402


def rows(game: Game, count: int) -> list[str]:
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    names = [f"{prefix}specific.bench{uuid.uuid4().hex}" for _ in range(count)]
    Observer.objects.bulk_create(Observer(game=game, channel_name=name) for name in names)
    Observer.objects.filter(channel_name__in=names).update(joined_at=game.created_at)  # old enough to sweep
    return names


def main(sizes: list[int]) -> None:
    game = Game.objects.order_by("pk").first()
    assert game is not None, "needs a game (manage.py seed_demo)"
    client = redis.Redis.from_url(settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"])
    for count in sizes:
        alive = rows(game, count)
        listener = client.pubsub()
        for start in range(0, count, 1000):
            listener.subscribe(*alive[start : start + 1000])
        started = time.perf_counter()
        swept = observing.sweep_stale_observers(older_than=timedelta(0))
        kept_ms = (time.perf_counter() - started) * 1000
        listener.close()
        Observer.objects.filter(channel_name__in=alive).delete()
        assert swept == 0, swept

        rows(game, count)
        started = time.perf_counter()
        swept = observing.sweep_stale_observers(older_than=timedelta(0))
        dead_ms = (time.perf_counter() - started) * 1000
        assert swept == count, swept
        print(f"{count:>6} rows: all alive (kept) {kept_ms:7.1f} ms; all dead (deleted) {dead_ms:7.1f} ms")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1500])
