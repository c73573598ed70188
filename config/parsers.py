"""The API's parsers. Their own module, not config.api: DRF reads the parser classes
while rest_framework.views loads, which config.api imports.

Each holds a write's body to the fields its operation documents (``OnlyDocumentedFields``):
a POST or PUT naming a field it does not take is refused as a PATCH is, rather than the
field being dropped in silence."""

from __future__ import annotations

import codecs
import json
from typing import Any

from rest_framework import exceptions, parsers
from rest_framework.parsers import get_encoding  # type: ignore[attr-defined]

from accounts import json_numbers
from accounts.errors import refuse_fields

#: Why a field of the answer cannot be sent in the request that makes it.
SET_BY_THE_PLATFORM = "it is in the answer, and the platform sets it."

class OnlyDocumentedFields:
    """A POST or PUT body holds only the fields its operation's schema documents
    (config.operations): 400 ``read-only-field`` for a field of the answer (a game's
    ``status``, a tournament's ``finished_at``), 400 ``unknown-field`` for any other,
    each named in ``fields``; nothing is done (accounts.errors.refuse_fields, the check
    PATCH already had). DRF's serializers drop such fields silently, so a typo
    (``"ratd": true``) made an unrated game that seemed to be what was asked. A PATCH
    is checked by its view, with each field's own reason. A request no route of the
    schema resolved (a view called directly) is not checked here."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)  # type: ignore[misc]  # a DRF parser, mixed in after
        request = (parser_context or {}).get("request")
        if request is not None and request.method in ("POST", "PUT"):
            from .operations import operation_for  # not at import: DRF loads this module early

            operation = operation_for(request)
            if operation is not None:
                names = parsed.data if isinstance(parsed, parsers.DataAndFiles) else parsed
                refuse_fields(names, takes=sorted(operation.body_fields or ()), shown=operation.answer_fields,
                              reasons={}, otherwise=SET_BY_THE_PLATFORM, verb="set")
                if isinstance(parsed, parsers.DataAndFiles) and parsed.files:
                    refuse_fields(parsed.files, takes=sorted(operation.body_fields or ()),
                                  shown=operation.answer_fields, reasons={}, otherwise=SET_BY_THE_PLATFORM,
                                  verb="set")
        return parsed


class JSONReader(parsers.JSONParser):
    """DRF's JSON parser, with bodies it lets through answered as bad input in words: one
    nested too deeply for Python's parser (a RecursionError, a 500 on every endpoint),
    one whose escapes make a lone surrogate (valid JSON, but no UTF-8 text: the error
    message echoing it could not be sent, another 500), and the numbers
    accounts.json_numbers refuses (the websockets' frames read the same way): an
    integer too long for Python to read (its message named
    ``sys.set_int_max_str_digits()``), a number too large to be finite (read as
    infinity) and ``NaN`` or ``Infinity``, which are not JSON; and an object that names
    a key twice (Python kept the last in silence)."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        # DRF's own parse, with the number readers above.
        encoding = get_encoding(parser_context or {})
        readers = json_numbers.readers("the body")
        if not self.strict:
            readers.pop("parse_constant")
        try:
            decoded_stream = codecs.getreader(encoding)(stream)
            data = json.load(decoded_stream, **readers)
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError as exc:
            raise exceptions.ParseError("The body is not JSON the API reads: it is nested too deeply.") from exc
        except UnicodeEncodeError as exc:
            raise exceptions.ParseError("The body is not JSON the API reads: an escape makes an unpaired "
                                        "surrogate character, which is no text.") from exc
        except (json_numbers.NumberRefused, json_numbers.DuplicateKey) as exc:
            raise exceptions.ParseError(str(exc)) from exc
        except json.JSONDecodeError as exc:
            # In words, where DRF's said "JSON parse error - Expecting value: line 1 column
            # 1 (char 0)" (a walkthrough's bot developer).
            raise exceptions.ParseError(
                f"The body is not valid JSON: {exc.msg[0].lower()}{exc.msg[1:]} at line {exc.lineno}, "
                f"column {exc.colno}. Send a JSON object, with Content-Type: application/json."
            ) from exc
        except ValueError as exc:  # not text in the declared encoding
            raise exceptions.ParseError(f"The body is not {encoding.upper()} text: send JSON encoded as UTF-8.") from exc
        return data


class JSONParser(OnlyDocumentedFields, JSONReader):
    """The API's JSON parser (``JSONReader``), with the body held to its documented fields."""


class FormParser(OnlyDocumentedFields, parsers.FormParser):
    """DRF's form parser (a form's text), with the body held to its documented fields."""


class MultiPartParser(OnlyDocumentedFields, parsers.MultiPartParser):
    """DRF's multipart parser, with the body held to its documented fields."""
