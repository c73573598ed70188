"""Requests refused before any view sees them."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, resolve
from django.views import defaults

from .api import error_response, is_api

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
#: A view's attribute naming the form fields it refuses a NUL in itself, in its form's own
#: words (moderation's TRF import, its pasted text): this middleware lets those through.
NUL_CHECKED_FIELDS = "nul_checked_fields"


def _in_any(data: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in data.lists())


def _fields_with_nul(data: QueryDict) -> set[str]:
    """The fields holding a NUL (a NUL in a field's name is given as that name)."""
    return {key for key, values in data.lists() if "\x00" in key or any("\x00" in value for value in values)}


def _checked_by_view(request: HttpRequest) -> frozenset[str]:
    """The form fields the view of this path refuses NUL in itself. Asked only of a form
    that holds a NUL, so no other request pays for the look-up."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return frozenset()
    return frozenset(getattr(match.func, NUL_CHECKED_FIELDS, ()))


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path_info or _in_any(request.GET):
        return True
    # A page's form fields: some views read them straight from request.POST (a note, a
    # reason, a username). Parsed here as CsrfViewMiddleware parses them anyway; an API
    # body is DRF's to parse, and its text fields refuse NUL.
    # A view may take a NUL in fields it checks itself (NUL_CHECKED_FIELDS), never in others.
    if request.method == "POST" and request.content_type in FORM_TYPES and not is_api(request):
        try:
            fields = _fields_with_nul(request.POST)
        except (MultiPartParserError, BadRequest, UnicodeDecodeError):
            fields = set()  # a broken body: the view's own parsing answers it
        if fields and not fields <= _checked_by_view(request):
            return True
    # Headers and cookies reach the database too (a token, a session key).
    return any("\x00" in value for key, value in request.META.items() if key.startswith("HTTP_")
               and isinstance(value, str))


class RefuseNulMiddleware:
    """A NUL byte in the path, the query string, a header or a form field is refused with 400.

    No name, slug, token or filter of the platform can hold one, and PostgreSQL cannot
    even compare text with it (a query raises, the request would be a 500): one check
    here instead of one in every view that looks something up. The one exception is a
    form field its view names in ``nul_checked_fields`` (the TRF import's pasted text):
    that view refuses the NUL itself, on its form, as it refuses one in an uploaded file.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            return error_response(request, status_code=400, code="bad-request",
                                  message="The request holds a NUL character.") or (
                defaults.bad_request(request, ValueError("NUL character")))
        return self.get_response(request)
