"""The OpenAPI schema's generator: drf-spectacular's, told about the errors every
operation can answer. Not in config.api: DRF imports that one (the pagination) while
its generic views are still loading, and drf-spectacular imports them. For the same
reason the error shape comes from accounts.errors, which defines no view: DRF loads
this class while the API modules' views are being defined."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema

from accounts.errors import ErrorSerializer

#: What any operation may answer besides its own responses, always in the error shape:
#: bad input (a query parameter, a page, a NUL byte), a bad token, a refusal, an unknown
#: object or ``?format=``, a throttle.
COMMON_ERRORS = {
    "400": "Bad input: the reason in `message`, per field in `fields`.",
    "401": "Not signed in, or a bad token.",
    "403": "Not allowed.",
    "404": "No such object (or format).",
    "429": "Too many requests: try again later.",
}
#: And what an operation taking a body may answer: a body it cannot read (a media type
#: it does not take, or a multipart body without its headers).
BODY_ERRORS = {"415": "Unsupported media type: send JSON."}


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, plus the error responses every operation can give, so the
    schema is true for all of them (tests/test_api_fuzz.py holds the API to it)."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        error = None
        common = COMMON_ERRORS | (BODY_ERRORS if self.method in ("POST", "PUT", "PATCH") else {})
        for code, description in common.items():
            if code in responses and responses[code].get("content"):
                continue
            if error is None:
                error = self._get_response_for_code(ErrorSerializer, code, ["application/json"], direction)["content"]
            responses[code] = {"content": error, "description": responses.get(code, {}).get("description")
                               or description}
        return responses
