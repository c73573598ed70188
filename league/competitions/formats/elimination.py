"""Single and double elimination: a bracket seeded by rating, byes to the top seeds."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import cast

from django.db.models import Max

from league.competitions import selectors
from league.formats import explain
from league.formats.bracket import Knockout
from league.formats.double_elimination import DoubleElimination
from league.formats.single_elimination import SingleElimination
from league.models import Pairing, Round, Section

from .base import Board, FormatBase, Ranked, Stats
from .section_settings import CONSOLATION, GRAND_FINAL, PLACEMENTS

#: Exits by bracket, for places: later brackets rank higher.
_EXIT_ORDER = {"winners": 0, "losers": 0, "final": 2, "reset": 3}


class EliminationFormat(FormatBase, ABC):
    """What both knockouts share: pairing the bracket's playable matches, drawn games
    replayed, places by the round of exit."""

    has_bracket = True
    before_start = ("The bracket is drawn when the section starts: seeds by rating at registration, "
                    "byes to the top seeds.")
    #: A drawn game is replayed (first move swapped) this many times; then the higher seed goes through.
    drawn_game_replays = 4
    withdrawal_eliminates = True
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
            winner = first if (first_points or 0) > (second_points or 0) else second
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
        """Places from the bracket; points are games won (a draw a half)."""
        rows = []
        for user_id, rank in self._places(section).items():
            mine = stats.get(user_id, {})
            rows.append(Ranked(user_id, rank, mine.get("wins", 0) + 0.5 * mine.get("draws", 0)))
        return rows

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

    def _places(self, section: Section) -> dict[int, int]:
        """The bracket's places (SingleElimination.places), by user."""
        seeds = selectors.seeded_users(section)
        return {seeds[seed]: place for seed, place in cast(SingleElimination, self.bracket(section)).places().items()}


class DoubleEliminationFormat(EliminationFormat):
    key = Section.Format.DOUBLE_ELIMINATION
    settings = (GRAND_FINAL,)
    has_losers_bracket = True

    def describe(self, section: Section) -> str:
        return f"{self.label}, grand final {section.get_grand_final_display().lower()}"

    def new_bracket(self, section: Section, players: int) -> Knockout:
        return DoubleElimination(players, grand_final=section.grand_final)
