"""Run by the killed-worker tests as a separate process against a scratch database.

    python tests/league/ratings_worker_script.py setup      -> prints a finished rated game's id
    python tests/league/ratings_worker_script.py run GAME   -> runs the rating task here
    python tests/league/ratings_worker_script.py send GAME  -> queues it on the broker
    python tests/league/ratings_worker_script.py count GAME -> "<changes> <games of the winner>"

With LEAGUE_RATING_PAUSE_AFTER_WRITE (seconds) set, the rating task pauses after
writing a game's rows, before its commit, and first writes its pid to the file
LEAGUE_RATING_PAUSE_MARKER names: the moment the test kills it. The killed Celery
worker loads this module too (``--include``) to get the same pause.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import django

django.setup()

from datetime import date  # noqa: E402

from games.models import Game  # noqa: E402
from league import tasks  # noqa: E402
from league.models import Rating, RatingChange  # noqa: E402
from league.ratings import services as rating_services  # noqa: E402

PAUSE_ENV = "LEAGUE_RATING_PAUSE_AFTER_WRITE"
PAUSE_MARKER_ENV = "LEAGUE_RATING_PAUSE_MARKER"


def pause_after_writing_if_asked() -> None:
    """Wrap the service's write of a game's rows: written, uncommitted, then a pause."""
    seconds = float(os.environ.get(PAUSE_ENV, "0") or 0)
    if not seconds:
        return
    apply_periods = rating_services._apply_periods

    def apply_then_pause(*args, **kwargs) -> None:
        apply_periods(*args, **kwargs)
        marker = os.environ.get(PAUSE_MARKER_ENV)
        if marker:
            Path(marker).write_text(str(os.getpid()))
        time.sleep(seconds)

    rating_services._apply_periods = apply_then_pause


pause_after_writing_if_asked()


def main(command: str, game_id: int | None = None) -> None:
    if command == "setup":
        from tests.factories import PlayerFactory, finished_game

        users = [
            PlayerFactory.create(username=f"killtest{n}", date_of_birth=date(1990, 1, 1), guardian_name="G",
                                 guardian_email="g@example.com")
            for n in (1, 2)
        ]
        print(finished_game(users[0], users[1]).pk)
    elif command == "run":
        tasks.rate_game.apply(args=[game_id], throw=True)
    elif command == "send":  # to the test's own queue: other runs' workers may share the Redis database
        tasks.rate_game.apply_async(args=[game_id], queue=os.environ.get("RATING_TEST_QUEUE", "celery"))
    elif command == "count":
        assert game_id is not None
        game = Game.objects.get(pk=game_id)
        assert game.winner_seat is not None  # the loser resigned
        winner = game.seats.get(number=game.winner_seat).user_id
        assert winner is not None
        rating = Rating.objects.filter(user_id=winner, list_key="league").first()
        print(RatingChange.objects.filter(game_id=game_id).count(), rating.games if rating else 0)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else None)
