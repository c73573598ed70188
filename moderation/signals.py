"""Moderation listens to league: a changed club role opens or closes the console; a
deleted tournament's observer bans are written into the audit log before they go."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from league.models import ClubMembership, Tournament

from . import services
from .models import ObserverBan
from .permissions import CONSOLE_ROLES


def on_membership_changed(sender: Any, instance: ClubMembership, **kwargs: Any) -> None:
    # In the same transaction as the membership change, so the two never disagree.
    user = User.objects.filter(pk=instance.user_id).first()
    if user is not None:
        services.sync_console_access(user=user)


def sync_all_console_access(sender: Any, **kwargs: Any) -> None:
    """After migrate (moderation is the last app with models, so every permission exists by now):
    everyone with a club role that opens the console has it."""
    ids = ClubMembership.objects.filter(role__in=CONSOLE_ROLES).values_list("user_id", flat=True).distinct()
    for user in User.objects.filter(pk__in=ids, is_superuser=False, is_staff=False):
        services.sync_console_access(user=user)


def on_tournament_deleted(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    """A tournament's bans go with it (they keep nobody from anything once it is gone);
    each is written into the audit log first, so the moderation record stays whole."""
    for ban in ObserverBan.objects.filter(tournament=instance).select_related("user", "banned_by"):
        services.record(actor=None, action="observer.ban-ended", target=ban, club=instance.club,
                        reason="Its tournament was deleted.",
                        details={"user": ban.user.get_username(), "scope": ban.scope_label, "ban_reason": ban.reason,
                                 "banned_by": ban.banned_by.get_username() if ban.banned_by else "",
                                 "created_at": ban.created_at.isoformat(),
                                 "lifted_at": ban.lifted_at.isoformat() if ban.lifted_at else None})
