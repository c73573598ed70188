"""Moderation listens to league: a changed club role opens or closes the console."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from league.models import ClubMembership

from . import services
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
