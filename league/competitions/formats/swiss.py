"""Swiss: a fixed number of rounds, each paired by score: by the FIDE Dutch system
(league/formats/dutch.py, on the section as TRF-16) or by fast score groups
(league/formats/swiss.py), as the section's ``swiss_system`` says."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime

from league.competitions import selectors, trf_state
from league.formats import dutch, swiss, trf
from league.models import PairingPlayer, Round, Section

from .base import Board, FormatBase, Ranked, Stats, ranked_by_tiebreaks
from .section_settings import ACCELERATION, BYE_POINTS, LATE_ENTRY_ROUNDS, ROUNDS, SWISS_SYSTEM


class SwissFormat(FormatBase):
    key = Section.Format.SWISS
    settings = (SWISS_SYSTEM, ACCELERATION, ROUNDS, BYE_POINTS, LATE_ENTRY_ROUNDS)
    default_tiebreaks = ("buchholz-cut1", "buchholz", "sonneborn-berger")  # FIDE C.07's for an individual Swiss
    pairs_on_scores = True

    def total_rounds(self, section: Section, players: int) -> int | None:
        return section.rounds or swiss.recommended_rounds(players)

    def late_entry_round(self, section: Section, now: datetime) -> int | None:
        if not section.late_entry_rounds:
            return None
        # current_round is the last round started: whether in play or over, the entrant
        # joins the next one, with the rounds missed counted as unplayed, 0 points.
        joins = section.current_round + 1
        return joins if joins <= section.late_entry_rounds + 1 and joins <= (section.total_rounds or 0) else None

    def pair_round(self, section: Section, round_: Round, now: datetime) -> list[Board]:
        if section.swiss_system == Section.SwissSystem.DUTCH:
            return self._dutch(section, round_)
        players, user_id = self._players(section, round_.number)
        return [
            Board(pairing.board, user_id[pairing.first], None if pairing.second is None else user_id[pairing.second],
                  reasons=tuple(reason.as_dict(user_id) for reason in pairing.reasons))
            for pairing in swiss.pair_round(players)
        ]

    @staticmethod
    def _dutch(section: Section, round_: Round) -> list[Board]:
        """The FIDE Dutch pairing of the section as it stands before this round; players
        who do not play it are absent (Z). Boards in the engine's order."""
        tournament = trf_state.section_tournament(section, before_round=round_.number)
        user_id: dict[Hashable, int] = {index: entry.user_id
                                        for index, entry in enumerate(trf_state.numbered(section), start=1)}
        active = selectors.active_user_ids(section, round_.number)
        for player in tournament.players:
            if user_id[player.number] not in active:
                player.rounds.append(trf.Game(None, "-", "Z"))
        points = dutch.Points(win=1.0, draw=0.5, loss=0.0, pab=float(section.bye_points))
        return [
            Board(board, user_id[pair.white], None if pair.black is None else user_id[pair.black],
                  reasons=tuple(reason.as_dict(user_id) for reason in pair.reasons))
            for board, pair in enumerate(dutch.pair(tournament, round_.number, points=points), start=1)
        ]

    @staticmethod
    def _players(section: Section, number: int) -> tuple[list[swiss.SwissPlayer], dict[Hashable, int]]:
        """The Swiss state from the stored rounds, keyed by username, and username -> user id."""
        active = selectors.active_user_ids(section, number)
        rows = section.entries.exclude(seed__isnull=True).values_list("user_id", "user__username", "seed")
        name = {user_id: username for user_id, username, _ in rows}
        players = {
            user_id: swiss.SwissPlayer(username, (seed or 10**6) - 1, active=user_id in active)
            for user_id, username, seed in rows
        }
        history = (
            PairingPlayer.objects.filter(round__section=section, round__number__lt=number)
            .order_by("round__number").values_list("user_id", "opponent_id", "points", "played", "moves_first", "round__number")
        )
        for user_id, opponent_id, points, played, moves_first, round_number in history:
            player = players.get(user_id)
            if player is None:
                continue
            player.score += points or 0.0
            if opponent_id is None:
                player.had_bye = True
                continue
            player.opponents.add(name.get(opponent_id, str(opponent_id)))
            if played:  # FIDE: forfeited games do not count for colours
                player.colours.append(swiss.X if moves_first else swiss.O)
                player.colour_rounds.append(round_number)
        user_ids: dict[Hashable, int] = {username: user_id for user_id, username in name.items()}
        return list(players.values()), user_ids

    def rank(self, section: Section, stats: Stats) -> list[Ranked]:
        return ranked_by_tiebreaks(section, self.tiebreak_order(section))
