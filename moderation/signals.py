"""Moderation listens to league: a changed club role opens or closes the console."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from league.models import ClubMembership


def on_membership_changed(sender: Any, instance: ClubMembership, **kwargs: Any) -> None:
    # In the same transaction as the membership change, so the two never disagree.
    from . import services

    user = User.objects.filter(pk=instance.user_id).first()
    if user is not None:
        services.sync_console_access(user=user)
