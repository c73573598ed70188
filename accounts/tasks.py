"""Celery tasks of accounts."""

from __future__ import annotations

from celery import shared_task

from . import idempotency


@shared_task(name="accounts.expire_idempotency_keys", ignore_result=True)
def expire_idempotency_keys() -> int:
    """Idempotency keys past their 24 hours (a lost run: the next one does it)."""
    return idempotency.expire()
