"""Rounds: round 1 begins the section (seeds, the number of rounds), a round is paired by
the section's format and its games created; an arena's pairing waves and its end; an
aborted game created again; the sweep that catches up on whatever a lost task left."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import CharField, Exists, Max, OuterRef, Q, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone

from accounts.errors import ServiceError
from games.models import Game, Match
from league.competitions import selectors
from league.models import Entry, Pairing, RatingPeriod, Round, Section, Tournament

from . import stages, unpairable
from .formats import TIMED_FORMATS, Board, format_of
from .notices import announce_round, notify_players
from .pairings import create_boards, create_games
from .results import (
    after_result,
    finish_section,
    finish_tournament_if_done,
    forfeit_no_show,
    rate_tournament,
    record_game_result,
)
from .scheduling import ARENA_WAVE_LOST_SECONDS, RATING_TASK_LOST_SECONDS
from .sections import locked_section


@transaction.atomic
def start_round(*, section_id: int, number: int, now: datetime | None = None, force: bool = False) -> Round | None:
    """Pair round ``number`` and create its games. Idempotent: a round starts once; a
    second call (a task delivered twice, beat and a direct send) returns it unchanged.

    Early calls (before the round's start time) do nothing unless ``force``.
    """
    now = now or timezone.now()
    section = locked_section(section_id)
    round_ = Round.objects.select_for_update().filter(section=section, number=number).first()
    if round_ is None or round_.status != Round.Status.SCHEDULED:
        return round_
    if section.status in (Section.Status.FINISHED, Section.Status.CANCELLED):
        return round_
    if section.paused_at is not None:
        return None  # paused, even for "start now": resume_section starts what is due
    if not force and now + timedelta(seconds=1) < round_.starts_at:
        return None
    if not force and section.tournament.status == Tournament.Status.DRAFT:
        return None  # not published yet: the sweep starts the round once it is
    if number == 1 and stages.waiting(section):
        return None  # a later stage waits for the stage before it (the sweep tries again)
    if round_.unpairable and not force and not (number == 1 and section.status == Section.Status.REGISTRATION):
        return round_  # it could not be paired: the organisers decide (unpairable.py); "start now" tries again
    if number == 1 and section.status == Section.Status.REGISTRATION:
        too_many = unpairable.swiss_rounds_refusal(section, players_at_start(section))
        if too_many:
            return _cannot_pair(section, round_, too_many, now, force=force)
        if not begin_section(section, now):
            return round_
    try:
        boards = boards_for(section, round_, now)
    except unpairable.UNPAIRABLE:
        return _cannot_pair(section, round_, unpairable.round_words(section, round_), now, force=force)
    round_.status, round_.started_at, round_.unpairable = Round.Status.PAIRING, now, ""
    round_.save(update_fields=["status", "started_at", "unpairable"])
    section.current_round = max(section.current_round, number)
    section.save(update_fields=["current_round"])
    pair_and_play(section, round_, now, boards=boards)
    return round_


def players_at_start(section: Section) -> int:
    """The players round 1 would pair: those entered, checked in when check-in is asked."""
    entries = selectors.active_entries(section)
    if section.check_in_opens_at is not None:
        entries = entries.filter(status=Entry.Status.CHECKED_IN)
    return entries.count()


def _cannot_pair(section: Section, round_: Round, words: str, now: datetime, *, force: bool) -> Round:
    """A round due that cannot be paired: refused in words to an organiser's "start now"
    (nothing changed); else kept on the round, which the scheduler then leaves alone, and
    the organisers told."""
    if force:
        raise ServiceError("unpairable", words)
    unpairable.mark(section, round_, words, now)
    return round_


def boards_for(section: Section, round_: Round, now: datetime) -> list[Board]:
    """The boards a round starting now gets: the arbiter's pairings when set (from a TRF,
    arbiter.set_round_pairings; a player withdrawn since plays a forfeit), else the
    format's. The organiser's preview shows exactly these."""
    if round_.pairing_override is None:
        return format_of(section).pair_round(section, round_, now)
    active = selectors.active_user_ids(section, round_.number)
    return [
        Board(row["board"], row["first"], row["second"], reasons=({"code": "arbiter", "players": [], "data": {}},),
              withdrawn=frozenset(p for p in (row["first"], row["second"]) if p is not None and p not in active))
        for row in round_.pairing_override
        if row["second"] is not None or row["first"] in active  # no bye for a player who withdrew since
    ]


def pair_and_play(section: Section, round_: Round, now: datetime, *, boards: list[Board] | None = None) -> None:
    """Pair a round being paired by its format (or the arbiter), create its games, tell the
    players, and close it at once when it holds only byes and forfeits. ``boards``: the
    pairing already made (else made here; unpairable.UNPAIRABLE when none can be)."""
    create_boards(section, round_, boards_for(section, round_, now) if boards is None else boards, now)
    round_.status = Round.Status.IN_PLAY
    round_.save(update_fields=["status"])
    announce_round(section, round_)
    after_result(section, round_, now)  # a round of byes and forfeits only is over at once


def begin_section(section: Section, now: datetime) -> bool:
    """Close registration, drop who did not check in, seed, and fix the number of rounds.
    False (and the section cancelled) when fewer than two players are left."""
    if section.check_in_opens_at is not None:
        for entry in section.entries.filter(status=Entry.Status.REGISTERED):
            entry.status, entry.withdrawn_at, entry.withdrawn_reason = (
                Entry.Status.WITHDRAWN, now, selectors.NO_CHECK_IN)
            entry.save(update_fields=["status", "withdrawn_at", "withdrawn_reason"])
    stages.carry_over(section, now)  # a later stage: the previous stage's qualifiers (if not in yet)
    entries = list(selectors.active_entries(section).select_related("user"))
    if len(entries) < 2:
        section.status, section.finished_at = Section.Status.CANCELLED, now
        section.save(update_fields=["status", "finished_at"])
        finish_tournament_if_done(section.tournament, now)
        return False
    entries = stages.seeded(section, entries)
    stages.fit_groups(section, len(entries))
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
    Entry.objects.bulk_update(entries, ["seed"])
    section.total_rounds = format_of(section).total_rounds(section, len(entries))
    section.status, section.started_at = Section.Status.RUNNING, now
    section.save(update_fields=["status", "started_at", "total_rounds"])
    tournament = section.tournament
    if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return True


@transaction.atomic
def pair_arena(*, section_id: int, now: datetime | None = None) -> Round | None:
    """An arena's next pairing wave: everybody free now. Idempotent (nobody is free twice)."""
    now = now or timezone.now()
    section = locked_section(section_id)
    if section.status != Section.Status.RUNNING or section.paused_at is not None:
        return None
    fmt = format_of(section)
    if not fmt.wave_due(section, now):  # not a timed format, its time up, or fewer than two free
        return None
    number = (section.round_set.aggregate(m=Max("number"))["m"] or 0) + 1
    round_ = Round.objects.create(section=section, number=number, starts_at=now, started_at=now,
                                  status=Round.Status.PAIRING)
    section.current_round = number
    section.save(update_fields=["current_round"])
    create_boards(section, round_, fmt.pair_round(section, round_, now), now)
    round_.status = Round.Status.IN_PLAY
    round_.save(update_fields=["status"])
    announce_round(section, round_)
    return round_


@transaction.atomic
def finish_arena(*, section_id: int, now: datetime | None = None) -> Section | None:
    """The arena's time is up: finish it once its last games are over (else their
    results finish it)."""
    now = now or timezone.now()
    section = locked_section(section_id)
    closes = format_of(section).closes_at(section)
    if closes is None or section.status != Section.Status.RUNNING:
        return None
    if now + timedelta(seconds=1) < closes:
        return None
    if section.pairings.exclude(status=Pairing.Status.FINISHED).exists():
        return None
    finish_section(section, now)
    return section


@transaction.atomic
def restart_aborted(*, pairing_id: int) -> Pairing | None:
    """A tournament game a player aborted before the first move is created again: the
    pairing stands (a player who will not play is a no-show, and forfeits)."""
    found = Pairing.objects.filter(pk=pairing_id).values_list("section_id", flat=True).first()
    if found is None:
        return None
    section = locked_section(found)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=pairing_id)
    if pairing.status != Pairing.Status.IN_PLAY or pairing.game is None or pairing.game.status != Game.Status.ABORTED:
        return None
    pairing.flags = [*pairing.flags, f"game {pairing.game_id} aborted before the first move: a new game"]
    pairing.save(update_fields=["flags"])
    create_games(section, pairing)
    notify_players(section, pairing.round, [pairing], again="a new game: the last was aborted before its first move")
    return pairing


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """What a lost task could have left behind: rounds due but not started, finished
    games whose pairing is not scored, arenas past their end, an arena's free players
    left unpaired, a finished tournament's rating period not applied. Run by beat;
    idempotent."""
    now = now or timezone.now()
    done = {"rounds": 0, "results": 0, "arenas": 0, "no_shows": 0, "restarted": 0, "waves": 0, "rated_periods": 0}
    # A round found unpairable is left to the organisers; but for a round 1 refused for its
    # number of rounds, which the organiser's edit or more entries mend (checked, not paired).
    due = Round.objects.filter(status=Round.Status.SCHEDULED, starts_at__lte=now, section__paused_at__isnull=True,
                               section__status__in=[Section.Status.REGISTRATION, Section.Status.RUNNING]).filter(
        Q(unpairable="") | Q(number=1, section__status=Section.Status.REGISTRATION))
    for section_id, number in due.values_list("section_id", "number"):
        started = start_round(section_id=section_id, number=number, now=now)
        if started is not None and started.status != Round.Status.SCHEDULED:  # not one that cannot be paired
            done["rounds"] += 1
    open_pairings = Pairing.objects.filter(status=Pairing.Status.IN_PLAY)
    finished = Game.objects.filter(status=Game.Status.FINISHED).filter(
        Q(pk__in=open_pairings.values("game_id"))
        | Q(match_id__in=open_pairings.values("match_id"), match__status=Match.Status.FINISHED)
    )
    for game_id in finished.values_list("pk", flat=True):
        if record_game_result(game_id=game_id, now=now):
            done["results"] += 1
    in_play = open_pairings.filter(game__status=Game.Status.ACTIVE, section__paused_at__isnull=True)
    for pairing_id in in_play.values_list("pk", flat=True):
        if forfeit_no_show(pairing_id=pairing_id, now=now):
            done["no_shows"] += 1
    for pairing_id in open_pairings.filter(game__status=Game.Status.ABORTED).values_list("pk", flat=True):
        if restart_aborted(pairing_id=pairing_id):
            done["restarted"] += 1
    for section in Section.objects.filter(format__in=TIMED_FORMATS, status=Section.Status.RUNNING):
        closes = format_of(section).closes_at(section)
        if closes is not None and closes <= now:
            done["arenas"] += bool(finish_arena(section_id=section.pk, now=now))
        elif section.paused_at is None and format_of(section).wave_overdue(
                section, now, now - timedelta(seconds=ARENA_WAVE_LOST_SECONDS)):
            # Players free this long: their wave's task was lost, and nothing else pairs them.
            done["waves"] += pair_arena(section_id=section.pk, now=now) is not None
    # A tournament rated as one period whose rating task was lost: nothing else rates it.
    period_key = Concat(Value("tournament-"), Cast("pk", output_field=CharField()))
    unrated = Tournament.objects.filter(
        status=Tournament.Status.FINISHED, rating_period=Tournament.RatingPeriod.TOURNAMENT,
        finished_at__lte=now - timedelta(seconds=RATING_TASK_LOST_SECONDS),
    ).annotate(period_key=period_key).exclude(
        Exists(RatingPeriod.objects.filter(key=OuterRef("period_key"), applied_at__isnull=False)))
    for tournament_id in unrated.values_list("pk", flat=True):
        rate_tournament(tournament_id=tournament_id)
        done["rated_periods"] += 1
    return done
