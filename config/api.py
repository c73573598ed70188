"""One error shape for the whole API: {"code": "...", "message": "...", "fields": {...}}."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from accounts.errors import ServiceError
from games.rules import RuleError

#: Service refusals that are not plain bad requests.
SERVICE_ERROR_STATUS = {
    "no-such-game": status.HTTP_404_NOT_FOUND,
    "no-such-match": status.HTTP_404_NOT_FOUND,
    "stale-ply": status.HTTP_409_CONFLICT,
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


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ServiceError):
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
        body = {"code": "invalid", "message": _first_message(exc.detail)}
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
