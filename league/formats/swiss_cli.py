"""Pair or check a TRF file from the command line, in the shape of bbpPairings' (and
JaVaFo's) so that the two programs' outputs compare byte for byte::

    python -m league.formats.swiss --dutch INPUT.trf -p [OUTPUT]   # pair the next round
    python -m league.formats.swiss --dutch INPUT.trf -c            # re-pair every round, list differences

``--fast`` instead of ``--dutch`` pairs with the platform's fast Swiss (``swiss.pair_round``),
so the two systems can be compared on the same file.

``-p`` writes what bbpPairings writes: the number of pairs (the bye counted as one), then
one "white black" line per pair by start number, boards in published order (the bye last,
as "n 0"; then by the higher player's score, the lower player's score, the higher
player's start number -- C.04.2's order of boards), LF line endings.

``-c`` pairs round r from ``trf.before_round(file, r)`` for every round and lists the
rounds whose stored pairing differs. Exit status, as bbpPairings': 0 done (``-c``: every
round agrees), 1 no valid pairing (``-p``) or a round differs (``-c``),
3 invalid input, 5 a file that cannot be read or written.
Pure: no Django.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from . import dutch, swiss, trf

Pairs = list[tuple[int, int | None]]  # (white, black) by start number, (n, None) the bye

OK, NO_PAIRING, INVALID, FILE_ERROR = 0, 1, 3, 5


class InvalidInput(Exception):
    """The request cannot be served; ``code`` is the exit status."""

    def __init__(self, message: str, code: int = INVALID) -> None:
        super().__init__(message)
        self.code = code


def _played(game: trf.Game) -> bool:
    """A game over the board: forfeits and byes count for neither colour nor rematch."""
    return game.opponent is not None and game.colour in "wb" and game.result in "10=WDL"


def swiss_players(tournament: trf.Tournament, number: int, points: dict[str, float]) -> list[swiss.SwissPlayer]:
    """The fast pairer's view of round ``number``: ranks in start-number order, scores from
    the results, colours and opponents from games played, the bye once a player has scored
    a win without playing (C.04.1), absent for a round sat out by arrangement."""
    players = []
    for rank, player in enumerate(sorted(tournament.players, key=lambda p: p.number)):
        before = player.rounds[:number - 1]
        played = [(r, g) for r, g in enumerate(before, start=1) if _played(g)]
        this_round = player.rounds[number - 1] if len(player.rounds) >= number else None
        players.append(swiss.SwissPlayer(
            id=player.number, rank=rank, score=trf.score(before, points),
            opponents={g.opponent for _, g in played},
            colours=[swiss.X if g.colour == "w" else swiss.O for _, g in played],
            colour_rounds=[r for r, _ in played],
            had_bye=any(not _played(g) and trf.score([g], points) >= points["win"] for g in before),
            active=this_round is None or not trf.is_absence(this_round),
        ))
    return players


def pair(system: str, tournament: trf.Tournament, number: int) -> Pairs:
    """Round ``number`` of ``tournament`` (as it stood before it) paired by ``system``."""
    facts = trf.declared(tournament)
    if system == "dutch":
        return [(p.white, p.black) for p in dutch.pair(tournament, number)]
    players = swiss_players(tournament, number, facts.points)
    return [(cast(int, p.first), cast("int | None", p.second)) for p in swiss.pair_round(players)]


def format_pairs(pairs: Pairs) -> str:
    """bbpPairings' -p output: the count, then "white black" (the bye "n 0")."""
    return "".join([f"{len(pairs)}\n"] + [f"{w} {b or 0}\n" for w, b in pairs])


@dataclass
class RoundCheck:
    """One round re-paired: the stored pairs, ours (boards in published order), or why none."""

    number: int
    stored: Pairs
    ours: Pairs
    error: str = ""

    @property
    def agrees(self) -> bool:
        return not self.error and set(self.stored) == set(self.ours)


def check_round(system: str, tournament: trf.Tournament, number: int) -> RoundCheck:
    """Re-pair round ``number`` from the rounds before it and set it beside the stored one."""
    stored = trf.round_pairings(tournament, number, skip_absent=True)
    before = trf.before_round(tournament, number)
    try:
        ours = trf.published_order(pair(system, before, number), before, number)
    except (dutch.DutchError, swiss.PairingError) as err:
        return RoundCheck(number, stored, [], f"no pairing: {err}")
    return RoundCheck(number, stored, ours)


def pair_text(pair: tuple[int, int | None]) -> str:
    return f"{pair[0]}-{pair[1]}" if pair[1] is not None else f"{pair[0]}-bye"


def describe(result: RoundCheck) -> str:
    """One line: the pairs only the file has and the pairs only we have."""
    if result.error:
        return f"Round {result.number}: {result.error}"
    only_stored = [pair for pair in result.stored if pair not in set(result.ours)]
    only_ours = [pair for pair in result.ours if pair not in set(result.stored)]
    return (f"Round {result.number}: {len(only_ours)} of {len(result.ours)} pairs differ (white-black); file "
            f"{' '.join(map(pair_text, only_stored))}; ours {' '.join(map(pair_text, only_ours))}")


def load(path: str) -> trf.Tournament:
    """The tournament in ``path``; InvalidInput (5 unreadable, 3 not a TRF) otherwise."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as err:
        raise InvalidInput(f"cannot read {path}: {err.strerror or err}", FILE_ERROR) from None
    try:
        tournament = trf.read(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text (TRF files are UTF-8).") from None
    except trf.TrfError as err:
        raise InvalidInput(f"{path}: {err}") from None
    if not tournament.players:
        raise InvalidInput(f"{path} has no player lines (001): not a TRF file.")
    return tournament


def _run_pair(system: str, tournament: trf.Tournament, output: str | None) -> int:
    number = trf.next_round(tournament)
    rounds = tournament.header("XXR") or tournament.header("142")
    if rounds and number > trf.declared(tournament).rounds:
        raise InvalidInput(f"all {trf.declared(tournament).rounds} rounds are paired (XXR): nothing to pair.")
    unfinished = [(n, p.number, g.opponent) for p in tournament.players
                  for n, g in enumerate(p.rounds[:number - 1], start=1) if g.opponent is not None and not g.result.strip()]
    if unfinished:
        n, first, second = min(unfinished)
        raise InvalidInput(f"round {n} is not finished ({first} v {second} has no result): round {number} is "
                           "paired once every result is in.")
    try:
        pairs = trf.published_order(pair(system, tournament, number), tournament, number)
    except (dutch.DutchError, swiss.PairingError) as err:
        print(f"error: no valid pairing exists for round {number}: {err}", file=sys.stderr)
        return NO_PAIRING
    text = format_pairs(pairs)
    if output is None:
        sys.stdout.write(text)
        return OK
    try:
        with open(output, "w", newline="\n") as file:
            file.write(text)
    except OSError as err:
        raise InvalidInput(f"cannot write {output}: {err.strerror or err}", FILE_ERROR) from None
    return OK


def _run_check(system: str, tournament: trf.Tournament) -> int:
    if trf.next_round(tournament) == 1:
        raise InvalidInput("no round is paired in this file: nothing to check.")
    results = [check_round(system, tournament, number) for number in range(1, trf.next_round(tournament))]
    for result in results:
        if not result.agrees:
            print(describe(result))
    agreeing = sum(result.agrees for result in results)
    print(f"{agreeing} of {len(results)} rounds agree with the file ({system}).")
    return OK if agreeing == len(results) else NO_PAIRING


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m league.formats.swiss",
                                description="Pair the next round of a TRF file, or check all its rounds.")
    system = p.add_mutually_exclusive_group(required=True)
    system.add_argument("--dutch", action="store_const", const="dutch", dest="system",
                        help="FIDE Dutch system (league.formats.dutch)")
    system.add_argument("--fast", action="store_const", const="fast", dest="system",
                        help="the platform's fast Swiss (league.formats.swiss)")
    p.add_argument("input", metavar="INPUT.trf")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("-p", nargs="?", const="-", metavar="OUTPUT", dest="pair_output",
                      help="pair the next round; write to OUTPUT (default: standard output)")
    mode.add_argument("-c", action="store_true", dest="check",
                      help="re-pair every round from the rounds before it; list the rounds that differ")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its one-line usage error
        return OK if exit_.code == 0 else INVALID
    try:
        tournament = load(args.input)
        if args.system == "fast" and trf.declared(tournament).virtual_points:
            raise InvalidInput(f"{args.input} gives virtual points (accelerated rounds), which only --dutch "
                               "pairs with; the fast system has none.")
        if args.check:
            return _run_check(args.system, tournament)
        return _run_pair(args.system, tournament, None if args.pair_output == "-" else args.pair_output)
    except InvalidInput as err:
        print(f"error: {err}", file=sys.stderr)
        return err.code
    except trf.TrfError as err:  # a file that reads but does not pair: one-sided pairings, two byes...
        print(f"error: {args.input}: {err}", file=sys.stderr)
        return INVALID
