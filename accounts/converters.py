"""URL converters for accounts' values."""


class AnyUsername:
    """Any stored username in a URL, ``/`` and line breaks included.

    The sign-up rules now keep names to letters, digits and ``@.+-_``, but names stored
    before them may hold anything but NUL (refused before routing: config.middleware); a
    page that links such a player must still render (``<str:>`` cannot reverse a ``/``).
    Only at the end of a path (a fixed suffix such as ``.ics`` may follow): it matches ``/``.
    """

    regex = r"[\s\S]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
