"""Tournament operations from the console: start a round now, pause and resume a
section, pair a round again, forfeit or adjudicate a game, correct a result, withdraw a
player. Each checks the actor's club role, calls league's public competition service
(which locks the section and does the work), and writes the audit log in the same
transaction (docs/moderation.md).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.errors import ServiceError
from accounts.models import User
from league import competitions
from league.competitions import corrections, refusals
from league.models import Club, Entry, Pairing, Round, Section

from .services import record, require_moderator, require_organiser


def _reason(reason: str) -> str:
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise ServiceError("reason-required", "This operation needs a reason: it goes into the audit log.")
    return reason


def _club_of_pairing(pairing_id: int) -> Club:
    found = Pairing.objects.select_related("section__tournament__club").filter(pk=pairing_id).first()
    if found is None:
        raise ServiceError("no-such-pairing", "There is no such pairing.")
    return found.section.tournament.club


def _not_own_game(actor: User, pairing_id: int) -> None:
    """Nobody decides a game they play in, nor another game of a section they play in:
    its result moves their own standing (docs/moderation.md, "Recusal"). An outside probe
    had an arbiter who played in a section forfeit a rival's game in it."""
    found = Pairing.objects.filter(pk=pairing_id).values_list("first", "second", "section").first()
    if found is None:
        return
    first, second, section_id = found
    if actor.pk in (first, second):
        raise ServiceError("own-game", "You play in this game: another organiser or arbiter of the club decides it.")
    _not_own_section(actor, section_id)


def _not_own_section(actor: User, section_id: int) -> None:
    """Nobody pairs, or withdraws others from, a section they play in."""
    if Entry.objects.filter(section_id=section_id, user=actor.pk).exclude(status=Entry.Status.WITHDRAWN).exists():
        raise ServiceError("own-section", "You play in this section: another organiser or arbiter of the club "
                                          "does this.")


def section_recusal(actor: User, section_id: int) -> str:
    """Why ``actor`` may not pair the section (they play in it), or "": what a page says
    in place of a form the operation would refuse."""
    try:
        _not_own_section(actor, section_id)
    except ServiceError as err:
        return err.message
    return ""


def _players(pairing: Pairing) -> dict[str, str | None]:
    return {"first": pairing.first.get_username(), "second": pairing.second.get_username() if pairing.second else None}


@transaction.atomic
def start_round_now(*, actor: User, round_id: int, reason: str = "", now: datetime | None = None) -> Round:
    """Start a scheduled round at once (pair it and create its games)."""
    round_ = Round.objects.select_related("section__tournament__club").get(pk=round_id)
    club = round_.section.tournament.club
    require_organiser(actor, club, "start a round")
    if round_.status != Round.Status.SCHEDULED:
        raise ServiceError("round-started", f"Round {round_.number} has started already.")
    if round_.section.paused_at is not None:
        raise ServiceError("paused", "This section is paused: resume it first.")
    waiting = refusals.waiting_stage_refusal(round_.section)
    if waiting is not None:  # (it said "the section is over" here: an outside probe)
        raise ServiceError(*waiting)
    started = competitions.start_round(section_id=round_.section_id, number=round_.number, now=now, force=True)
    if started is None or started.status == Round.Status.SCHEDULED:
        raise ServiceError("round-not-startable", f"Round {round_.number} cannot start now (the section is over).")
    record(actor=actor, action="round.start-now", target=started, club=club, reason=reason,
           details={"section": started.section_id, "round": started.number})
    return started


@transaction.atomic
def pause_section(*, actor: User, section_id: int, reason: str, now: datetime | None = None) -> Section:
    """Pause a section: nothing new starts and nobody is forfeited until it resumes."""
    reason = _reason(reason)
    section = Section.objects.select_related("tournament__club").get(pk=section_id)
    club = section.tournament.club
    require_organiser(actor, club, "pause a section")
    paused = competitions.pause_section(section_id=section_id, now=now)
    record(actor=actor, action="section.pause", target=paused, club=club, reason=reason,
           details={"section": paused.pk, "round": paused.current_round})
    return paused


@transaction.atomic
def resume_section(*, actor: User, section_id: int, reason: str = "", now: datetime | None = None) -> Section:
    """Resume a paused section: what fell due meanwhile starts now."""
    section = Section.objects.select_related("tournament__club").get(pk=section_id)
    club = section.tournament.club
    require_organiser(actor, club, "resume a section")
    paused_at = section.paused_at
    resumed = competitions.resume_section(section_id=section_id, now=now)
    record(actor=actor, action="section.resume", target=resumed, club=club, reason=reason,
           details={"section": resumed.pk, "paused_at": paused_at.isoformat() if paused_at else None})
    return resumed


@transaction.atomic
def repair_round(*, actor: User, round_id: int, reason: str, now: datetime | None = None) -> Round:
    """Pair the current round again while none of its games has a move."""
    reason = _reason(reason)
    round_ = Round.objects.select_related("section__tournament__club").get(pk=round_id)
    club = round_.section.tournament.club
    require_organiser(actor, club, "pair a round again")
    _not_own_section(actor, round_.section_id)
    before = [_players(p) for p in round_.pairings.select_related("first", "second").order_by("board")]
    repaired = competitions.repair_round(round_id=round_id, now=now)
    after = [_players(p) for p in repaired.pairings.select_related("first", "second").order_by("board")]
    record(actor=actor, action="round.re-pair", target=repaired, club=club, reason=reason,
           details={"section": repaired.section_id, "round": repaired.number, "before": before, "after": after})
    return repaired


@transaction.atomic
def forfeit(*, actor: User, pairing_id: int, loser: str, reason: str, now: datetime | None = None) -> Pairing:
    """Score a pairing as lost by forfeit by its first player, its second, or both
    (unplayed and unrated), stopping its games (league's ``forfeit_pairing``)."""
    reason = _reason(reason)
    club = _club_of_pairing(pairing_id)
    require_moderator(actor, club)
    _not_own_game(actor, pairing_id)
    pairing = competitions.forfeit_pairing(pairing_id=pairing_id, loser=loser, reason=reason, now=now)
    record(actor=actor, action="game.forfeit", target=pairing, club=club, reason=reason,
           details={"result": pairing.result, **_players(pairing), "loser": loser})
    return pairing


@transaction.atomic
def adjudicate(*, actor: User, pairing_id: int, result: str, reason: str, now: datetime | None = None) -> Pairing:
    """The arbiter decides a pairing's result as played (league's ``adjudicate_pairing``)."""
    reason = _reason(reason)
    club = _club_of_pairing(pairing_id)
    require_moderator(actor, club)
    _not_own_game(actor, pairing_id)
    pairing = competitions.adjudicate_pairing(pairing_id=pairing_id, result=result, reason=reason, now=now)
    record(actor=actor, action="game.adjudicate", target=pairing, club=club, reason=reason,
           details={"result": pairing.result})
    return pairing


@transaction.atomic
def correct_result(*, actor: User, pairing_id: int, result: str, reason: str) -> Pairing:
    """Correct a finished single-game pairing (league's ``correct_result``): standings
    follow, and a rating recompute is queued when the game was rated."""
    reason = _reason(reason)
    club = _club_of_pairing(pairing_id)
    require_moderator(actor, club)
    _not_own_game(actor, pairing_id)
    before = Pairing.objects.values_list("result", flat=True).get(pk=pairing_id)
    pairing = competitions.correct_result(pairing_id=pairing_id, result=result, reason=reason, requested_by=actor)
    # The rounds paired on the old scores, which the correction leaves as they are (corrections.py).
    record(actor=actor, action="result.correct", target=pairing, club=club, reason=reason,
           details={"before": before, "after": pairing.result, "game": pairing.game_id,
                    "rounds_paired_since": corrections.later_rounds_paired(pairing)})
    return pairing


@transaction.atomic
def withdraw_player(*, actor: User, entry_id: int, reason: str, now: datetime | None = None) -> Entry:
    """Withdraw a player from a section (league's withdraw: their game in play is lost by
    forfeit and no later round pairs them)."""
    reason = _reason(reason)
    entry = Entry.objects.select_related("section__tournament__club", "user").get(pk=entry_id)
    club = entry.section.tournament.club
    require_moderator(actor, club)
    if entry.user_id != actor.pk:  # (their own entry they may withdraw, as any player)
        _not_own_section(actor, entry.section_id)
    withdrawn = competitions.withdraw(section=entry.section, user=entry.user, reason=reason, now=now)
    record(actor=actor, action="entry.withdraw", target=withdrawn, club=club, reason=reason,
           details={"user": entry.user.get_username(), "section": entry.section_id})
    return withdrawn


@transaction.atomic
def set_round_pairings(*, actor: User, round_id: int, text: str, reason: str = "") -> Round:
    """The arbiter's pairings for a scheduled round, read from a TRF-16 file: kept on the
    round and used instead of the computed ones when it starts (league's
    arbiter.set_round_pairings checks them; a bad file changes nothing)."""
    round_ = Round.objects.select_related("section__tournament__club").filter(pk=round_id).first()
    if round_ is None:
        raise ServiceError("no-such-round", "There is no such round.")
    club = round_.section.tournament.club
    require_moderator(actor, club)
    _not_own_section(actor, round_.section_id)
    done = competitions.set_round_pairings(round_id=round_id, text=text)
    assert done.pairing_override is not None  # just set
    names = dict(Entry.objects.filter(section_id=done.section_id).values_list("user_id", "user__username"))
    record(actor=actor, action="round.set-pairings", target=done, club=club, reason=reason.strip(),
           details={"section": done.section_id, "round": done.number,
                    "pairings": [[names.get(row["first"]), names.get(row["second"])] for row in done.pairing_override]})
    return done
