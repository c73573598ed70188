"""How close a pairer comes to the reference Dutch pairings: every round of every file
re-paired from the rounds before it (league.formats.trf.before_round) and set beside the
stored round (bbpPairings' Dutch; tests/league/data/dutch/PROVENANCE.md), the accelerated
set (virtual points, tests/league/data/dutch/accelerated/PROVENANCE.md) last.

Run from the repository root::

    .venv/bin/python bench/dutch_check.py                    # league.formats.dutch, every reference file
    .venv/bin/python bench/dutch_check.py --fast             # today's fast Swiss instead
    .venv/bin/python bench/dutch_check.py --stop-first       # details of the first round that differs
    .venv/bin/python bench/dutch_check.py FILE.trf ... -k n0 # given files; -k: names containing a text

Per file and in total: rounds identical (same pairs, same colours) / rounds; pairs
identical (the same two players, either colours) / pairs; colours identical (of the pairs
identical, the same player with white); CPU seconds of the pairing calls. ``--stop-first``
prints the stored and our pairs of the first differing round, and for every player in a
differing pair the history a pairer reads: score, colours (w b, or - when not played),
opponents, results, and whether the bye is still open to them.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from league.formats import swiss_cli, trf  # noqa: E402

DATA = REPO_ROOT / "tests" / "league" / "data" / "dutch"


@dataclass
class Tally:
    rounds: int = 0
    rounds_identical: int = 0
    pairs: int = 0
    pairs_identical: int = 0
    colours_identical: int = 0
    failures: int = 0  # rounds with no pairing (DutchError) where the file has one
    cpu: float = 0.0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def line(self, label: str) -> str:
        failed = f"  no pairing {self.failures}" if self.failures else ""
        return (f"{label:<28} rounds {self.rounds_identical:>4}/{self.rounds:<4} pairs "
                f"{self.pairs_identical:>6}/{self.pairs:<6} colours {self.colours_identical:>6}/"
                f"{self.pairs_identical:<6} cpu {self.cpu:7.2f}s{failed}")


def tally_round(result: swiss_cli.RoundCheck, cpu: float) -> Tally:
    stored = set(result.stored)
    unordered = {frozenset(pair) for pair in stored}
    same_players = [pair for pair in result.ours if frozenset(pair) in unordered]
    return Tally(rounds=1, rounds_identical=int(result.agrees), pairs=len(stored),
                 pairs_identical=len(same_players), colours_identical=sum(pair in stored for pair in same_players),
                 failures=int(bool(result.error)), cpu=cpu)


def history(tournament: trf.Tournament, number: int, player_number: int) -> str:
    """What a pairer knows of a player before round ``number``, on one line."""
    points = trf.declared(tournament).points
    player = next(p for p in tournament.players if p.number == player_number)
    games = player.rounds[:number - 1]
    colours = "".join(g.colour if g.opponent is not None and g.result in "10=WDL" else "-" for g in games)
    played = [g for g in games if g.opponent is not None and g.result in "10=WDL"]
    whites = sum(g.colour == "w" for g in played)
    won_unplayed = [g.result for g in games if g.result in "UF+"]
    games_text = " ".join(f"{g.opponent or '----':>4}{g.colour}{g.result}" for g in games)
    absent = " ABSENT this round" if len(player.rounds) >= number and trf.is_absence(player.rounds[number - 1]) else ""
    return (f"  {player.number:>4} score {trf.score(games, points):>4g}  colours {colours or '(none)':<11} "
            f"w-b {2 * whites - len(played):+d}  bye {'used (' + ''.join(won_unplayed) + ')' if won_unplayed else 'open'}"
            f"  games {games_text}{absent}")


def details(tournament: trf.Tournament, result: swiss_cli.RoundCheck) -> str:
    """The first differing round: both pairings, then each player of a differing pair."""
    before = trf.before_round(tournament, result.number)
    stored = trf.published_order(result.stored, before, result.number)
    lines = [swiss_cli.describe(result), "  file (white-black): " + " ".join(map(swiss_cli.pair_text, stored)),
             "  ours (white-black): " + " ".join(map(swiss_cli.pair_text, result.ours))]
    differing = {n for pair in set(result.stored) ^ set(result.ours) for n in pair if n is not None}
    if result.error:
        differing = {n for pair in result.stored for n in pair if n is not None}
    lines.append(f"  players in differing pairs, as they stood before round {result.number} "
                 "(games: opponent, colour, result):")
    lines += [history(tournament, result.number, n) for n in sorted(differing)]
    return "\n".join(lines)


def check_file(path: Path, system: str, stop_first: bool) -> tuple[Tally, str | None]:
    """The file's tally, and the details of its first differing round when asked to stop there."""
    tournament = trf.read(path.read_text())
    total = Tally()
    for number in range(1, trf.next_round(tournament)):
        start = time.process_time()
        result = swiss_cli.check_round(system, tournament, number)
        total.add(tally_round(result, time.process_time() - start))
        if stop_first and not result.agrees:
            return total, details(tournament, result)
    return total, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="TRF files (default: the reference set)")
    parser.add_argument("--fast", action="store_const", const="fast", default="dutch", dest="system",
                        help="check today's fast Swiss instead of the Dutch")
    parser.add_argument("--stop-first", action="store_true", help="stop at the first differing round, in detail")
    parser.add_argument("-k", default="", help="only files whose name contains this text")
    args = parser.parse_args(argv)
    reference = sorted(DATA.glob("*.trf")) + sorted((DATA / "accelerated").glob("*.trf"))
    files = [f for f in (args.files or reference) if args.k in f.name]
    grand = Tally()
    print(f"{args.system}: {len(files)} files")
    for path in files:
        tally, first_difference = check_file(path, args.system, args.stop_first)
        grand.add(tally)
        print(tally.line(path.name))
        if first_difference:
            print(first_difference)
            break
    print(grand.line("total"))
    return 0 if grand.rounds_identical == grand.rounds else 1


if __name__ == "__main__":
    raise SystemExit(main())
