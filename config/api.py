"""One error shape for the whole API: {"code": "...", "message": "...", "fields": {...}},
and the pagination every list shares (config/schema.py documents both)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import TooManyFieldsSent
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.errors import ServiceError, refuse_value, shortened
from games.rules import RuleError

_Default = TypeVar("_Default", bound=int | None)

#: Refusals of who is asking rather than of what was asked: 403, whichever endpoint or
#: service raises them (a player calling an organiser's action was 400 ``not-organiser``
#: on some endpoints and 403 on others: an outside probe).
FORBIDDEN_CODES = frozenset({
    "not-organiser",  # only the club's owners and organisers
    "not-a-moderator",  # only the club's organisers and arbiters
    "not-a-player",  # only the game's (or match's) players
    "not-yours",  # only the challenge's maker cancels it
    "not-invited",  # a challenge made to another player
    "not-your-choice",  # the official match's version: the classic game's winner chooses
    "superusers-only",  # the platform's own house-rule sets
    "not-the-author",  # a player's house-rule set
})

#: Service (and engine) refusals that are not plain bad requests.
SERVICE_ERROR_STATUS = {
    "no-such-game": status.HTTP_404_NOT_FOUND,
    "no-such-match": status.HTTP_404_NOT_FOUND,
    "stale-ply": status.HTTP_409_CONFLICT,
    **dict.fromkeys(FORBIDDEN_CODES, status.HTTP_403_FORBIDDEN),
}


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _first_message(value)
            return text if key in ("non_field_errors", "detail") else f"{key}: {text}"
        return "Invalid input."
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "Invalid input."
    return str(detail)


def _shortened_texts(detail: Any) -> Any:
    """A validation error's reasons, each cut as a message is (accounts.errors.shortened)."""
    if isinstance(detail, dict):
        return {key: _shortened_texts(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_shortened_texts(value) for value in detail]
    return shortened(detail) if isinstance(detail, str) else detail


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = _exception_response(exc, context)
    if response is not None and isinstance(response.data, dict):
        response.data = _shortened_texts(response.data)
    return response


def _exception_response(exc: Exception, context: dict[str, Any]) -> Response | None:
    request = context.get("request")
    renderer_format = getattr(getattr(request, "accepted_renderer", None), "format", "json")
    if request is not None and renderer_format not in ("json", "api"):
        # An error on a CSV or iCalendar download is JSON too, not a broken file.
        request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
    if isinstance(exc, RuleError | ServiceError):
        return Response(exc.as_dict(), status=SERVICE_ERROR_STATUS.get(exc.code, status.HTTP_400_BAD_REQUEST))
    # DRF turns Django's own exceptions into its own; do it first so the code is right.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    body: dict[str, Any]
    if isinstance(exc, exceptions.ValidationError):
        # A refusal of its own kind (accounts.api.FieldsRefused) keeps its code.
        body = {"code": getattr(exc, "error_code", "invalid"), "message": _first_message(exc.detail)}
        if isinstance(exc.detail, dict):
            body["fields"] = exc.detail
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        body = {"code": code, "message": _first_message(exc.detail)}
    else:
        body = {"code": "error", "message": str(exc)}
    response.data = body
    return response


# -- pagination -------------------------------------------------------------------------


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` on every list, in range or refused with 400 ``invalid``; and
    every filter of the list that takes one of a fixed set (an ``enum`` in the schema,
    config.schema.FIXED_SETS) given one of it, or refused with 400 ``bad-filter`` naming
    the parameter and its values. An empty value is the filter left out (docs/api.md).

    DRF's own silently falls back on a bad value and passes any offset to the database,
    where one past 64 bits is a 500 (SQLite overflow, PostgreSQL "bigint out of range").
    A filter outside its set was an empty list, as if nothing matched (an outside probe's
    ``/api/v1/tournaments/?status=bogus``). A view that checks a filter itself (the
    ratings' ``variant``: ``unknown-variant``) has done so by now, with its own code.
    """

    max_limit = 1000
    max_offset = 1_000_000_000

    def paginate_queryset(self, queryset, request, view=None):
        check_filters(request)
        return super().paginate_queryset(queryset, request, view)

    def get_limit(self, request) -> int | None:
        return self._bounded(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request) -> int:
        return self._bounded(request, self.offset_query_param, 0, self.max_offset, 0)

    @staticmethod
    def _bounded(request, name: str, low: int, high: int, default: _Default) -> int | _Default:
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return default
        value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 10 else -1
        if not low <= value <= high:
            raise exceptions.ValidationError({name: [f"A whole number from {low} to {high}."]})
        return value

    def get_schema_operation_parameters(self, view) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {self.limit_query_param: (1, self.max_limit), self.offset_query_param: (0, self.max_offset)}
        for parameter in parameters:
            low, high = bounds[parameter["name"]]
            parameter["schema"].update(minimum=low, maximum=high)
        return parameters


def check_filters(request) -> None:
    """Each query parameter the request's operation documents with a set of values
    (config.operations) is one of them, or empty (left out)."""
    from .operations import operation_for  # not at import: DRF loads this module early

    operation = operation_for(request)
    if operation is None:
        return
    for name, allowed in operation.choices.items():
        for value in request.query_params.getlist(name):
            if value != "" and value not in allowed:
                refuse_value(name, value, allowed)


# -- errors outside DRF's views: URLs that match nothing, requests refused early ----------


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def error_response(request: HttpRequest, *, status_code: int, code: str, message: str) -> HttpResponse | None:
    """The one error shape under /api/; None elsewhere (the caller renders a page)."""
    if not is_api(request):
        return None
    return JsonResponse({"code": code, "message": message}, status=status_code)


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL no route matches (``/api/v1/games/abc/``): JSON under /api/, the page elsewhere."""
    return error_response(request, status_code=404, code="not_found", message="Not found.") or (
        defaults.page_not_found(request, exception)
    )


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    code, message = "bad-request", "Bad request."
    if isinstance(exception, TooManyFieldsSent):  # Django's own words name a setting
        code, message = "too-many-fields", (
            f"The request has too many fields: at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}, "
            "in its query and its body together.")
    return error_response(request, status_code=400, code=code, message=message) or (
        defaults.bad_request(request, exception)
    )


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_response(request, status_code=403, code="permission_denied", message="Forbidden.") or (
        defaults.permission_denied(request, exception)
    )


def handler500(request: HttpRequest) -> HttpResponse:
    return error_response(request, status_code=500, code="server-error", message="Server error.") or (
        defaults.server_error(request)
    )
