"""The one error type of the engine."""

from __future__ import annotations


class RuleError(Exception):
    """A move, an option or a request the rules refuse.

    ``code`` is stable (clients and tests match on it); ``message`` is a sentence a
    player understands.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
