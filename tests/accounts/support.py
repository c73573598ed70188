"""Helpers shared by the account tests."""

from __future__ import annotations

from datetime import date

from django.utils import timezone


def years_ago(years: int) -> date:
    """A birth date ``years`` ago (day capped at 28, so every month has it)."""
    today = timezone.localdate()
    return date(today.year - years, today.month, min(today.day, 28))
