"""House rules in words, and the standard presets of every rule set. Pure Python.

``describe_options(slug, options)`` turns a variant's validated options into sentences
a player reads before a game (the admin's preview, the rule set's page). It trusts its
input only as far as the engine does: options are validated first, so a bad set raises
the engine's RuleError rather than being described.

``PRESETS`` are the rule sets the texts themselves define: each variant's standard
rules, and the house rules the texts name (the classic FAQ's "Player Two uses X" and
"O goes first", Tic Tac Two's Meta and Void variations, T-Tic-T-Tac-Toe's two versions).
Both are the variants' own (``Variant.describe_rules`` and ``Variant.presets``, written
in the ``describe`` module of each variant's package); this module gathers them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Preset
from .registry import get_variant, variant_slugs

PRESETS: tuple[Preset, ...] = tuple(p for slug in variant_slugs() for p in get_variant(slug).presets)


def presets_for(variant: str) -> list[Preset]:
    return [preset for preset in PRESETS if preset.variant == variant]


def preset(slug: str) -> Preset | None:
    return next((p for p in PRESETS if p.slug == slug), None)


def describe_options(variant: str, options: Mapping[str, Any] | None) -> list[str]:
    """The rules of ``variant`` with ``options``, in sentences. Raises the engine's
    RuleError for an unknown variant or bad options."""
    rules = get_variant(variant)
    return rules.describe_rules(rules.validate_options(options))
