"""Competition formats benchmark: one mid-event Swiss round, and a big bracket.

Run from the repository root::

    .venv/bin/python bench/formats.py            # Swiss at 100, 1,000 and 10,000 players; Dutch at 100, 1,000 and 2,000
    .venv/bin/python bench/formats.py --quick    # 100 and 1,000
    .venv/bin/python bench/formats.py --dutch-sizes 100,1000 --dutch-limit 120

Swiss: a 9-round event; rounds 1-4 are paired by the fast system (league/formats/
swiss.py) and given seeded random results (40% first player wins, 40% second, 20%
drawn), then round 5 is timed (wall clock and this process's CPU time) and its quality
measured against the players' history: rematches, players with the same first-move
side three times running, the largest |X - O| after the round, and floaters (pairs of
unequal score) next to their parity minimum (a lower bound).

FIDE Dutch (league/formats/dutch.py): the same state before round 5 as TRF-16, paired
by ``dutch.pair`` with the same figures, and the pairs identical to bbpPairings' Dutch
on that very file (bench/data/round5-N.trf and .pairs, written by ``--write-trf`` and
by bbpPairings; bench/data/PROVENANCE.md). A size over ``--dutch-limit`` seconds is
skipped.

Brackets: building a single and a double elimination bracket for 4,096 entrants,
and playing the double one out with random winners.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TypeVar

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from league.formats import dutch, trf  # noqa: E402
from league.formats.double_elimination import DoubleElimination  # noqa: E402
from league.formats.single_elimination import SingleElimination  # noqa: E402
from league.formats.swiss import Pairing, SwissTournament, colour_preference, round_quality  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"  # round-5 TRFs and bbpPairings' pairs for them (PROVENANCE.md)
DUTCH_SIZES = (100, 1000, 2000)  # 10,000 takes far longer than the others (docs/formats.md): --dutch-sizes 10000
T = TypeVar("T")


def _result(rnd: random.Random) -> tuple[float, float]:
    x = rnd.random()
    return (1.0, 0.0) if x < 0.4 else (0.0, 1.0) if x < 0.8 else (0.5, 0.5)


def four_rounds(n: int, seed: int = 2026) -> tuple[SwissTournament, float]:
    """Rounds 1-4 of ``n`` players paired by the fast system with seeded random results
    (deterministic); returns the tournament and its slowest round's pairing time."""
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
    return t, earlier


_CODE = {1.0: "1", 0.5: "=", 0.0: "0"}


def as_trf(t: SwissTournament, rounds: int = 9) -> trf.Tournament:
    """The tournament before its next round as TRF-16: the players in rank order are start
    numbers 1, 2... (player id i is i + 1), X is w; the first round gave X to the
    higher-ranked player on odd boards (white1)."""
    number = {pid: index for index, pid in enumerate(t.players, start=1)}
    games: dict[Hashable, list[trf.Game]] = {pid: [] for pid in t.players}
    for record in t.rounds:
        for p in record.pairings:
            if p.second is None:
                games[p.first].append(trf.Game(None, "-", "U"))
                continue
            games[p.first].append(trf.Game(number[p.second], "w", _CODE[record.points[p.first]]))
            games[p.second].append(trf.Game(number[p.first], "b", _CODE[record.points[p.second]]))
    players = [trf.Player(number=number[pid], name=f"Player {number[pid]}", points=player.score, rounds=games[pid])
               for pid, player in t.players.items()]
    headers = [("012", f"bench/formats.py: {len(players)} players, round {len(t.rounds) + 1} of {rounds}"),
               ("062", str(len(players))), ("XXR", str(rounds)), ("XXC", "white1")]
    return trf.Tournament(headers, players)


def swiss_round(n: int, seed: int = 2026) -> dict[str, float]:
    t, earlier = four_rounds(n, seed)
    before = copy.deepcopy(t.players)
    wall, cpu = time.perf_counter(), time.process_time()
    pairings = t.pair_round()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"n": n, "wall": wall, "cpu": cpu, "slowest_earlier": earlier, **_quality(before, pairings)}


def _quality(before: dict, pairings: list[Pairing]) -> dict[str, float]:
    """round_quality's figures plus the pairs where a side went against a preference."""
    q = round_quality(before, pairings)
    unmet = 0
    for p in pairings:
        if p.second is not None:
            pf, _ = colour_preference(before[p.first].colours)
            ps, _ = colour_preference(before[p.second].colours)
            unmet += pf == "O" or ps == "X"
    return {"unmet_pairs": unmet, **q}


def read_pairs(text: str) -> list[tuple[int, int | None]]:
    """bbpPairings' output (-p): the number of pairs, then "white black" a line, "n 0" the bye."""
    lines = text.split("\n")[1:]
    return [(int(w), int(b) or None) for w, b in (line.split() for line in lines if line.strip())]


def dutch_round(n: int, limit: float, seed: int = 2026) -> dict[str, object]:
    """Round 5 of ``n`` players paired by league.formats.dutch on the TRF of rounds 1-4;
    "status" says why there are no figures (over the time limit)."""
    t, _ = four_rounds(n, seed)
    tournament = as_trf(t)
    reference_file = DATA / f"round5-{n}.pairs"
    reference = read_pairs(reference_file.read_text()) if reference_file.exists() else None
    result: dict[str, object] = {"n": n, "status": "", "reference": reference}
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        pairs = _within(limit, lambda: dutch.pair(tournament, 5))
    except TimeoutError:
        return {**result, "status": f"skipped: over the {limit:g} s limit"}
    except MemoryError:
        return {**result, "status": f"out of memory after {time.process_time() - cpu:.0f} s of CPU"}
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    ids = list(t.players)  # start number n is ids[n - 1] (as_trf)
    pairings = [Pairing(ids[p.white - 1], None if p.black is None else ids[p.black - 1], board)
                for board, p in enumerate(pairs, start=1)]
    same = None
    if reference is not None:
        same = len({(p.white, p.black) for p in pairs} & set(reference))
    return {**result, "wall": wall, "cpu": cpu, "same": same, **_quality(t.players, pairings)}


def _within(limit: float, run: Callable[[], T]) -> T:
    """``run()``, or TimeoutError once ``limit`` seconds have passed (SIGALRM: the main thread, POSIX)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def write_trfs(sizes: list[int]) -> None:
    """bench/data/round5-N.trf: the input the references were made from (deterministic)."""
    DATA.mkdir(exist_ok=True)
    for n in sizes:
        t, _ = four_rounds(n)
        (DATA / f"round5-{n}.trf").write_text(trf.write(as_trf(t)))
        print(f"wrote {DATA / f'round5-{n}.trf'}")


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
    parser.add_argument("--dutch-sizes", default=None,
                        help="players for the FIDE Dutch rows, comma-separated (default 100,1000,2000; "
                             "with --quick 100,1000); empty: none")
    parser.add_argument("--dutch-limit", type=float, default=600.0,
                        help="seconds a Dutch row may take before it is skipped")
    parser.add_argument("--write-trf", action="store_true",
                        help="write bench/data/round5-N.trf for the Dutch sizes and stop")
    args = parser.parse_args()
    chosen = args.dutch_sizes if args.dutch_sizes is not None else "100,1000" if args.quick else ",".join(
        map(str, DUTCH_SIZES))
    sizes = [int(n) for n in chosen.replace("_", "").split(",") if n.strip()]
    if args.write_trf:
        write_trfs(sizes)
        return
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
    if sizes:
        print("FIDE Dutch (league.formats.dutch), round 5 of 9 on the TRF of the same rounds 1-4:")
        print("  players   wall s   cpu s  rematches  X/O x3  max |X-O|  floaters (min)  pref. unmet"
              "  same as bbpPairings")
    for n in sizes:
        d = dutch_round(n, args.dutch_limit)
        if d["status"]:
            print(f"  {n:>7,}  {d['status']}")
            continue
        reference = d["reference"]
        same = f"{d['same']:,} of {len(reference):,}" if isinstance(reference, list) else "no reference"
        print(
            f"  {n:>7,}  {d['wall']:>7.2f}  {d['cpu']:>6.2f}  {d['rematches']:>9}  {d['three_in_a_row']:>6}"
            f"  {d['max_imbalance']:>9}  {d['floaters']:>8} ({d['floaters_parity_minimum']})  {d['unmet_pairs']:>11}"
            f"  {same:>19}"
        )
    b = brackets()
    print(
        f"Brackets, {b['n']:,} entrants: single elimination built in {b['single'] * 1000:.0f} ms, "
        f"double in {b['double'] * 1000:.0f} ms; double played out ({b['matches']:,} matches) "
        f"in {b['double_played'] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
