"""``Idempotency-Key`` on the API's writes that must never happen twice (creating a game,
accepting a challenge, a move), as payment APIs have it (docs/api.md, "Retrying a write").

A client sends any unique key (a UUID) with the request and the same key with every
retry. The first request with a key is claimed in its own committed row; its work and
its stored answer then commit together, in one transaction, so a server that dies
mid-request leaves either both or neither. Then:

- the same key with the same request: the stored answer again, with
  ``Idempotent-Replayed: true``, and nothing done;
- the same key with another request (method, path or body): 422 ``idempotency-key-reused``;
- the same key while its first request is still running: 409 ``idempotency-key-in-progress``;
- a claim whose request died (a server killed mid-request: its transaction rolled back,
  the claim left unanswered) is taken over by the retry at once.

Who is still running is the database's to say, not a lease's: a request holds its
claim's row locked from its work's first statement to its commit, and a transaction
ends with its connection, so a claim no transaction holds is a dead request's (on
PostgreSQL a NOWAIT lock tells; SQLite runs one write transaction at a time, so a
running one is waited for, and its answer replayed). A retry that took the key while
its first request was still between its claim and its work (a few milliseconds) wins;
that request then answers 409 and does nothing (the claim's time, compared under the
row lock), so the work is never done twice. Before, a dead request's claim kept its key
409 for 30 s, while the mover's clock ran (a chaos probe).

Answers that are a server error are not kept: the write rolled back, a retry does it. Nor
is a refusal that echoes a NUL the request sent (PostgreSQL's JSON cannot hold one): it
changed nothing, and a retry is refused the same.
Keys are per user and kept IDEMPOTENCY_KEY_HOURS, then deleted by accounts.expire_idempotency_keys.
No well-kept package did this (checked on PyPI: django-idempotency-key, last release
2023; djangorestframework-idempotency-key, drf-idempotency, drf-idempotencykey: a few
releases each, one maintainer).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, IntegrityError, transaction
from django.http.request import RawPostDataException
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from .models import IdempotencyKey

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
IDEMPOTENCY_KEY_HOURS = 24

#: For the OpenAPI schema of each endpoint that takes the header.
PARAMETER = OpenApiParameter(
    HEADER,
    # What the check below takes: 1-255 printable ASCII characters (the schema says so,
    # so a client or a fuzzer built from it sends only keys that are accepted).
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x20-\\x7e]+$"},
    location=OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (a UUID), the same on every retry of this request: a retry is answered "
    f"with the first answer (header {REPLAYED_HEADER}: true) and does nothing. The same key with another "
    "request: 422 idempotency-key-reused; while the first is running: 409 idempotency-key-in-progress. "
    f"Kept {IDEMPOTENCY_KEY_HOURS} h, per user.",
)


def _error(code: str, message: str, status_code: int) -> Response:
    return Response({"code": code, "message": message}, status=status_code)


def idempotent(method: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate an APIView's ``post``: honour the Idempotency-Key header when it is sent."""

    @functools.wraps(method)
    def wrapper(view: Any, request: Any, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return method(view, request, *args, **kwargs)  # anonymous: the view answers 401
        if not 0 < len(key) <= MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
            return _error("bad-idempotency-key",
                          f"An {HEADER} is 1 to {MAX_KEY_LENGTH} printable ASCII characters.", 400)
        claim = _claim(request.user, key, _fingerprint(request))
        if isinstance(claim, Response):
            return claim
        try:
            with transaction.atomic():
                row = IdempotencyKey.objects.select_for_update().get(pk=claim.pk)
                if row.status_code is not None or row.claimed_at != claim.claimed_at:
                    # Taken over meanwhile (this request was thought dead): the newer one answers.
                    return _error("idempotency-key-in-progress", "A request with this key is in progress.", 409)
                try:
                    response = method(view, request, *args, **kwargs)
                except Exception as exc:  # the view's refusal becomes its error answer, stored as any other
                    response = view.handle_exception(exc)  # re-raises what would be a server error
                if response.status_code >= 500:
                    raise _NotKept(response)
                # As the client got it (DRF's JSON of dates and numbers), not as Python had it.
                answer = json.loads(JSONRenderer().render(response.data))
                if response.status_code >= 400 and _holds_nul(answer):
                    # A refusal naming a NUL the request sent (an unknown field's name):
                    # PostgreSQL's JSON cannot hold it, and nothing was done (a 500 before).
                    raise _NotKept(response)
                row.status_code = response.status_code
                row.response = answer
                row.save(update_fields=["status_code", "response"])
        except _NotKept as not_kept:
            IdempotencyKey.objects.filter(pk=claim.pk, status_code__isnull=True).delete()
            return not_kept.response
        except BaseException:
            IdempotencyKey.objects.filter(pk=claim.pk, status_code__isnull=True).delete()
            raise
        return response

    return wrapper


class _NotKept(Exception):
    """An answer not kept (a server error's, or a refusal the database cannot store): its
    transaction rolls back and its key is let go."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    return isinstance(value, list) and any(_holds_nul(item) for item in value)


def _fingerprint(request: Any) -> str:
    try:
        body = request.body
    except RawPostDataException:  # a multipart body already read: its parsed form stands in
        body = json.dumps(request.data, sort_keys=True, default=str).encode()
    return hashlib.sha256(b"\n".join([request.method.encode(), request.path.encode(), body])).hexdigest()


def _claim(user: Any, key: str, fingerprint: str) -> IdempotencyKey | Response:
    """This request's claim on the key, or the answer when the key is taken."""
    now = timezone.now()
    IdempotencyKey.objects.filter(user=user, key=key, created_at__lt=now - timedelta(hours=IDEMPOTENCY_KEY_HOURS)).delete()
    try:
        with transaction.atomic():
            return IdempotencyKey.objects.create(user=user, key=key, fingerprint=fingerprint, claimed_at=now)
    except IntegrityError:
        pass
    existing = IdempotencyKey.objects.filter(user=user, key=key).first()
    if existing is None:  # expired and deleted between the two statements: retry once
        return _claim(user, key, fingerprint)
    if existing.fingerprint != fingerprint:
        return _error("idempotency-key-reused",
                      f"This {HEADER} was used for another request; send a new key for a new request.",
                      status.HTTP_422_UNPROCESSABLE_ENTITY)
    if existing.status_code is None and _take_over(existing, now):
        existing.claimed_at = now
        return existing
    if existing.status_code is None:  # still held; or answered since it was read: replay that
        existing = IdempotencyKey.objects.filter(pk=existing.pk).first() or existing
    if existing.status_code is not None:
        replay = Response(existing.response, status=existing.status_code)
        replay[REPLAYED_HEADER] = "true"
        return replay
    return _error("idempotency-key-in-progress",
                  "A request with this key is in progress; retry once it has been answered.",
                  status.HTTP_409_CONFLICT)


def _take_over(row: IdempotencyKey, now: Any) -> bool:
    """Claim an unanswered key whose request died: only if no transaction holds it (on
    PostgreSQL, NOWAIT: a request still running holds its row locked; on SQLite the
    write waits for the one transaction that runs, then finds the row answered)."""
    try:
        with transaction.atomic():
            locked = list(IdempotencyKey.objects.select_for_update(nowait=True).filter(
                pk=row.pk, status_code__isnull=True, claimed_at=row.claimed_at))
            return bool(locked) and IdempotencyKey.objects.filter(pk=row.pk).update(claimed_at=now) == 1
    except DatabaseError:  # locked: still running
        return False


def expire(*, now: Any = None) -> int:
    """Delete keys past IDEMPOTENCY_KEY_HOURS; run by beat (accounts.expire_idempotency_keys)."""
    cutoff = (now or timezone.now()) - timedelta(hours=IDEMPOTENCY_KEY_HOURS)
    return IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()[0]
