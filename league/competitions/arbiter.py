"""The arbiter's side of pairings: the next round previewed before it starts (nothing
written), the section as a FIDE TRF-16 file, and a round's pairings set from a TRF (an
override the round's start applies; moderation.operations audits it).

Start numbers are the seeds (fixed when the section starts); "w" is the player who
moves first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.errors import ServiceError
from league.formats import trf
from league.models import Round, Section

from . import selectors, trf_state, unpairable
from .formats import Board, format_of
from .refusals import waiting_stage_refusal
from .rounds import begin_section, boards_for, players_at_start
from .sections import locked_section


class _DryRun(Exception):
    """Raised inside the preview's transaction so that everything it did is rolled back."""

    def __init__(self, boards: list[Board] | None) -> None:
        super().__init__("dry run")
        self.boards = boards


@dataclass(frozen=True)
class Preview:
    round: Round
    boards: list[Board]


def _previewable(section: Section, round_: Round) -> None:
    if round_.status != Round.Status.SCHEDULED:
        raise ServiceError("round-started", f"Round {round_.number} has started: its pairings are on the section page.")
    if section.status not in (Section.Status.REGISTRATION, Section.Status.RUNNING):
        raise ServiceError("section-over", "This section is over: it pairs no more rounds.")
    if format_of(section).timed:
        raise ServiceError("timed-format", "An arena pairs players as they become free: it has no round to preview.")
    waiting = waiting_stage_refusal(section)
    if waiting is not None:  # its players are not known yet: nothing to pair, nothing to start
        raise ServiceError(*waiting)


def preview_round(*, round_: Round, now: datetime | None = None) -> Preview:
    """The boards ``round_`` would get if it started now (what start_round would pair),
    computed in a transaction that is always rolled back: no row is kept, no game made."""
    now = now or timezone.now()
    round_ = Round.objects.select_related("section").get(pk=round_.pk)  # as the start will read it
    _previewable(round_.section, round_)
    try:
        with transaction.atomic():
            section = Section.objects.select_related("tournament").get(pk=round_.section_id)
            if round_.number == 1 and section.status == Section.Status.REGISTRATION:
                too_many = unpairable.swiss_rounds_refusal(section, players_at_start(section))
                if too_many:
                    raise ServiceError("too-many-rounds", too_many)
                if not begin_section(section, now):
                    raise _DryRun(None)
            try:
                boards = boards_for(section, round_, now)
            except unpairable.UNPAIRABLE:
                raise ServiceError("unpairable", unpairable.round_words(section, round_)) from None
            raise _DryRun(boards)
    except _DryRun as done:
        if done.boards is None:
            raise ServiceError("too-few-players",
                               "Fewer than two players: starting now would cancel the section.") from None
        return Preview(round_, done.boards)


# -- TRF-16 out ----------------------------------------------------------------------------


def section_trf(section: Section) -> str:
    """The section as TRF-16 (trf_state.section_tournament), with its format in words (092)."""
    tournament = trf_state.section_tournament(section)
    at = next(i for i, (tag, _) in enumerate(tournament.headers) if tag == "062") + 1
    tournament.headers.insert(at, ("092", format_of(section).describe(section)))
    return trf.write(tournament)


def trf_filename(section: Section) -> str:
    return f"{section.tournament.slug}-{section.slug}.trf"


# -- TRF-16 in: the arbiter's pairings for a round ----------------------------------------


def _override_refusal(section: Section, round_: Round) -> None:
    _previewable(section, round_)
    fmt = format_of(section)
    if fmt.has_bracket:
        raise ServiceError("bracket-format", "A bracket pairs its own matches: its pairings cannot be set from a file.")
    if section.status != Section.Status.RUNNING:
        raise ServiceError("not-started", "Start numbers are fixed when the section starts: set pairings from "
                                          "round 2 on.")


@transaction.atomic
def set_round_pairings(*, round_id: int, text: str) -> Round:
    """Read round N's pairings from a TRF-16 text and keep them on the scheduled round, to
    be used instead of the computed ones when it starts. Refused, changing nothing, unless
    every player who plays round N is paired exactly once by a start number of this section."""
    found = Round.objects.filter(pk=round_id).values_list("section_id", flat=True).first()
    if found is None:
        raise ServiceError("no-such-round", "There is no such round.")
    section = locked_section(found)
    round_ = Round.objects.select_for_update().get(pk=round_id)
    _override_refusal(section, round_)
    try:
        read = trf.read(text)
        if not read.players:
            raise trf.TrfError("it has no player lines (001).")
        pairs = trf.round_pairings(read, round_.number)
        names = {p.number: p.name for p in read.players}
    except trf.TrfError as err:
        raise ServiceError("bad-trf", f"This file cannot be used: {err}") from None
    seeds = {e.seed: e for e in section.entries.select_related("user__profile") if e.seed is not None}
    active = selectors.active_user_ids(section, round_.number)
    seen: set[int] = set()
    for number in (n for pair in pairs for n in pair if n is not None):
        entry = seeds.get(number)
        if entry is None:
            raise ServiceError("unknown-player", f"Start number {number} is not a player of this section.")
        if names.get(number) and not trf.same_name(names[number], entry.user.name):
            raise ServiceError("other-section", f"Start number {number} is {entry.user.name} here, not "
                                                f"{names[number]}: is this file from another section?")
        if entry.user_id not in active:
            raise ServiceError("not-playing", f"{entry.user.name} (start number {number}) does not play round "
                                              f"{round_.number}.")
        seen.add(entry.user_id)
    missing = sorted(e.seed or 0 for e in seeds.values() if e.user_id in active and e.user_id not in seen)
    if missing:
        raise ServiceError("not-paired", f"Start number {missing[0]} plays round {round_.number} but the file does "
                                         "not pair them: every player is paired once.")
    games = [p for p in pairs if p[1] is not None]
    byes = [p for p in pairs if p[1] is None]
    round_.pairing_override = [
        {"board": board, "first": seeds[first].user_id, "second": seeds[second].user_id if second else None}
        for board, (first, second) in enumerate(games + byes, start=1)
    ]
    round_.save(update_fields=["pairing_override"])
    return round_
