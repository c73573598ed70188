"""Round robin: everyone meets everyone (twice in a double), by FIDE's Berger tables;
or in snake-seeded groups, each a round robin of its own (the first stage of a
multi-stage event)."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from league.competitions import selectors
from league.formats import explain, round_robin, tiebreaks
from league.formats.stages import group_letter, snake_groups
from league.models import Round, Section

from .base import Board, FormatBase, Ranked, Stats, ranked_by_tiebreaks
from .section_settings import BYE_POINTS, CYCLES, GROUPS


class RoundRobinFormat(FormatBase):
    key = Section.Format.ROUND_ROBIN
    settings = (CYCLES, BYE_POINTS, GROUPS)
    default_tiebreaks = ("direct-encounter", "wins", "sonneborn-berger")  # FIDE C.07's for a round robin
    has_crosstable = True
    # The Berger table pairs them on: each game still to come is scored as their forfeit.
    after_withdrawal = "their games still to play are lost by forfeit"
    before_start = "The crosstable and its Berger pairings are set when the section starts."

    def describe(self, section: Section) -> str:
        described = f"{self.label}, double" if section.cycles == 2 else self.label
        return f"{described}, {section.groups} groups" if section.groups > 1 else described

    def total_rounds(self, section: Section, players: int) -> int | None:
        return round_robin.grouped_round_count(players, section.groups, section.cycles)

    def pair_round(self, section: Section, round_: Round, now: datetime) -> list[Board]:
        """The Berger table's round (each group's); a withdrawn player's games are
        forfeits, their bye nothing."""
        seeds = selectors.seeded_users(section)
        table = round_robin.grouped_round(len(seeds), section.groups, round_.number, section.cycles)
        withdrawn = set(seeds.values()) - selectors.active_user_ids(section, round_.number)
        boards: list[Board] = []
        for group, a, b in table:
            first = seeds[a]
            flags = (f"Group {group_letter(group)}",) if section.groups > 1 else ()
            letter = group_letter(group) if section.groups > 1 else ""
            if b is None:
                if first not in withdrawn:  # a withdrawn player's bye: nothing to play, nothing scored
                    why = explain.Reason("berger", (first,), {"round": round_.number, "group": letter})
                    boards.append(Board(len(boards) + 1, first, None, (*flags, "bye: odd field (Berger table)"),
                                        reasons=(why.as_dict(),)))
                continue
            second = seeds[b]
            why = explain.Reason("berger", (first, second), {"round": round_.number, "group": letter, "seeds": [a, b]})
            boards.append(Board(len(boards) + 1, first, second, flags, reasons=(why.as_dict(),),
                                withdrawn=frozenset({first, second} & withdrawn)))
        return boards

    def rank(self, section: Section, stats: Stats) -> list[Ranked]:
        """One table, or each group's table (ranks within the group), group A's first."""
        order = self.tiebreak_order(section)
        if section.groups <= 1:
            return ranked_by_tiebreaks(section, order)
        seeds = selectors.seeded_users(section)
        results = selectors.round_results(section)
        ranked: list[Ranked] = []
        for members in snake_groups(len(seeds), section.groups):
            group = {seeds[seed]: results.get(seeds[seed], []) for seed in members}
            table = tiebreaks.standings(cast(tiebreaks.Results, group), order)
            ranked.extend(Ranked(cast(int, s.player), s.rank, s.points, s.tiebreaks) for s in table)
        return ranked
