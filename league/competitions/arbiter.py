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
from league.models import Entry, PairingPlayer, Round, Section, Standing

from . import selectors
from .formats import Board, format_of
from .rounds import begin_section, boards_for
from .sections import locked_section
from .stages import seeded


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


def preview_round(*, round_: Round, now: datetime | None = None) -> Preview:
    """The boards ``round_`` would get if it started now (what start_round would pair),
    computed in a transaction that is always rolled back: no row is kept, no game made."""
    now = now or timezone.now()
    round_ = Round.objects.select_related("section").get(pk=round_.pk)  # as the start will read it
    _previewable(round_.section, round_)
    try:
        with transaction.atomic():
            section = Section.objects.select_related("tournament").get(pk=round_.section_id)
            if round_.number == 1 and section.status == Section.Status.REGISTRATION and not begin_section(section, now):
                raise _DryRun(None)
            raise _DryRun(boards_for(section, round_, now))
    except _DryRun as done:
        if done.boards is None:
            raise ServiceError("too-few-players",
                               "Fewer than two players: starting now would cancel the section.") from None
        return Preview(round_, done.boards)


# -- TRF-16 out ----------------------------------------------------------------------------

#: Our results as TRF codes, (first player's, second player's).
_TRF_RESULTS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "draw": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"),
                "--": ("-", "-"), "": (" ", " ")}


def _numbered(section: Section) -> list[Entry]:
    """Entries in start-number order: the seeds, or before the start the order seeding will give."""
    entries = list(section.entries.select_related("user__profile"))
    numbered = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
    return numbered + seeded(section, [e for e in entries if e.seed is None])


def section_trf(section: Section) -> str:
    """The section as TRF-16: every player with their rounds so far (a round in play with
    its pairings and no result yet); a round a player was not paired in is "0000 - Z"."""
    entries = _numbered(section)
    number = {e.user_id: index for index, e in enumerate(entries, start=1)}
    played = list(section.round_set.exclude(status=Round.Status.SCHEDULED).order_by("number")
                  .values_list("number", flat=True))
    sides: dict[tuple[int, int], PairingPlayer] = {
        (side.user_id, side.round.number): side
        for side in PairingPlayer.objects.filter(round__section=section).select_related("round", "pairing")
    }
    standing = {s.user_id: s for s in Standing.objects.filter(section=section)}
    players = []
    for index, entry in enumerate(entries, start=1):
        games = []
        for round_number in played:
            side = sides.get((entry.user_id, round_number))
            if side is None:
                games.append(trf.Game(None, "-", "Z"))
            elif side.opponent_id is None:
                games.append(trf.Game(None, "-", "U"))
            else:
                pairing = side.pairing
                mine = _TRF_RESULTS[pairing.result][0 if entry.user_id == pairing.first_id else 1]
                games.append(trf.Game(number[side.opponent_id], "w" if side.moves_first else "b", mine))
        points = sum(s.points or 0.0 for (u, _), s in sides.items() if u == entry.user_id)
        row = standing.get(entry.user_id)
        players.append(trf.Player(number=index, name=entry.user.name, rating=round(entry.rating) if entry.rating else None,
                                  points=points, rank=row.rank if row else 0, rounds=games))
    headers = [
        ("###", "Tic Tac Toe League: w moves first, b second; start numbers are the seeds"),
        ("012", f"{section.tournament.name}: {section.name}"),
        ("042", section.starts_at.strftime("%Y/%m/%d")),
    ]
    if section.finished_at:
        headers.append(("052", section.finished_at.strftime("%Y/%m/%d")))
    headers += [("062", str(len(players))), ("092", format_of(section).describe(section))]
    if section.total_rounds:
        headers.append(("XXR", str(section.total_rounds)))
    return trf.write(trf.Tournament(headers, players))


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
        if names.get(number) and names[number].casefold() != entry.user.name.casefold():
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
