"""Helpers every app's tests use besides their data (tests/factories.py builds that):
API clients signed in either way, a birth date some years ago, and calls raced in
threads."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import date
from html import unescape
from typing import Any

from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def token_client(user: Any = None, **defaults: Any) -> APIClient:
    """An API client sending ``Authorization: Token <key>`` (anonymous without a user);
    ``defaults`` go to APIClient (``REMOTE_ADDR=...``)."""
    client = APIClient(**defaults)
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def api_as(user: Any = None, **defaults: Any) -> APIClient:
    """An API client authenticated as ``user`` without credentials (force_authenticate);
    anonymous without a user."""
    client = APIClient(**defaults)
    if user is not None:
        client.force_authenticate(user)
    return client


def years_ago(years: int) -> date:
    """A birth date ``years`` ago (day capped at 28, so every month has it)."""
    today = timezone.localdate()
    return date(today.year - years, today.month, min(today.day, 28))


def at_once(*calls: Callable[[], Any]) -> tuple[list[Any], list[Exception]]:
    """Each call in a thread of its own, all released together (a barrier), each
    closing its database connection after: their results and their errors, in the
    order they came."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = []
    errors: list[Exception] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results.append(call())
        except Exception as err:  # pragma: no cover - the caller looks
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


def own_abuse_counts(settings: Any, name: str) -> None:
    """Throttle counts of this test's own (the cache outlives a test; on Redis it is
    shared) and the production lockout: 5 failures, 15 minutes."""
    import uuid
    from datetime import timedelta

    from django.conf import settings as django_settings

    default = django_settings.CACHES["default"]
    settings.CACHES = {"default": {**default, "KEY_PREFIX": f"{name}-{uuid.uuid4().hex}"}}
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)


def form_fields(html: str) -> dict[str, str]:
    """A page's form fields as a browser would send them, filled as the page fills them
    (inputs, checked boxes, selected options, textareas; not the CSRF token)."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                data[name.group(1)] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = unescape(value.group(1)) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]* selected>', body)
        data[name] = unescape(chosen.group(1)) if chosen else ""
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', html, re.S):
        data[name] = unescape(body.strip())
    return data
