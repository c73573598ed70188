"""Round robin: everyone meets everyone (twice in a double), by FIDE's Berger tables."""

from __future__ import annotations

from datetime import datetime

from league.competitions import selectors
from league.formats import round_robin
from league.models import Round, Section

from .base import Board, FormatBase, Ranked, Stats, ranked_by_tiebreaks
from .section_settings import BYE_POINTS, CYCLES


class RoundRobinFormat(FormatBase):
    key = Section.Format.ROUND_ROBIN
    settings = (CYCLES, BYE_POINTS)
    default_tiebreaks = ("direct-encounter", "wins", "sonneborn-berger")  # FIDE C.07's for a round robin
    has_crosstable = True
    before_start = "The crosstable and its Berger pairings are set when the section starts."

    def describe(self, section: Section) -> str:
        return f"{self.label}, double" if section.cycles == 2 else self.label

    def total_rounds(self, section: Section, players: int) -> int | None:
        return round_robin.round_count(players, section.cycles)

    def pair_round(self, section: Section, round_: Round, now: datetime) -> list[Board]:
        """The Berger table's round; a withdrawn player's games are forfeits, their bye nothing."""
        seeds = selectors.seeded_users(section)
        table = round_robin.berger(len(seeds), section.cycles)
        withdrawn = set(seeds.values()) - selectors.active_user_ids(section, round_.number)
        boards = []
        for number, (a, b) in enumerate(table[round_.number - 1], start=1):
            first = seeds[a]
            if b is None:
                if first not in withdrawn:  # a withdrawn player's bye: nothing to play, nothing scored
                    boards.append(Board(number, first, None, ("bye: odd field (Berger table)",)))
                continue
            second = seeds[b]
            boards.append(Board(number, first, second, withdrawn=frozenset({first, second} & withdrawn)))
        return boards

    def rank(self, section: Section, stats: Stats) -> list[Ranked]:
        return ranked_by_tiebreaks(section, self.tiebreak_order(section))
