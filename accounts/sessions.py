"""The session store (settings.SESSION_ENGINE): Django's database sessions, read in
hand-written SQL (accounts.sql). Every signed-in page and socket reads its session
first, and the ORM's query cost 0.58 ms of CPU there, its compiler most of it; 0.25 ms so
(docs/benchmarks-live.md, fifteenth round). Writes, expiry and the async reads stay
Django's own."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from . import sql

_SESSION = (sql.Shape(Session, "s"),)


@functools.cache
def _session_sql() -> str:
    return f"SELECT {sql.select(_SESSION)} FROM {sql.table(Session)} s WHERE s.session_key = %s AND s.expire_date > %s"


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Any:
        rows = sql.fetch(_session_sql(), [self.session_key, timezone.now()], _SESSION) if self.session_key else []
        if not rows:
            self._session_key = None  # as Django's: an unknown or expired key starts afresh
            return None
        return rows[0][0]
