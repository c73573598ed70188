"""Rock-paper-scissors' template context: none beyond the page's own.

Its template draws a button per listed legal throw and the view's history directly,
so the builder adds nothing.
"""

from __future__ import annotations

from typing import Any

from ...boards import ListedMove


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    return {}
