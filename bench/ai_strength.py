"""How the AI levels fare against each other: whole games through the public contract.

Run from the repository root::

    .venv/bin/python bench/ai_strength.py --variant tactic-toe --levels strong,casual --games 200

The two levels swap seats every game. Each side moves from what it may know: the
seats that move together (a Tactic-Toe round's plans) choose from the same position,
before either move is applied, as the platform's AI seats choose from the state without
the other's unrevealed plan (games.services). Prints the first level's wins, ties,
draws and losses, and the slowest move of each level. Seeded (``--seed``): the same
command gives the same games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import get_variant
from games.rules.ai import choose_move


def play(variant_slug: str, levels: tuple[str, str], seed: int, slowest: dict[str, float]) -> tuple[str, int | None]:
    """One game, ``levels[i]`` in seat i: its result and winning seat."""
    variant = get_variant(variant_slug)
    state = variant.new_game({}, seed=seed)
    rng = random.Random(seed)
    while (outcome := variant.outcome(state)) is None:
        seats = list(state.to_move)
        chosen = []
        for seat in seats:  # all from the same position: nobody sees a move made alongside
            started = time.process_time()
            chosen.append((seat, choose_move(variant, state, seat, levels[seat], rng)))
            slowest[levels[seat]] = max(slowest[levels[seat]], time.process_time() - started)
        for seat, move in chosen:
            state = variant.apply(state, seat, move)
    return outcome.result, outcome.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="tactic-toe")
    parser.add_argument("--levels", default="strong,casual", help="first,second (random, casual, strong)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    first, second = args.levels.split(",")
    tally: Counter[str] = Counter()
    slowest = {first: 0.0, second: 0.0}
    started = time.perf_counter()
    for n in range(args.games):
        seats = (first, second) if n % 2 == 0 else (second, first)
        result, winner = play(args.variant, seats, args.seed * 100_000 + n, slowest)
        if result == "win":  # the first level holds seat 0 in even games, seat 1 in odd ones
            tally["win" if (n % 2 == 0) == (winner == 0) else "loss"] += 1
        else:
            tally[result] += 1
    games = args.games
    print(f"{args.variant}: {first} against {second}, {games} games, seats swapped each game, seed {args.seed}")
    for key, words in (("win", "wins"), ("tie", "ties"), ("draw", "draws"), ("loss", "losses")):
        print(f"  {words:6} {tally[key]:5}  {100 * tally[key] / games:5.1f}%")
    print(f"  slowest move: {first} {slowest[first]:.2f} s, {second} {slowest[second]:.2f} s (CPU);"
          f" {time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
