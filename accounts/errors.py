"""The error services raise for refused requests: a stable code and a sentence; and its
shape in the API, every error's (config/api.py renders them, config/schema.py documents them)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

#: The longest message an error carries (API answers and socket error frames). A refusal
#: may quote what was sent, and an outside probe's 2 MB body came back whole in its
#: message (every one of 200,000 house-rule keys), as did a 15 KB frame type.
MESSAGE_LIMIT = 500


def shortened(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ServiceError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[ServiceError], tuple[str, str]]:
        # Pickled as (code, message): the default would call __init__ with the message alone.
        return (self.__class__, (self.code, self.message))

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class ErrorSerializer(serializers.Serializer):
    """The platform's one error shape in the API: ``{"code", "message"}``."""

    code = serializers.CharField()
    message = serializers.CharField()
    # Nested where the field is (a list's items, an object's keys): left open here. The
    # name is the JSON key; DRF's metaclass takes declared fields off the class, so the
    # serializer's own ``fields`` property stays.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False,
        help_text="A validation error's fields (or query parameters), each with its reasons: a list of sentences.",
    )


# -- a request names what it cannot set, instead of it being ignored ----------------------------


class FieldsRefused(ValidationError):
    """400 with its own code (config.api.exception_handler answers ``error_code``, not
    ``invalid``) and the refused fields or query parameters, each with its reason, under
    ``fields``."""

    def __init__(self, code: str, reasons: Mapping[str, str]) -> None:
        super().__init__({name: [reason] for name, reason in reasons.items()}, code=code)
        self.error_code = code


#: Sent by a form of the browsable API beside its fields; not a field.
FORM_EXTRAS = frozenset({"csrfmiddlewaretoken"})


def refuse_fields(data: Any, *, takes: Iterable[str], shown: Iterable[str], reasons: Mapping[str, str],
                  otherwise: str, verb: str = "change") -> None:
    """Refuse a body naming a field the request does not take (``takes``), before anything
    is done (DRF drops such fields silently, so the request seemed to work): 400
    ``read-only-field`` for a field of the answer (``shown``) that cannot be changed (or
    set: ``verb``) here, with its reason (``reasons``, else ``otherwise``); 400
    ``unknown-field`` for one the resource does not have, saying which can be. The one
    check of a PATCH (accounts.api.refuse_unwritable) and of every other write's body
    (config.parsers)."""
    if not isinstance(data, Mapping):
        return  # not an object: the serializer says so
    takes = list(takes)
    known = set(shown)
    extras = FORM_EXTRAS if hasattr(data, "getlist") else frozenset()
    # The message puts the field's name first ("date_of_birth: This cannot ...").
    done = {"change": "changed"}.get(verb, verb)
    fixed = {name: f"This cannot be {done} here; {reasons.get(name, otherwise)}"
             for name in data if name in known and name not in takes}
    if fixed:
        raise FieldsRefused("read-only-field", fixed)
    can = f"these can be: {', '.join(takes)}." if takes else "this request takes none."
    unknown = {name: f"There is no such field to {verb} here; {can}"
               for name in data if name not in known and name not in takes and name not in extras}
    if unknown:
        raise FieldsRefused("unknown-field", unknown)


def refuse_value(name: str, value: str, allowed: Iterable[str]) -> None:
    """400 ``bad-filter`` for a query parameter given a value outside its set, naming the
    parameter and the values it takes (config.api.Pagination, every list)."""
    values = ", ".join(allowed)
    raise FieldsRefused("bad-filter", {name: f"One of {values}; not {value!r}."})
