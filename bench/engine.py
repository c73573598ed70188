"""Rules-engine benchmark: moves per second, the classic game tree, AI move latency.

Run from the repository root::

    .venv/bin/python bench/engine.py                 # every variant, ~1-2 minutes
    .venv/bin/python bench/engine.py --quick         # a fast look
    .venv/bin/python bench/engine.py --variant classic

Every variant in ``variant_slugs()`` is measured through the public contract only
(``new_game``, ``random_move``, ``apply``, ``outcome``, ``games.rules.ai.choose_move``),
so variants added later are picked up without changes here.

- moves/s: random playouts; each move is drawn with ``random_move``, applied, and the
  outcome checked after it. The time includes ``new_game`` once per playout.
- classic tree: the whole game tree walked with ``legal_moves``/``apply``/``outcome``
  (549,945 moves, 255,168 games).
- AI latency: ``choose_move`` at each level from positions sampled along random
  playouts (varied openings, middles and ends); the first call is reported apart
  ("cold": it may build tables), then p50/p99 of the following calls.

The machine is often shared: "moves/CPU-s" divides by this process's CPU time, which
other processes disturb less than the wall clock (``os.getloadavg`` is printed too).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from games.rules import RuleError, get_variant, variant_slugs  # noqa: E402
from games.rules.ai import LEVELS, choose_move  # noqa: E402
from games.rules.base import State, Variant  # noqa: E402

MAX_PLIES = 2000


def random_playout(variant: Variant, rng: random.Random, seed: int) -> tuple[int, list[State]]:
    """One random game; returns (moves applied, the states before each move)."""
    state = variant.new_game(None, seed=seed)
    before: list[State] = []
    moves = 0
    while state.to_move and moves < MAX_PLIES:
        seat = rng.choice(state.to_move)
        before.append(state)
        state = variant.apply(state, seat, variant.random_move(state, seat, rng))
        variant.outcome(state)
        moves += 1
    return moves, before


def moves_per_second(variant: Variant, seconds: float) -> tuple[float, float, int]:
    """(moves applied per wall-clock second, per CPU second, playouts finished) over ``seconds``."""
    rng = random.Random(1)
    moves = games = 0
    began, began_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        state = variant.new_game(None, seed=games)
        while to_move := state.to_move:
            seat = to_move[0] if len(to_move) == 1 else rng.choice(to_move)
            state = variant.apply(state, seat, variant.random_move(state, seat, rng))
            variant.outcome(state)  # checked after each move, as a server would
            moves += 1
        games += 1
    wall, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    return moves / wall, moves / cpu, games


def classic_tree() -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, moves applied, games) to walk the whole classic tree through the contract."""
    variant = get_variant("classic")
    counts = [0, 0]

    def walk(state: State) -> None:
        seat = state.to_move[0]
        for move in variant.legal_moves(state, seat):
            child = variant.apply(state, seat, move)
            counts[0] += 1
            if variant.outcome(child) is None:
                walk(child)
            else:
                counts[1] += 1

    began, began_cpu = time.perf_counter(), time.process_time()
    walk(variant.new_game(None, seed=1))
    return time.perf_counter() - began, time.process_time() - began_cpu, counts[0], counts[1]


def sample_positions(variant: Variant, count: int, seconds: float) -> list[State]:
    """Running positions from random playouts, spread over every stage of the game."""
    rng = random.Random(7)
    positions: list[State] = []
    began = time.perf_counter()
    seed = 0
    while len(positions) < count and time.perf_counter() - began < seconds:
        _, states = random_playout(variant, rng, seed)
        seed += 1
        positions.extend(rng.sample(states, min(len(states), 3)))
    rng.shuffle(positions)
    return positions[:count]


def ai_latency(
    variant: Variant, level: str, positions: list[State], seconds: float
) -> dict[str, float] | str:
    """Latency figures (ms) of ``choose_move`` at ``level``, or a reason it could not run."""
    rng = random.Random(3)
    times: list[float] = []
    cold = None
    began = time.perf_counter()
    for state in positions:
        seat = rng.choice(state.to_move)
        start = time.perf_counter()
        try:
            move = choose_move(variant, state, seat, level, rng)
        except (ImportError, AttributeError) as exc:
            return f"no {level} AI ({exc.__class__.__name__})"
        except Exception as exc:  # a variant under construction must not stop the others
            return f"error: {exc.__class__.__name__}: {exc}"[:60]
        elapsed = (time.perf_counter() - start) * 1000
        variant.apply(state, seat, move)  # the AI's move must be legal
        if cold is None:
            cold = elapsed
        else:
            times.append(elapsed)
        if time.perf_counter() - began > seconds and len(times) >= 20:
            break
    if not times:
        return "no positions"
    times.sort()
    p99_index = min(len(times) - 1, round(0.99 * (len(times) - 1)))
    return {
        "n": len(times),
        "cold": cold or 0.0,
        "p50": statistics.median(times),
        "p99": times[p99_index],
        "max": times[-1],
    }


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(
        h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths, strict=True))
    )
    rule = "  ".join("-" * w for w in widths)
    body = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    return "\n".join([line, rule, *body])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (about a quarter of the time)")
    parser.add_argument("--variant", action="append", help="measure only this slug (may repeat)")
    parser.add_argument("--no-ai", action="store_true", help="skip the AI latency table")
    args = parser.parse_args()

    slugs = variant_slugs()
    if args.variant:
        unknown = [s for s in args.variant if s not in slugs]
        if unknown:
            parser.error(f"unknown or not installed: {', '.join(unknown)} (have: {', '.join(slugs)})")
        slugs = args.variant
    playout_seconds = 0.5 if args.quick else 2.0
    ai_seconds = 1.5 if args.quick else 5.0
    ai_positions = 100 if args.quick else 400

    print(
        f"Rules engine benchmark: Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{platform.machine()}, load average {os.getloadavg()[0]:.2f} at start"
    )
    print()

    rows = []
    for slug in slugs:
        variant = get_variant(slug)
        try:
            rate, cpu_rate, games = moves_per_second(variant, playout_seconds)
            rows.append([slug, f"{rate:,.0f}", f"{cpu_rate:,.0f}", f"{games:,}"])
        except Exception as exc:  # a variant under construction must not stop the others
            what = exc.code if isinstance(exc, RuleError) else exc.__class__.__name__
            rows.append([slug, f"error: {what}", "-", "-"])
    print("Random playouts (random_move + apply + outcome per move; new_game once per playout)")
    print(table(["variant", "moves/s", "moves/CPU-s", "playouts"], rows))
    print()

    if "classic" in slugs:
        seconds, cpu, moves, games = classic_tree()
        print(
            f"Classic whole game tree through the contract: {seconds:.2f} s wall, {cpu:.2f} s CPU "
            f"({moves:,} moves applied, {games:,} games, {moves / seconds:,.0f} moves/s)"
        )
        print()

    if args.no_ai:
        return 0
    rows = []
    for slug in slugs:
        variant = get_variant(slug)
        try:
            positions = sample_positions(variant, ai_positions, ai_seconds)
        except Exception as exc:
            rows.append([slug, "-", "-", "-", "-", "-", "-", f"error: {exc.__class__.__name__}"])
            continue
        for level in LEVELS:
            result = ai_latency(variant, level, positions, ai_seconds)
            if isinstance(result, str):
                rows.append([slug, level, "-", "-", "-", "-", "-", result])
                continue
            rows.append(
                [
                    slug,
                    level,
                    f"{result['n']:,}",
                    f"{result['cold']:.2f}",
                    f"{result['p50']:.3f}",
                    f"{result['p99']:.3f}",
                    f"{result['max']:.3f}",
                    "",
                ]
            )
    print("AI move latency (ms) from positions sampled along random playouts")
    print(table(["variant", "level", "moves", "cold", "p50", "p99", "max", "note"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
