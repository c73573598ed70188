"""Abuse limits over HTTP: the API's throttles and the failed-login lockout's answers.

Settings and defaults are in config/settings/base.py ("abuse limits") and described in
docs/security.md, "Abuse limits". The websocket's frame limit is in accounts/realtime.py.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from redis.exceptions import RedisError
from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle, SimpleRateThrottle

from .models import login_key
from .unanswered import CACHE

logger = logging.getLogger(__name__)


def client_ip(request: Any) -> str | None:
    """The client's address, the same for every limit (axes and the throttles): behind
    ``NUM_PROXIES`` proxies, taken from X-Forwarded-For; otherwise REMOTE_ADDR."""
    return BaseThrottle().get_ident(request)


# -- API throttles ----------------------------------------------------------------------


class LiveRates:
    """Rates read when a request comes, not when DRF's module is imported (as its own
    throttles do), so a changed setting (and a test's override_settings) takes effect.
    An empty rate turns a scope off.

    The counts live in the cache (Redis on the services runtime): with it unreachable a
    throttle lets the request through with a warning rather than answer 500 (fail open,
    docs/operations.md, "When Redis or a worker is down")."""

    scope: str | None

    def allow_request(self, request: Any, view: Any) -> bool:
        if CACHE.resting():  # it failed a moment ago (accounts/unanswered.py): open, as then
            return True
        try:
            return super().allow_request(request, view)  # type: ignore[misc]  # DRF's throttle, mixed in after
        except (RedisError, OSError) as exc:
            logger.warning("throttle %s not applied, the cache is unreachable: %r", self.scope, exc)
            CACHE.failed(exc)
            return True

    def refund(self) -> None:
        """Take back the hit ``allow_request`` counted for this request: the log-in doors
        count failed log-ins only, so a club room behind one address is not shut out by
        its members signing in (a walkthrough was, at 10 a minute)."""
        key, now = getattr(self, "key", None), getattr(self, "now", None)
        if key is None or now is None or CACHE.resting():
            return
        try:
            history = self.cache.get(key, [])  # type: ignore[attr-defined]
            if now in history:
                history.remove(now)
                self.cache.set(key, history, self.duration)  # type: ignore[attr-defined]
        except (RedisError, OSError) as exc:
            CACHE.failed(exc)

    def get_rate(self) -> str | None:
        # DRF's stub types the rates as numbers; they are "N/period" strings (or empty).
        rates: dict[str | None, str | None] = api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[assignment]
        try:
            return rates[self.scope] or None
        except KeyError as exc:
            raise ImproperlyConfigured(f"No throttle rate set for the {self.scope!r} scope") from exc


class UserWriteThrottle(LiveRates, SimpleRateThrottle):
    """A signed-in user's writes (unsafe methods), counted per user."""

    scope = "user-write"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method in SAFE_METHODS or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class AnonWriteThrottle(LiveRates, SimpleRateThrottle):
    """Writes by anyone signed out, counted per address."""

    scope = "anon-write"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method in SAFE_METHODS or request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ScopedThrottle(LiveRates, ScopedRateThrottle):
    """A view's own stricter scope (``throttle_scope = "login"``, ``"signup"``), counted
    per address whoever is signed in: it guards the doors, not an account."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


# -- failed-login lockout (django-axes) ------------------------------------------------------


class LockedOut(exceptions.Throttled):
    """The API's answer to a locked-out log-in: 429, Retry-After, the one error shape."""

    default_code = "locked-out"

    def __init__(self, wait: int) -> None:
        super().__init__(detail=lockout_message(wait), code=self.default_code)
        self.wait = wait


def axes_username(request: Any, credentials: Any) -> str | None:
    """AXES_USERNAME_CALLABLE: the username a failed log-in is counted under, as sign-in
    compares names (accounts.models.login_key: "Sam", "SAM" and "sam" are one count), so
    a lockout cannot be sidestepped by typing the name in another case. axes' own
    reading otherwise: the credentials given to ``authenticate``, else the posted form."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials:
        username = credentials.get(field)
    else:
        username = getattr(request, "data", getattr(request, "POST", {})).get(field)
    if not isinstance(username, str):
        return None
    # axes keeps it in a 255-character column; a name's case-folded form can be longer.
    return login_key(username)[:255]


def lockout_wait(request: Any) -> int:
    """Seconds until ``request``'s locked-out username and address may try again: the
    cool-off from the newest failure counted against them (axes' database handler)."""
    from axes.handlers.proxy import AxesProxyHandler

    cool_off = settings.AXES_COOLOFF_TIME
    credentials = getattr(request, "axes_credentials", None)
    handler = AxesProxyHandler.get_implementation()
    newest = None
    if hasattr(handler, "get_user_attempts"):
        for attempts in handler.get_user_attempts(request, credentials):
            for stamp in attempts.values_list("attempt_time", flat=True):
                newest = stamp if newest is None else max(newest, stamp)
    if newest is None:
        return math.ceil(cool_off.total_seconds())
    return max(1, math.ceil((newest + cool_off - timezone.now()).total_seconds()))


def lockout_message(wait: int) -> str:
    return f"Too many failed log-ins; try again in {in_minutes(wait)}."


def in_minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def lockout_response(request: HttpRequest, *args: Any) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the page (log-in or admin) a locked-out log-in gets. The
    other arguments are ignored: axes passes them differently under ASGI and WSGI."""
    wait = lockout_wait(request)
    return limited_page(
        request,
        wait,
        title="Log-in paused",
        message=lockout_message(wait),
        why="This protects the account from someone guessing its password.",
    )


def limited_page(request: HttpRequest, wait: int, **context: str) -> HttpResponse:
    response = render(request, "accounts/limited.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


def throttle_posts(
    scope: str, *, refund_if: Callable[[HttpResponseBase], bool] | None = None
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """A page's form posts counted in the API's per-address ``scope`` (one count for the
    page and the API): over it, a 429 page instead of the view. ``refund_if``: a post
    whose answer passes it is not counted (a log-in that succeeded)."""

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @functools.wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST":
                throttle = ScopedThrottle()
                # The throttle reads only the address and the view's throttle_scope: a page's
                # request and a stand-in view serve.
                view_scope = SimpleNamespace(throttle_scope=scope)
                if not throttle.allow_request(request, view_scope):  # type: ignore[arg-type]
                    wait = math.ceil(throttle.wait() or 1)
                    return limited_page(
                        request,
                        wait,
                        title="Too many tries",
                        message=f"Too many tries from your address; try again in {in_minutes(wait)}.",
                        why="This keeps the platform quick for everyone.",
                    )
                response = view(request, *args, **kwargs)
                if refund_if is not None and refund_if(response):
                    throttle.refund()
                return response
            return view(request, *args, **kwargs)

        return limited

    return decorate
