"""What the variants' board builders share. Pure Python: the builders only build dicts.

A board builder (``Variant.build_board``) turns a viewer's view and listed legal moves
into the context of the variant's board template. Each listed legal move is
``{"move": ..., "label": ..., "json": ..., "kind": ...}`` (``kind`` is the move's
``action`` or ``type``, else its first key).
"""

from __future__ import annotations

from typing import Any

#: One legal move as the game page lists it.
ListedMove = dict[str, Any]


def square_label(n: int, mark: str | None) -> str:
    """What a screen reader says for square ``n``."""
    return f"Square {n}, {mark if mark else 'empty'}"
