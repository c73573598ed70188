"""One protocol for every tournament format (SectionFormat), what its methods answer
with, and the defaults most formats share (FormatBase).

A format reads the section's rows, feeds them to its pure algorithm (league/formats/)
and answers with decisions: the boards of a round, what follows a result, the ranking.
the services (league/competitions/) write them; nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Protocol, cast, runtime_checkable

from league.competitions import selectors
from league.formats import tiebreaks
from league.formats.bracket import Knockout, Match
from league.models import Round, Section

from .section_settings import Refusal, Setting

#: Game statistics of a section's players: user id -> {"played", "wins", "draws", "losses"}.
Stats = dict[int, dict[str, int]]


class Next(Enum):
    """What follows a result (``SectionFormat.after_result``)."""

    WAIT = "wait"  # nothing yet
    NEXT_ROUND = "next-round"  # the round is over: the table, then the next round is scheduled
    LAST_ROUND = "last-round"  # the round is over and it was the last: the table, then the end
    PAIR_FREE = "pair-free"  # pair whoever is free (a timed format)
    FINISH = "finish"  # the section is over (a timed format: time is up and nothing is in play)


@dataclass(frozen=True)
class Board:
    """A pairing a format makes for a round; the services create it: a game (or match),
    a bye (``second`` None) or, when ``withdrawn`` holds either player, a forfeit."""

    number: int
    first: int  # user id; moves first
    second: int | None
    flags: tuple[str, ...] = ()  # notes, in words
    reasons: tuple[dict, ...] = ()  # why: league.formats.explain.Reason.as_dict, players as user ids
    bracket: Match | None = None  # the bracket match it plays (elimination)
    withdrawn: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Ranked:
    """A player's place in the section's table (the services add the game counts)."""

    user_id: int
    rank: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class LiveRow:
    """A row of a table counted from the games while the section runs."""

    user_id: int
    rank: int
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    on_fire: bool = False


@dataclass(frozen=True)
class Progress:
    """How far a player of a knockout has got, for its table (a knockout's table shows
    this, not points): still in or out, in words, and the place once it is decided."""

    words: str  # "Still in: semi-finals", "Eliminated in round 1", "Winner"
    still_in: bool
    #: The final place once nothing left to play can change it (players knocked out in
    #: the same round share it); None while it is open (still in, or playing for places).
    place: int | None
    #: Out (or the winner) with no match left to play, a placement or consolation match
    #: being one: withdrawing would change nothing (refusals.withdraw_refusal).
    done: bool = False


@runtime_checkable
class SectionFormat(Protocol):
    """A tournament format, as the services, selectors and pages see it. The data are
    read-only properties here, plain class attributes in the format classes."""

    @property
    def key(self) -> str:
        """The Section.Format value."""
        ...

    @property
    def settings(self) -> tuple[Setting, ...]:
        """The format's own section settings (section_settings.py)."""
        ...

    @property
    def default_tiebreaks(self) -> tuple[str, ...]:
        """The tie-breaks when the organiser sets none; empty: the format ranks without them."""
        ...

    @property
    def has_bracket(self) -> bool: ...

    @property
    def has_losers_bracket(self) -> bool:
        """A loss in the winners' bracket is not an exit (double elimination)."""
        ...

    @property
    def has_crosstable(self) -> bool: ...

    @property
    def timed(self) -> bool:
        """Runs a fixed time from its start, pairing players as they become free (arena)."""
        ...

    @property
    def tie_order(self) -> str:
        """How players level on points are ranked, in words, for a format ranked without
        tie-break columns ("": it has columns, or no points)."""
        ...

    @property
    def before_start(self) -> str:
        """What the section's page says while registration is open ("": nothing)."""
        ...

    @property
    def drawn_game_replays(self) -> int | None:
        """None: a drawn game stands; N: replayed (first move swapped) up to N times, then
        the higher seed goes through."""
        ...

    @property
    def withdrawal_eliminates(self) -> bool:
        """A withdrawn entry is marked eliminated."""
        ...

    @property
    def after_withdrawal(self) -> str:
        """What a withdrawal mid-event means for the player's rounds still to come, in
        words for the standings ("not paired again")."""
        ...

    @property
    def correction_refusal(self) -> Refusal | None:
        """Why a played result cannot be corrected (None: it can)."""
        ...

    @property
    def repair_refusal(self) -> Refusal | None:
        """Why a round in play cannot be paired again (None: it can)."""
        ...

    @property
    def sends_one_through(self) -> bool:
        """Every pairing sends exactly one player on (a knockout): an arbiter's draw or
        double forfeit would leave the bracket without a winner (refusals.tie_refusal)."""
        ...

    @property
    def pairs_on_scores(self) -> bool:
        """A round's pairings follow the scores so far (Swiss, arena): a corrected result
        leaves the rounds paired since on the old scores (league/competitions/corrections.py)."""
        ...

    @property
    def label(self) -> str: ...

    def describe(self, section: Section) -> str:
        """The format with its settings, in words ("Round robin, double")."""
        ...

    def points_meaning(self, section: Section) -> str:
        """How a game scores, for the standings' key, where it is not 1, ½, 0 ("": it is,
        or the table has no points)."""
        ...

    def tiebreak_order(self, section: Section) -> list[str]:
        """The section's tie-breaks: the organiser's, or the format's default."""
        ...

    def total_rounds(self, section: Section, players: int) -> int | None:
        """The number of rounds for ``players``, fixed at the start (None: not counted)."""
        ...

    def closes_at(self, section: Section) -> datetime | None:
        """When a timed format stops pairing (None: the last round ends the section)."""
        ...

    def late_entry_round(self, section: Section, now: datetime) -> int | None:
        """The round a late entrant of a running section joins (0: at once), or None: closed."""
        ...

    def pair_round(self, section: Section, round_: Round, now: datetime) -> list[Board]:
        """The boards of ``round_`` (a pairing wave, for a timed format)."""
        ...

    def wave_due(self, section: Section, now: datetime) -> bool:
        """Whether a pairing wave is due now (timed formats; never for the others)."""
        ...

    def wave_overdue(self, section: Section, now: datetime, since: datetime) -> bool:
        """Whether a wave is due whose players have been free since ``since`` or before
        (its task lost: the sweep pairs them). Never for the untimed formats."""
        ...

    def after_result(self, section: Section, round_: Round, now: datetime, *, round_over: bool) -> Next:
        """What follows a result in ``round_`` (``round_over``: it was the round's last)."""
        ...

    def rank(self, section: Section, stats: Stats) -> list[Ranked]:
        """The table, best first."""
        ...

    def live_standings(self, section: Section) -> list[LiveRow] | None:
        """The table counted from the games while it runs; None: read the stored table."""
        ...

    def bracket(self, section: Section) -> Knockout | None:
        """The pure bracket with the decided pairings recorded (None: no bracket)."""
        ...

    def progress(self, section: Section) -> dict[int, Progress] | None:
        """A knockout: each player's progress (user id -> Progress), what its table shows
        instead of points; None: a format ranked by points."""
        ...


class FormatBase:
    """What most formats share: played in rounds, no bracket, nothing timed. A format
    class sets its ``key`` and ``settings`` and overrides what differs."""

    key: str
    settings: tuple[Setting, ...]
    default_tiebreaks: tuple[str, ...] = ()
    has_bracket = False
    has_losers_bracket = False
    has_crosstable = False
    timed = False
    tie_order = ""
    before_start = ""
    drawn_game_replays: int | None = None
    withdrawal_eliminates = False
    after_withdrawal = "not paired again"
    correction_refusal: Refusal | None = None
    repair_refusal: Refusal | None = None
    sends_one_through = False
    pairs_on_scores = False

    @property
    def label(self) -> str:
        return str(Section.Format(self.key).label)

    def describe(self, section: Section) -> str:
        return self.label

    def points_meaning(self, section: Section) -> str:
        return ""

    def tiebreak_order(self, section: Section) -> list[str]:
        return list(section.tiebreaks) or list(self.default_tiebreaks)

    def total_rounds(self, section: Section, players: int) -> int | None:
        return None

    def closes_at(self, section: Section) -> datetime | None:
        return None

    def late_entry_round(self, section: Section, now: datetime) -> int | None:
        return None

    def wave_due(self, section: Section, now: datetime) -> bool:
        return False

    def wave_overdue(self, section: Section, now: datetime, since: datetime) -> bool:
        return False

    def after_result(self, section: Section, round_: Round, now: datetime, *, round_over: bool) -> Next:
        if not round_over:
            return Next.WAIT
        return Next.NEXT_ROUND if self.more_rounds(section, round_) else Next.LAST_ROUND

    def more_rounds(self, section: Section, round_: Round) -> bool:
        """Whether another round follows ``round_``: the rounds fixed at the start, while
        two players are left to pair."""
        return round_.number < (section.total_rounds or 0) and len(
            selectors.active_user_ids(section, round_.number + 1)) >= 2

    def live_standings(self, section: Section) -> list[LiveRow] | None:
        return None

    def bracket(self, section: Section) -> Knockout | None:
        return None

    def progress(self, section: Section) -> dict[int, Progress] | None:
        return None


def ranked_by_tiebreaks(section: Section, order: list[str]) -> list[Ranked]:
    """Points from every round, ties broken by ``order`` (league/formats/tiebreaks.py)."""
    table = tiebreaks.standings(cast(tiebreaks.Results, selectors.round_results(section)), order)
    return [Ranked(cast(int, s.player), s.rank, s.points, s.tiebreaks) for s in table]
