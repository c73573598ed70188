"""Requests refused before any view sees them."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.views import defaults

from .api import error_response, is_api

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _in_any(data: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in data.lists())


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path_info or _in_any(request.GET):
        return True
    # A page's form fields: some views read them straight from request.POST (a note, a
    # reason, a username). Parsed here as CsrfViewMiddleware parses them anyway; an API
    # body is DRF's to parse, and its text fields refuse NUL.
    if request.method == "POST" and request.content_type in FORM_TYPES and not is_api(request):
        try:
            if _in_any(request.POST):
                return True
        except (MultiPartParserError, BadRequest, UnicodeDecodeError):
            pass  # a broken body: the view's own parsing answers it
    # Headers and cookies reach the database too (a token, a session key).
    return any("\x00" in value for key, value in request.META.items() if key.startswith("HTTP_")
               and isinstance(value, str))


class RefuseNulMiddleware:
    """A NUL byte in the path, the query string, a header or a form field is refused with 400.

    No name, slug, token or filter of the platform can hold one, and PostgreSQL cannot
    even compare text with it (a query raises, the request would be a 500): one check
    here instead of one in every view that looks something up.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            return error_response(request, status_code=400, code="bad-request",
                                  message="The request holds a NUL character.") or (
                defaults.bad_request(request, ValueError("NUL character")))
        return self.get_response(request)
