"""Single and double elimination: a bracket seeded by rating, byes to the top seeds."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import cast

from django.db.models import Max

from league.competitions import selectors
from league.formats import explain
from league.formats.bracket import Knockout, Match
from league.formats.double_elimination import DoubleElimination
from league.formats.single_elimination import SingleElimination
from league.models import Entry, Pairing, Round, Section

from .base import Board, FormatBase, Progress, Ranked, Stats
from .section_settings import CONSOLATION, GRAND_FINAL, PLACEMENTS

#: Exits by bracket, for places: later brackets rank higher.
_EXIT_ORDER = {"winners": 0, "losers": 0, "final": 2, "reset": 3}
#: How far a player still in has got, by the bracket of the match they play next (a
#: placement or consolation match is played by players already out).
_FURTHER = {"losers": 1, "winners": 2, "final": 3, "reset": 4}


def _round_words(round_: int, rounds: int) -> str:
    """A main-bracket round of a single elimination: "the final", "the semi-finals", "round 1"."""
    return {0: "the final", 1: "the semi-finals", 2: "the quarter-finals"}.get(rounds - round_, f"round {round_}")


class EliminationFormat(FormatBase, ABC):
    """What both knockouts share: pairing the bracket's playable matches, drawn games
    replayed, places by the round of exit."""

    has_bracket = True
    before_start = ("The bracket is drawn when the section starts: seeds by rating at registration, "
                    "byes to the top seeds.")
    #: A drawn game is replayed (first move swapped) this many times; then the higher seed goes through.
    drawn_game_replays = 4
    withdrawal_eliminates = True
    sends_one_through = True
    correction_refusal = ("bracket-result", "A bracket's result stands once played: who went through is settled.")

    @abstractmethod
    def new_bracket(self, section: Section, players: int) -> Knockout:
        """The pure bracket for ``players`` seeds, nothing played."""

    def bracket(self, section: Section) -> Knockout:
        """Rebuilt from the seeds and every decided pairing, in order."""
        seeds = selectors.seeded_users(section)
        bracket = self.new_bracket(section, len(seeds))
        seed_of = {user_id: seed for seed, user_id in seeds.items()}
        decided = (
            Pairing.objects.filter(section=section, bracket_match__isnull=False, status=Pairing.Status.FINISHED)
            .order_by("finished_at", "pk")
            .values_list("bracket_match", "first_id", "second_id", "first_points", "second_points")
        )
        for match_id, first, second, first_points, second_points in decided:
            # 0-0 (both withdrawn, or neither showed up): the higher seed, the pairing's
            # first, goes through, as after every replay drawn; withdrawn, they forfeit next.
            winner = first if (first_points or 0) >= (second_points or 0) else second
            bracket.record(cast(int, match_id), seed_of[winner])  # a bracket pairing: its match is set
        return bracket

    def pair_round(self, section: Section, round_: Round, now: datetime) -> list[Board]:
        """Every bracket match that has both players and no pairing yet. A match with a
        withdrawn player is a forfeit at once; what it unlocks waits for the next round."""
        bracket = self.bracket(section)
        seeds = selectors.seeded_users(section)
        taken = set(Pairing.objects.filter(section=section, bracket_match__isnull=False)
                    .values_list("bracket_match", flat=True))
        withdrawn = set(seeds.values()) - selectors.active_user_ids(section, round_.number)
        number = round_.pairings.aggregate(m=Max("board"))["m"] or 0
        boards = []
        for match in bracket.playable():
            if match.id in taken:
                continue
            assert None not in match.players  # a playable match has both players
            first, second = sorted(p for p in match.players if p is not None)  # the higher seed moves first
            a, b = seeds[first], seeds[second]
            number += 1
            out = frozenset({a, b} & withdrawn)
            flags = () if out else (f"{match.bracket} bracket, round {match.round}",)
            boards.append(Board(number, a, b, flags, reasons=(explain.seed_path(bracket, match).as_dict(),),
                                bracket=match, withdrawn=out))
        return boards

    def more_rounds(self, section: Section, round_: Round) -> bool:
        bracket = self.bracket(section)
        return bool(bracket.playable()) and not bracket.is_over

    def rank(self, section: Section, stats: Stats) -> list[Ranked]:
        """By how far each player got: the bracket's places (final once it is over),
        and while it runs, players still in by the round they have reached, ahead of
        those knocked out (a later exit first). The points (games won, a draw a half)
        are kept for the exports; the table shows progress instead (``progress``)."""
        places = self._places(section)
        reached = self._reached(section)
        key = {user_id: (place, -reached.get(user_id, 0)) for user_id, place in places.items()}
        ordered = sorted(key, key=lambda u: key[u])
        rows: list[Ranked] = []
        for index, user_id in enumerate(ordered):
            tied = rows and key[rows[-1].user_id] == key[user_id]
            mine = stats.get(user_id, {})
            rows.append(Ranked(user_id, rows[-1].rank if tied else index + 1,
                               mine.get("wins", 0) + 0.5 * mine.get("draws", 0)))
        return rows

    def _reached(self, section: Section) -> dict[int, int]:
        """user id -> how far a player still in has got (0: out, or the bracket is over):
        the round of the match they play or wait for, later brackets further."""
        seeds = selectors.seeded_users(section)
        far: dict[int, int] = {}
        for match in self.bracket(section).matches:
            if match.decided or match.void or match.bracket not in _FURTHER:
                continue
            for seed in match.players:
                if seed is not None:
                    user = seeds[seed]
                    far[user] = max(far.get(user, 0), 100 * _FURTHER[match.bracket] + match.round)
        return far

    def progress(self, section: Section) -> dict[int, Progress]:
        """Each player's progress in words, with the place once it is decided (a knockout's
        table shows this instead of points); nobody before the bracket is drawn."""
        seeds = selectors.seeded_users(section)
        if len(seeds) < 2:
            return {}
        bracket = self.bracket(section)
        places = self._places(section)
        matches = [m for m in bracket.matches if not m.void]
        # A round (bracket, round) is over when every match of it is decided: the places of
        # its losers are then counted against everyone else (earlier, a loser's place would
        # count players still to lose in that round as ahead of them).
        open_rounds = {(m.bracket, m.round) for m in matches if not m.decided}
        withdrawn = set(section.entries.filter(status=Entry.Status.WITHDRAWN).values_list("user_id", flat=True))
        out: dict[int, Progress] = {}
        for seed, user_id in seeds.items():
            mine = [m for m in matches if seed in m.players]
            pending = [m for m in mine if not m.decided]
            lost = [m for m in mine if m.decided and m.loser == seed]
            words, still_in = self._words(bracket, seed, pending, lost, user_id in withdrawn)
            placing = [m for m in pending if m.bracket != "consolation"]
            exit_round = next(((m.bracket, m.round) for m in reversed(lost) if m.bracket != "consolation"), None)
            decided = not placing and (exit_round is None or exit_round not in open_rounds)
            out[user_id] = Progress(words, still_in, places[user_id] if decided else None,
                                    done=not still_in and not pending)
        return out

    @abstractmethod
    def _words(self, bracket: Knockout, seed: int, pending: list[Match], lost: list[Match],
               withdrawn: bool) -> tuple[str, bool]:
        """(the player's progress in words, still in?) from their undecided and lost matches;
        ``withdrawn``: they left, so a match still to come is theirs to forfeit."""

    def _places(self, section: Section) -> dict[int, int]:
        """Final places from the bracket: later exits rank higher; exits in the same round
        share a place (double elimination; single elimination's are its bracket's own)."""
        bracket = self.bracket(section)
        seeds = selectors.seeded_users(section)
        last_exit: dict[int, tuple[int, int, int]] = {}
        for match in bracket.matches:
            if not match.decided or match.void or match.loser is None:
                continue
            user = seeds[match.loser]
            key = (match.round if match.bracket in ("winners", "losers") else 10**3, _EXIT_ORDER[match.bracket], 0)
            if self.has_losers_bracket and match.bracket == "winners":
                continue  # a winners' bracket loss is not an exit when there is a losers' bracket
            if match.bracket == "final" and any(m.bracket == "reset" and not m.void for m in bracket.matches):
                continue  # the winners' champion's first loss: the reset match decides
            last_exit[user] = max(last_exit.get(user, key), key)
        champion = bracket.champion
        if champion is not None:
            last_exit[seeds[champion]] = (10**4, 0, 0)
        for user_id in seeds.values():
            last_exit.setdefault(user_id, (10**4 - 1, 0, 0) if champion is None else (0, 0, 0))
        ranked = sorted(last_exit, key=lambda u: last_exit[u], reverse=True)
        ranks: dict[int, int] = {}
        for index, user_id in enumerate(ranked):
            prev = ranked[index - 1] if index else None
            ranks[user_id] = ranks[prev] if prev is not None and last_exit[prev] == last_exit[user_id] else index + 1
        return ranks


class SingleEliminationFormat(EliminationFormat):
    key = Section.Format.SINGLE_ELIMINATION
    settings = (PLACEMENTS, CONSOLATION)

    def describe(self, section: Section) -> str:
        placements = {"third": "a third-place match", "all": "every place played for"}.get(section.placements)
        extras = [placements] if placements else []
        if section.consolation:
            extras.append("a consolation bracket")
        return f"{self.label}, with {' and '.join(extras)}" if extras else self.label

    def new_bracket(self, section: Section, players: int) -> SingleElimination:
        return SingleElimination(players, placements=section.placements, consolation=section.consolation)

    def _words(self, bracket: Knockout, seed: int, pending: list[Match], lost: list[Match],
               withdrawn: bool) -> tuple[str, bool]:
        rounds = cast(SingleElimination, bracket).rounds
        if bracket.champion == seed:
            return "Winner", False
        out = next((m for m in lost if m.bracket == "winners"), None)
        if out is None:
            main = next((m for m in pending if m.bracket == "winners"), None)
            return (f"Still in: {_round_words(main.round, rounds)}" if main else "Still in"), True
        words = "Runner-up (lost the final)" if out.round == rounds else \
            f"Eliminated in {_round_words(out.round, rounds)}"
        # Withdrawn, a placement or consolation match still to come is forfeited, not played:
        # "plays for places 5 to 8; withdrew" read as a match to wait for (organiser probe).
        plays = "withdrew: forfeits" if withdrawn else "plays"
        for match in pending:
            if match.bracket == "placement" and match.places is not None:
                low, high = match.places
                words += (f"; {plays} the third-place match" if withdrawn else "; plays for third place") \
                    if (low, high) == (3, 4) else f"; {plays} {'the match ' if withdrawn else ''}for places {low} to {high}"
                break
            if match.bracket == "consolation":
                words += "; withdrew: forfeits the consolation bracket" if withdrawn else "; plays in the consolation bracket"
                break
        else:
            words += _placement_result(bracket, seed)
        if getattr(bracket, "consolation_winner", None) == seed:
            words += "; won the consolation bracket"
        return words, False

    def _places(self, section: Section) -> dict[int, int]:
        """The bracket's places (SingleElimination.places), by user."""
        seeds = selectors.seeded_users(section)
        return {seeds[seed]: place for seed, place in cast(SingleElimination, self.bracket(section)).places().items()}


def _placement_result(bracket: Knockout, seed: int) -> str:
    """How the player's last placement match went, once it is played: the podium's 3rd
    said "Eliminated in the semi-finals" as 4th did, the third-place match untold."""
    played = [m for m in bracket.matches if m.bracket == "placement" and m.decided and not m.void
              and seed in m.players and m.places is not None and m.places[1] - m.places[0] == 1]
    if not played:
        return ""
    match = played[-1]
    assert match.places is not None  # the filter above
    low, high = match.places
    result = "won" if match.winner == seed else "lost"
    return f"; {result} the third-place match" if (low, high) == (3, 4) else \
        f"; {result} the match for places {low} and {high}"


class DoubleEliminationFormat(EliminationFormat):
    key = Section.Format.DOUBLE_ELIMINATION
    settings = (GRAND_FINAL,)
    has_losers_bracket = True

    def describe(self, section: Section) -> str:
        return f"{self.label}, grand final {section.get_grand_final_display().lower()}"

    def new_bracket(self, section: Section, players: int) -> Knockout:
        return DoubleElimination(players, grand_final=section.grand_final)

    def _words(self, bracket: Knockout, seed: int, pending: list[Match], lost: list[Match],
               withdrawn: bool) -> tuple[str, bool]:
        if bracket.champion == seed:
            return "Winner", False
        if pending:
            match = pending[0]
            if match.bracket == "winners":
                where = _de_final(bracket, match) or f"winners' bracket, round {match.round}"
                return f"Still in: {where} (no loss)", True
            if match.bracket == "losers":
                where = _de_final(bracket, match) or f"losers' bracket, round {match.round}"
                return f"Still in: {where} (one loss)", True
            return ("Still in: grand final reset" if match.bracket == "reset" else "Still in: grand final"), True
        last = lost[-1] if lost else None
        if last is not None and last.bracket in ("final", "reset"):
            return "Runner-up (lost the grand final)", False
        if last is not None and last.bracket == "losers":
            where = _de_final(bracket, last) or f"losers' round {last.round}"
            return f"Eliminated in {where} (second loss)", False
        return "Eliminated", False


def _de_final(bracket: Knockout, match: Match) -> str:
    """ "the winners' final" or "the losers' final" when ``match`` is in its bracket's last
    round, as the bracket's column titles it, else "": the standing said "losers' round 2"
    under a column titled "Losers final" (walkthrough)."""
    last = max((m.round for m in bracket.matches if m.bracket == match.bracket and not m.void), default=0)
    side = "winners'" if match.bracket == "winners" else "losers'"
    return f"the {side} final" if match.round == last else ""
