"""Who is online: the presence rows (the only code that writes them) and their sweep.

A signed-in person is online while at least one of their notifications sockets is open
(config/notifications.py: every signed-in page opens one for the notice badge). One row
per socket, as the game sockets' observer rows (games/observing.py), and swept the same
way: a server killed with -9 never runs its sockets' disconnects, so beat's
``sweep-stale-presence`` (every 15 s) deletes the rows whose socket's channel is gone,
and nobody stays "online" more than about 25 s after their last socket died.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.utils import timezone

from .broadcast import live_channels
from .models import Presence, User
from .notices import unread_count

#: A row younger than this is never swept: its socket's channel is subscribed before
#: its row is written, so a margin for clocks (as OBSERVER_SWEEP_AFTER).
PRESENCE_SWEEP_AFTER = timedelta(seconds=10)


def socket_opened(*, user_id: int, channel_name: str) -> int:
    """Record a signed-in socket (a channel name already recorded is left be); returns
    the user's unread count, for the socket's first frame: a notice pushed while the
    page had no socket (its server died, it was reconnecting) reaches the badge so."""
    Presence.objects.bulk_create([Presence(user_id=user_id, channel_name=channel_name)], ignore_conflicts=True)
    return unread_count(user_id)


def socket_closed(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def sweep_stale_presence(*, older_than: timedelta = PRESENCE_SWEEP_AFTER) -> int:
    """Delete the rows whose socket no longer exists (its server process died); how
    many went. Does nothing when the channel layer cannot tell who is alive."""
    rows = list(
        Presence.objects.filter(connected_at__lt=timezone.now() - older_than).values_list("pk", "channel_name")
    )
    alive = live_channels(name for _, name in rows) if rows else None
    if alive is None:
        return 0
    dead = [pk for pk, name in rows if name not in alive]
    if dead:
        Presence.objects.filter(pk__in=dead).delete()
    return len(dead)


def online_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of these users are online now (one query)."""
    wanted = set(user_ids)
    if not wanted:
        return set()
    return set(Presence.objects.filter(user_id__in=wanted).values_list("user_id", flat=True))


def is_online(user: User) -> bool:
    return Presence.objects.filter(user_id=user.pk).exists()
