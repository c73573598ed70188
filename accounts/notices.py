"""Notices: what must reach a person, stored (docs/accounts.md, "Notices").

``notify`` / ``notify_many`` write the rows in the caller's transaction, once per
(recipient, cause): a retried task that writes the same cause again writes nothing.
After commit, and only then, each new notice is pushed to the recipient's
notifications sockets (a hint: a failed push is logged, the inbox still has it) and,
if the recipient asked for that kind by e-mail, the e-mail task is enqueued (a failed
enqueue is logged; ``sweep_unsent_emails`` sends it later). Reads and marks for the
inbox page and the API are here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from . import sql
from .broadcast import send_to_groups
from .dispatch import enqueue
from .errors import ServiceError
from .models import GuardianConsent, Notice, Profile, User, default_email_notices
from .realtime import user_group

Kind = Notice.Kind

#: Kinds about a guardian's consent: they concern only a player whose account a guardian
#: opened (a GuardianConsent), so no one else is offered them or e-mailed them (an adult's
#: profile offered "Guardian's consent", ticked by default).
GUARDIAN_KINDS = frozenset({Kind.GUARDIAN_CONSENT.value})

#: Kinds that concern some players only, each with its test (``test(user)``: whether
#: ``user`` can receive that kind), registered by an app above accounts from its
#: AppConfig.ready (league: "organising", for a club's owners and organisers). The
#: profile offers such a kind only to whom its test passes: every new player's profile
#: offered "Your club's events", ticked, which reads as news of their club's tournaments.
_audiences: dict[str, Callable[[User], bool]] = {}


def register_audience(kind: str, test: Callable[[User], bool]) -> None:
    """Offer ``kind``'s e-mail choice only to a user for whom ``test(user)`` is True."""
    _audiences[kind] = test


#: The e-mail task's registered name (accounts/tasks.py).
EMAIL_TASK = "accounts.email_notice"
#: A pending e-mail older than this is the sweep's: its enqueue after commit was lost.
EMAIL_SWEEP_AFTER = timedelta(minutes=2)
#: ... and one older than this is no longer worth sending.
EMAIL_GIVE_UP_AFTER = timedelta(days=2)


@dataclass(frozen=True)
class NoticeSpec:
    """One notice to write: ``cause`` names what caused it, unique per recipient
    ("pairing:12:game:40"); ``data`` says what it is about (game, section, round...)."""

    recipient_id: int
    kind: str
    cause: str
    message: str
    url: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def notify(*, recipient: User | int, kind: str, cause: str, message: str, url: str = "", **data: Any) -> None:
    """Write one notice in the current transaction (once per recipient and cause)."""
    recipient_id = recipient if isinstance(recipient, int) else recipient.pk
    notify_many([NoticeSpec(recipient_id, kind, cause, message, url, data)])


def notify_many(specs: Iterable[NoticeSpec]) -> list[Notice]:
    """Write the notices not written before; return those new ones. Three queries for
    any number: the recipients' e-mail choices, one INSERT ... ON CONFLICT DO NOTHING (a
    notice written before, or by a racing writer of the same key, is left as it is), and
    the rows this call wrote, known by their ``created_at``. (A query for the keys that
    exist came first until 2026-11-29: five queries inside a game's last move.)"""
    wanted = {(spec.recipient_id, spec.cause): spec for spec in specs}
    if not wanted:
        return []
    for spec in wanted.values():
        if spec.kind not in Kind.values:
            raise ValueError(f"unknown notice kind {spec.kind!r}")
    email_kinds = _email_kinds({recipient_id for recipient_id, _ in wanted})
    now = timezone.now()
    Notice.objects.bulk_create([
        Notice(recipient_id=spec.recipient_id, kind=spec.kind, cause=spec.cause, message=spec.message[:500],
               url=spec.url, data=spec.data, created_at=now,
               email_wanted=spec.kind in email_kinds.get(spec.recipient_id, ()))
        for spec in wanted.values()
    ], ignore_conflicts=True)
    written = [notice for notice in Notice.objects.filter(
        recipient_id__in={r for r, _ in wanted}, cause__in={c for _, c in wanted}, created_at=now)
        if (notice.recipient_id, notice.cause) in wanted]
    if written:
        transaction.on_commit(lambda: _after_commit(written))
    return written


def _email_kinds(user_ids: set[int]) -> dict[int, set[str]]:
    """Each user's e-mail kinds, for those with an address to send to (one query)."""
    rows = User.objects.filter(pk__in=user_ids).exclude(email="").values_list(
        "pk", "profile__pk", "profile__email_notices", "guardian_consent__pk")
    return {user_id: (set(chosen or ()) if profile_id is not None else set(default_email_notices()))
            - (set() if consent_id is not None else GUARDIAN_KINDS)
            for user_id, profile_id, chosen, consent_id in rows}


def email_choices(user: User) -> list[tuple[str, str]]:
    """The kinds ``user`` may choose to have e-mailed (value, label): the guardian's only
    to a player who has one, a kind with an audience (``register_audience``) only to
    its audience."""
    has_guardian = GuardianConsent.objects.filter(user=user).exists()
    return [(value, label) for value, label in Kind.choices
            if (has_guardian or value not in GUARDIAN_KINDS) and (value not in _audiences or _audiences[value](user))]


# -- after commit: the live hint and the e-mail -------------------------------------


def frame_of(notice: Notice, unread: int) -> dict[str, Any]:
    """The channel-layer message for a new notice (config/notifications.py forwards it
    as a "notice" frame, docs/protocol.md)."""
    return {
        "type": "user.notice", "id": notice.pk, "kind": notice.kind, "event": notice.kind,
        "message": notice.message, "url": notice.url, "created_at": notice.created_at.isoformat(),
        "unread": unread, **{key: value for key, value in notice.data.items() if key not in ("type", "id")},
    }


def _after_commit(notices: list[Notice]) -> None:
    for notice in notices:
        if notice.email_wanted:
            enqueue_email(notice.pk)
    counts = unread_counts({notice.recipient_id for notice in notices})
    send_to_groups([(user_group(n.recipient_id), frame_of(n, counts.get(n.recipient_id, 0))) for n in notices])


def enqueue_email(notice_id: int) -> None:
    enqueue(EMAIL_TASK, notice_id)  # refused: sweep_unsent_emails sends it later


def _push_unread(user_id: int) -> None:
    """Tell the user's other pages their new unread count (after a mark)."""
    send_to_groups([(user_group(user_id), {"type": "user.unread", "unread": unread_count(user_id)})])


# -- reads and marks ----------------------------------------------------------------


def inbox(user: User, *, unread_only: bool = False) -> QuerySet[Notice]:
    notices = Notice.objects.filter(recipient=user)
    return notices.filter(read_at__isnull=True) if unread_only else notices


def unread_count(user_id: int) -> int:
    """Hand-written (accounts.sql): every signed-in page's menu shows it, and the ORM's
    count cost 0.55-0.63 ms of CPU, its query compiler most of it; 0.12-0.16 ms so."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {sql.table(Notice)} WHERE recipient_id = %s AND read_at IS NULL",
                       [user_id])
        (count,) = cursor.fetchone()
    return int(count)


def unread_counts(user_ids: set[int]) -> dict[int, int]:
    from django.db.models import Count

    rows = (Notice.objects.filter(recipient_id__in=user_ids, read_at__isnull=True)
            .values("recipient_id").annotate(n=Count("id")).values_list("recipient_id", "n"))
    return dict(rows)


def own_notice(*, user: User, notice_id: Any) -> Notice:
    """The user's own notice; anyone else's is "no such notice", as a missing one."""
    try:
        return Notice.objects.get(pk=int(notice_id), recipient=user)
    except (Notice.DoesNotExist, ValueError, TypeError, OverflowError):
        raise ServiceError("no-such-notice", "There is no such notice.") from None


@transaction.atomic
def mark_read(*, user: User, notice_id: Any) -> Notice:
    notice = own_notice(user=user, notice_id=notice_id)
    if notice.read_at is None:
        notice.read_at = timezone.now()
        notice.save(update_fields=["read_at"])
        transaction.on_commit(lambda: _push_unread(user.pk))
    return notice


@transaction.atomic
def newest_id(user_id: int) -> int | None:
    """The id of the user's newest notice (what an inbox page shows at most)."""
    return Notice.objects.filter(recipient_id=user_id).order_by("-pk").values_list("pk", flat=True).first()


def mark_all_read(*, user: User, up_to: int | None = None) -> int:
    """Mark the user's unread notices read; with ``up_to`` (the newest notice id the page
    showed), only those: one that arrived after the page was drawn stays unread."""
    unread = Notice.objects.filter(recipient=user, read_at__isnull=True)
    if up_to is not None:
        unread = unread.filter(pk__lte=up_to)
    marked = unread.update(read_at=timezone.now())
    if marked:
        transaction.on_commit(lambda: _push_unread(user.pk))
    return marked


def set_email_notices(*, user: User, kinds: Iterable[str]) -> Profile:
    """The kinds of notice the user also wants by e-mail, of those offered them (email_choices)."""
    chosen = sorted(set(kinds))
    offered = {value for value, _ in email_choices(user)}
    unknown = [kind for kind in chosen if kind not in offered]
    if unknown:
        raise ServiceError("unknown-kind", f"Not a notice kind you can choose: {', '.join(unknown)}.")
    profile, _ = Profile.objects.get_or_create(user=user, defaults={"display_name": user.username})
    profile.email_notices = chosen
    profile.save(update_fields=["email_notices"])
    return profile


# -- e-mail ---------------------------------------------------------------------------


def email_notice(*, notice_id: int) -> bool:
    """Send one notice's e-mail, once: under the row's lock, a notice already e-mailed
    (a redelivered task, the sweep) is skipped. True if it was sent now. A crash between
    the send and the commit sends it again: at least once at that single point."""
    with transaction.atomic():
        notice = (Notice.objects.select_for_update(of=("self",)).select_related("recipient")
                  .filter(pk=notice_id).first())
        if notice is None or not notice.email_wanted or notice.emailed_at is not None:
            return False
        if not notice.recipient.email or not notice.recipient.is_active:
            return False
        link = f"\n\n{settings.SITE_URL.rstrip('/')}{notice.url}" if notice.url else ""
        send_mail(
            subject=f"{notice.get_kind_display()} · Tic Tac Toe League",
            message=f"{notice.message}{link}\n\nChoose which notices you get by e-mail on your profile page.",
            from_email=None, recipient_list=[notice.recipient.email],
        )
        notice.emailed_at = timezone.now()
        notice.save(update_fields=["emailed_at"])
    return True


def sweep_unsent_emails(*, now: datetime | None = None) -> int:
    """Enqueue the e-mails whose enqueue after commit was lost (beat)."""
    now = now or timezone.now()
    due = Notice.objects.filter(Q(email_wanted=True, emailed_at__isnull=True),
                                created_at__lte=now - EMAIL_SWEEP_AFTER, created_at__gte=now - EMAIL_GIVE_UP_AFTER)
    ids = list(due.values_list("pk", flat=True)[:500])
    for notice_id in ids:
        enqueue_email(notice_id)
    return len(ids)
