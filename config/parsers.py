"""The API's JSON parser. Its own module, not config.api: DRF reads the parser classes
while rest_framework.views loads, which config.api imports."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with two bodies it lets through answered as bad input: one
    nested too deeply for Python's parser (a RecursionError, a 500 on every endpoint),
    and one whose escapes make a lone surrogate (valid JSON, but no UTF-8 text: the
    error message echoing it could not be sent, another 500)."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError as exc:
            raise exceptions.ParseError("JSON parse error - nested too deeply.") from exc
        except UnicodeEncodeError as exc:
            raise exceptions.ParseError("JSON parse error - unpaired surrogate character.") from exc
        return data
