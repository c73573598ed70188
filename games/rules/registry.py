"""The registered variants: one line each, imported on first use.

A variant is one package, ``games/rules/variants/<module>/``, whose Variant class
carries its rules, its metadata and its parts (docs/adding-a-variant.md). Registering it
is its line below: slug -> "<module>:<ClassName>" inside games.rules.variants.
"""

from __future__ import annotations

import importlib
from functools import cache

from .base import Variant
from .errors import RuleError

_VARIANTS: dict[str, str] = {
    "classic": "classic:Classic",
    "rock-paper-scissors": "rock_paper_scissors:RockPaperScissors",
    "tactic-toe": "tactic_toe:TacticToe",
    "nine-square": "nine_square:NineSquare",
    "t-tic-t-tac-toe": "t_tic_t_tac_toe:TTicTTacToe",
    "tic-tac-two": "tic_tac_two:TicTacTwo",
}


def variant_slugs() -> list[str]:
    """Every slug whose package is present."""
    slugs = []
    for slug in _VARIANTS:
        try:
            get_variant(slug)
        except RuleError:
            continue
        slugs.append(slug)
    return slugs


def get_variant(slug: str) -> Variant:
    """The Variant for ``slug``; RuleError("unknown-variant") for any other."""
    # Checked before the cache, which would fail on an unhashable slug from JSON.
    if not isinstance(slug, str) or slug not in _VARIANTS:
        raise RuleError("unknown-variant", f"There is no variant called {slug!r}; the variants are "
                                           f"{', '.join(_VARIANTS)}.")
    return _registered(slug)


@cache
def _registered(slug: str) -> Variant:
    module_name, class_name = _VARIANTS[slug].split(":")
    try:
        module = importlib.import_module(f"games.rules.variants.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.rules.variants.{module_name}":
            raise
        raise RuleError("unknown-variant", f"The rule set {slug!r} is not installed.") from exc
    variant: Variant = getattr(module, class_name)()
    return variant
