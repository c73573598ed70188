"""The rules engine: pure Python, no Django.

Public contract (outside checks call these names)::

    from games.rules import get_variant, RuleError
    v = get_variant("classic")
    s = v.new_game(options=None, seed=None)
    s.to_move                  # seats that must act now
    v.legal_moves(s, 0); s2 = v.apply(s, 0, {"cell": 5})
    v.outcome(s2); v.view(s2, None); v.load(v.dump(s2))
"""

from .base import SEAT_NAMES, SEATS, Move, Outcome, Preset, Seat, State, Variant, Viewer
from .errors import RuleError
from .registry import get_variant, variant_slugs

__all__ = [
    "SEATS",
    "SEAT_NAMES",
    "Move",
    "Outcome",
    "Preset",
    "RuleError",
    "Seat",
    "State",
    "Variant",
    "Viewer",
    "get_variant",
    "variant_slugs",
]
