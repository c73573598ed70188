"""An arena's players away and back: the arena pairs nobody who is paused.

Decision (docs/competitions.md, "Arena"): as on Lichess, a player who loses a game
without making a move (a no-show) is paused, so the arena stops pairing them with
opponents who would only collect forfeits; a player may also pause to take a break.
Either way they are paired again once they press "I'm back". Games in play go on.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from league.models import Entry, Pairing, Section

from . import refusals
from .notices import broadcast_section, notify_paused
from .scheduling import queue_arena_pairing
from .sections import locked_section
from .selectors import ON_A_BREAK

#: Who lost a pairing without playing: the forfeit results and their losers.
_FORFEITED: dict[str, tuple[str, ...]] = {
    Pairing.Result.FIRST_FORFEIT_WIN: ("second",),
    Pairing.Result.SECOND_FORFEIT_WIN: ("first",),
    Pairing.Result.DOUBLE_FORFEIT: ("first", "second"),
}


def _locked_entry(section: Section, user: User) -> Entry | None:
    return Entry.objects.select_for_update().filter(section=section, user=user).first()


@transaction.atomic
def pause_player(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    """``user`` takes a break from the arena: not paired until they are back (a game in
    play goes on)."""
    now = now or timezone.now()
    section = locked_section(section.pk)
    entry = _locked_entry(section, user)
    refusal = refusals.player_pause_refusal(section, entry, now)
    if refusal is not None:
        raise ServiceError(*refusal)
    assert entry is not None  # refused above without one
    entry.paused_at, entry.paused_reason = now, ON_A_BREAK
    entry.save(update_fields=["paused_at", "paused_reason"])
    broadcast_section(section, {"event": "entry"})
    return entry


@transaction.atomic
def player_back(*, section: Section, user: User, now: datetime | None = None) -> Entry:
    """``user`` is back: paired with the next free player."""
    now = now or timezone.now()
    section = locked_section(section.pk)
    entry = _locked_entry(section, user)
    refusal = refusals.player_back_refusal(section, entry, now)
    if refusal is not None:
        raise ServiceError(*refusal)
    assert entry is not None  # refused above without one
    entry.paused_at, entry.paused_reason = None, ""
    entry.save(update_fields=["paused_at", "paused_reason"])
    queue_arena_pairing(section.pk)
    broadcast_section(section, {"event": "entry"})
    return entry


def pause_forfeiters(section: Section, pairing: Pairing, now: datetime) -> None:
    """Pause whoever lost ``pairing`` without playing (a no-show, or the arbiter's
    forfeit), and tell them (a notice: they may have closed the tab). Inside the caller's
    transaction, on the section it has locked."""
    losers = [getattr(pairing, f"{side}_id") for side in _FORFEITED.get(pairing.result, ())]
    if not losers:
        return
    paused = list(Entry.objects.filter(section=section, user_id__in=losers, paused_at__isnull=True).exclude(
        status=Entry.Status.WITHDRAWN).values_list("user_id", flat=True))
    if not paused:
        return
    reason = f"You lost a game without a move (round {pairing.round.number}, board {pairing.board})."
    Entry.objects.filter(section=section, user_id__in=paused).update(paused_at=now, paused_reason=reason)
    notify_paused(section, pairing, paused, reason)
