"""Arena: a fixed duration; players are paired again as soon as they are free, and
score Lichess-style streak points (league/formats/arena.py). A round is the games paired
at one moment, from the players free then; a paused player is not free."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from league.competitions import selectors
from league.formats import arena
from league.models import Pairing, Round, Section

from .base import Board, FormatBase, LiveRow, Next, Ranked, Stats
from .section_settings import ARENA_DURATION, STREAK_BONUS

#: Points without the streak bonus (a section may play without it).
_BASE_POINTS = {"win": arena.WIN, "draw": arena.DRAW, "loss": arena.LOSS}


class ArenaFormat(FormatBase):
    key = Section.Format.ARENA
    settings = (ARENA_DURATION, STREAK_BONUS)
    timed = True
    pairs_on_scores = True  # free players are paired by points
    # Said under the table: an arena has no tie-break columns to name (rank, below).
    tie_order = ("Players level on points are ranked by games played (over the board: a forfeit is none), more "
                 "first; level on both, they share the place.")
    repair_refusal = ("arena", "An arena pairs players as they become free: it has no round to pair again.")

    def points_meaning(self, section: Section) -> str:
        # An arena's 12 points from 4 wins and 2 draws read as a wrong sum without this
        # (the 🔥 entry of the key shows only while somebody is on a streak).
        base = f"A win scores {arena.WIN}, a draw {arena.DRAW}, a loss {arena.LOSS}"
        if not section.streak_bonus:
            return base
        return (f"{base}; after two wins in a row each game scores double (a win {2 * arena.WIN}, "
                f"a draw {2 * arena.DRAW}) until a draw or a loss ends the streak")

    def closes_at(self, section: Section) -> datetime:
        assert section.arena_duration is not None  # create_section refuses an arena without one
        return section.starts_at + section.arena_duration

    def late_entry_round(self, section: Section, now: datetime) -> int | None:
        return None if now >= self.closes_at(section) else 0  # 0: paired with the next free player

    def pair_round(self, section: Section, round_: Round, now: datetime) -> list[Board]:
        state = self.state(section)
        pairs = state.pair_explained(max(now.timestamp(), state.start))
        return [Board(number, cast(int, first), cast(int, second), reasons=tuple(r.as_dict() for r in reasons))
                for number, (first, second, reasons) in enumerate(pairs, start=1)]

    def wave_due(self, section: Section, now: datetime) -> bool:
        return now < self.closes_at(section) and len(self.state(section).waiting) >= 2

    def wave_overdue(self, section: Section, now: datetime, since: datetime) -> bool:
        """A wave due whose players (two or more) have been free since ``since`` or
        before: the wave's own task, sent as they became free, was lost (the sweep)."""
        if now >= self.closes_at(section):
            return False
        waiting = self.state(section).waiting
        return sum(1 for free_since in waiting.values() if free_since <= since.timestamp()) >= 2

    def after_result(self, section: Section, round_: Round, now: datetime, *, round_over: bool) -> Next:
        """Each result frees two players: pair them with whoever is free, until the time is
        up; then the section ends with its last game."""
        if now >= self.closes_at(section):
            in_play = section.pairings.exclude(status=Pairing.Status.FINISHED).exists()
            return Next.WAIT if in_play else Next.FINISH
        return Next.PAIR_FREE if round_.number > 0 else Next.WAIT

    def _played(self, section: Section) -> arena.Arena:
        """The pure arena with the section's finished games, in finishing order."""
        state = arena.Arena(self._duration(section), start=section.starts_at.timestamp())
        for user_id in selectors.active_entries(section).values_list("user_id", flat=True):
            state.players[user_id] = arena.ArenaPlayer(user_id)
        finished = (
            Pairing.objects.filter(section=section, status=Pairing.Status.FINISHED, second__isnull=False)
            .order_by("finished_at", "pk")
            .values_list("first_id", "second_id", "first_points", "second_points", "finished_at")
        )
        for first, second, first_points, second_points, finished_at in finished:
            # A finished pairing has its points and its time.
            assert first_points is not None and second_points is not None and finished_at is not None
            for user_id in (first, second):
                state.players.setdefault(user_id, arena.ArenaPlayer(user_id))
                state.playing.add(user_id)
            state.players[first].firsts += 1
            winner = None if first_points == second_points else first if first_points > second_points else second
            state.finish(first, second, winner, finished_at.timestamp())
        return state

    def state(self, section: Section) -> arena.Arena:
        """The pure arena rebuilt from the section: its games, who is free, who is playing."""
        state = self._played(section)
        busy: set[int] = set()
        for pair in section.pairings.exclude(status=Pairing.Status.FINISHED).values_list("first_id", "second_id"):
            busy.update(pair)
        # A paused player (a no-show, or on a break) is not free: arena_pause.py.
        active = set(state.players) & set(
            selectors.active_entries(section).filter(paused_at__isnull=True).values_list("user_id", flat=True))
        state.waiting = {p: state.waiting.get(p, state.start) for p in active if p not in busy}
        state.playing = {p for p in state.players if p in busy}
        return state

    @staticmethod
    def _duration(section: Section) -> float:
        assert section.arena_duration is not None  # create_section refuses an arena without one
        return section.arena_duration.total_seconds()

    @staticmethod
    def _points(section: Section, player: arena.ArenaPlayer) -> int:
        """The player's points: with the streak bonus, or without it if the section has none."""
        return player.points if section.streak_bonus else sum(_BASE_POINTS[kind] for kind, _ in player.results)

    def rank(self, section: Section, stats: Stats) -> list[Ranked]:
        """By points, then games played (more first); equal on both: the same place."""
        points = {cast(int, p.id): self._points(section, p) for p in self._played(section).players.values()}

        def played(user_id: int) -> int:
            return stats.get(user_id, {}).get("played", 0)

        rows: list[Ranked] = []
        for index, user_id in enumerate(sorted(points, key=lambda u: (-points[u], -played(u)))):
            prev = rows[-1] if rows else None
            tied = prev is not None and prev.points == points[user_id] and played(prev.user_id) == played(user_id)
            rows.append(Ranked(user_id, prev.rank if tied and prev else index + 1, points[user_id]))
        return rows

    def live_standings(self, section: Section) -> list[LiveRow] | None:
        """While it runs, the table is counted from the games (it is stored at the end):
        points with streak bonuses as league/formats/arena.py counts them."""
        if section.status != Section.Status.RUNNING:
            return None
        rows: list[LiveRow] = []
        # In the pure arena's order (points with the bonus), as the table has always been shown.
        for index, player in enumerate(self._played(section).standings()):
            points = self._points(section, player)
            tied = rows and rows[-1].points == points and rows[-1].played == player.games
            kinds = [kind for kind, _ in player.results]
            rows.append(LiveRow(
                cast(int, player.id), rows[-1].rank if tied else index + 1, points, player.games,
                kinds.count("win"), kinds.count("draw"), kinds.count("loss"),
                on_fire=section.streak_bonus and player.on_fire,
            ))
        return rows
