"""Competition formats benchmark: one mid-event Swiss round, and a big bracket.

Run from the repository root::

    .venv/bin/python bench/formats.py            # 100, 1,000 and 10,000 players (~2 minutes)
    .venv/bin/python bench/formats.py --quick    # 100 and 1,000

Swiss: a 9-round event; rounds 1-4 are paired by the same code and given random
results (40% first player wins, 40% second, 20% drawn), then round 5 is timed (wall
clock and this process's CPU time) and its quality measured against the players'
history: rematches, players with the same first-move side three times running, the
largest |X - O| after the round, and floaters (pairs of unequal score) next to their
parity minimum (a lower bound). Peers in shared/BASELINES.md: bbpPairings Dutch 33 s
and Burstein 1.2 s at 1,000 players, Burstein 40 min at 10,000.

Brackets: building a single and a double elimination bracket for 4,096 entrants,
and playing the double one out with random winners.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from league.formats.double_elimination import DoubleElimination  # noqa: E402
from league.formats.single_elimination import SingleElimination  # noqa: E402
from league.formats.swiss import SwissTournament, colour_preference, round_quality  # noqa: E402


def _result(rnd: random.Random) -> tuple[float, float]:
    x = rnd.random()
    return (1.0, 0.0) if x < 0.4 else (0.0, 1.0) if x < 0.8 else (0.5, 0.5)


def swiss_round(n: int, seed: int = 2026) -> dict[str, float]:
    rnd = random.Random(seed)
    t = SwissTournament(list(range(n)))
    earlier = 0.0
    for _ in range(4):
        start = time.perf_counter()
        pairings = t.pair_round()
        earlier = max(earlier, time.perf_counter() - start)
        for p in pairings:
            if not p.is_bye:
                t.record(p, *_result(rnd))
    before = copy.deepcopy(t.players)
    wall, cpu = time.perf_counter(), time.process_time()
    pairings = t.pair_round()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    q = round_quality(before, pairings)
    unmet = 0
    for p in pairings:
        if p.second is not None:
            pf, _ = colour_preference(before[p.first].colours)
            ps, _ = colour_preference(before[p.second].colours)
            unmet += pf == "O" or ps == "X"
    return {"n": n, "wall": wall, "cpu": cpu, "slowest_earlier": earlier, "unmet_pairs": unmet, **q}


def brackets(n: int = 4096, seed: int = 1) -> dict[str, float]:
    start = time.perf_counter()
    SingleElimination(n, placements="third")
    single = time.perf_counter() - start
    start = time.perf_counter()
    de = DoubleElimination(n)
    double = time.perf_counter() - start
    rnd = random.Random(seed)
    start = time.perf_counter()
    played = 0
    while True:
        ready = de.playable()
        if not ready:
            break
        for m in ready:
            winner = rnd.choice(m.players)
            assert winner is not None  # a playable match has both players
            de.record(m.id, winner)
            played += 1
    return {
        "n": n,
        "single": single,
        "double": double,
        "double_played": time.perf_counter() - start,
        "matches": played,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 players only")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    print("Swiss, round 5 of 9 after 4 random rounds:")
    print(
        "  players   wall s   cpu s  rematches  X/O x3  max |X-O|  floaters (min)  pref. unmet  rounds 1-4 max s"
    )
    for n in (100, 1000) if args.quick else (100, 1000, 10000):
        r = swiss_round(n)
        print(
            f"  {r['n']:>7,}  {r['wall']:>7.2f}  {r['cpu']:>6.2f}  {r['rematches']:>9}  {r['three_in_a_row']:>6}"
            f"  {r['max_imbalance']:>9}  {r['floaters']:>8} ({r['floaters_parity_minimum']})  {r['unmet_pairs']:>11}  {r['slowest_earlier']:>16.2f}"
        )
    b = brackets()
    print(
        f"Brackets, {b['n']:,} entrants: single elimination built in {b['single'] * 1000:.0f} ms, "
        f"double in {b['double'] * 1000:.0f} ms; double played out ({b['matches']:,} matches) "
        f"in {b['double_played'] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
