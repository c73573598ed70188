"""The error services raise for refused requests: a stable code and a sentence; and its
shape in the API, every error's (config/api.py renders them, config/schema.py documents them)."""

from __future__ import annotations

from rest_framework import serializers


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
