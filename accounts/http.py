"""The request types views are written against, for mypy: what the middleware and the
sign-in checks guarantee on a request. They add nothing at run time."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails
from rest_framework.request import Request as APIRequest

from .models import User


class Request(HttpRequest):
    """A page request as the middleware leaves it (django-htmx's typing recipe)."""

    htmx: HtmxDetails


class PlayerRequest(Request):
    """A page request behind @login_required."""

    user: User


class PlayerAPIRequest(APIRequest):
    """An API request only a signed-in user reaches: a write under the default
    IsAuthenticatedOrReadOnly, or any method of a view with IsAuthenticated."""

    user: User


def signed_in_user(request: HttpRequest) -> User:
    """The user of a request only a signed-in user reaches, where Django fixes the
    request's type (a ModelAdmin's methods: the admin site lets only staff in)."""
    user = request.user
    assert isinstance(user, User)
    return user
