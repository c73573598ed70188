"""Celery tasks of accounts: notices' e-mails, idempotency keys' expiry, presence sweep. Thin:
accounts/notices.py and accounts/idempotency.py do the work."""

from __future__ import annotations

from celery import shared_task

from . import idempotency, notices, passwords, presence


# acks_late and reject_on_worker_lost: a worker killed mid-task leaves it to be
# redelivered; the row lock and emailed_at make the second delivery send nothing.
@shared_task(name=notices.EMAIL_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(Exception,), retry_backoff=5, retry_backoff_max=600, max_retries=8)
def email_notice(notice_id: int) -> bool:
    return notices.email_notice(notice_id=notice_id)


@shared_task(name="accounts.sweep_unsent_notice_emails", ignore_result=True)
def sweep_unsent_notice_emails() -> int:
    """E-mails whose enqueue after commit was lost (accounts.notices.sweep_unsent_emails)."""
    return notices.sweep_unsent_emails()


@shared_task(name="accounts.expire_idempotency_keys", ignore_result=True)
def expire_idempotency_keys() -> int:
    """Idempotency keys past their 24 hours (a lost run: the next one does it)."""
    return idempotency.expire()


@shared_task(name="accounts.sweep_stale_presence", ignore_result=True)
def sweep_stale_presence() -> int:
    """Presence rows left by a server that died (accounts/presence.py)."""
    return presence.sweep_stale_presence()


@shared_task(name=passwords.SEND_TASK, ignore_result=True)
def send_password_reset(identifier: str, domain: str, use_https: bool) -> int:
    """A forgotten-password request's mails (lost with a worker: the player asks again)."""
    return passwords.send_reset_links(identifier=identifier, domain=domain, use_https=use_https)
