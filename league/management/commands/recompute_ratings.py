"""Recompute every rating from the game log, with a progress bar."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from league.ratings import recompute


class Command(BaseCommand):
    help = "Recompute every rating (all lists, all variants) from the finished rated games, in the order they ended."

    def handle(self, *args: Any, **options: Any) -> None:
        bar = tqdm(total=0, unit="game", disable=options["verbosity"] == 0)

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        result = recompute.recompute_all(progress=progress)
        bar.close()
        self.stdout.write(
            f"Rated {result.games} games ({result.changes} rating changes) in {result.seconds:.1f} s."
        )
