"""Every registered variant has every part docs/adding-a-variant.md lists.

The rules class with its metadata, the AI, the house rules in words, at least one
preset, the board builder, the board template and the rules decisions page. A variant
registered without one of them fails here, by name.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.rules import Variant, get_variant, variant_slugs
from games.rules.registry import _VARIANTS

REPO = Path(__file__).resolve().parents[3]
SLUGS = variant_slugs()


def test_every_registered_variant_is_present():
    assert list(_VARIANTS) == SLUGS, "a registered variant's package is missing"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_rules_class_carries_its_metadata(slug):
    variant = get_variant(slug)
    assert isinstance(variant, Variant) and variant.slug == slug
    for attribute in ("name", "display_name", "summary", "board_template"):
        value = getattr(variant, attribute, None)
        assert isinstance(value, str) and value.strip(), f"{slug} has no {attribute}"
    assert "\n" not in variant.summary and variant.summary.endswith("."), "the summary is one sentence"
    assert isinstance(variant.offers_move_list, bool)
    assert isinstance(variant.options_schema, dict) and variant.options_schema["type"] == "object"
    assert isinstance(getattr(variant, "state_schema", None), dict), f"{slug} has no state_schema"
    # games.rules.variants.<module>.<file>: the class lives in its own package
    assert type(variant).__module__.startswith("games.rules.variants.")
    assert type(variant).__module__.count(".") == 4


@pytest.mark.parametrize("slug", SLUGS)
def test_the_ai_makes_a_legal_move(slug):
    variant = get_variant(slug)
    state = variant.new_game(None, seed=1)
    seat = state.to_move[0]
    for player in (variant.strong_move, variant.casual_move):
        move = player(state, seat, random.Random(1))
        variant.apply(state, seat, move)  # a RuleError here is an illegal move


@pytest.mark.parametrize("slug", SLUGS)
def test_the_house_rules_are_described_and_preset(slug):
    variant = get_variant(slug)
    lines = variant.describe_rules(variant.validate_options(None))
    assert lines and all(isinstance(line, str) and line for line in lines)
    assert variant.presets, f"{slug} has no preset"
    for preset in variant.presets:
        assert preset.variant == slug
        variant.validate_options(preset.options)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_board_is_built_and_drawn(slug):
    variant = get_variant(slug)
    state = variant.new_game(None, seed=1)
    for seat in (0, 1, None):
        board = variant.build_board(variant.view(state, seat), [], seat, seat in state.to_move)
        assert isinstance(board, dict)
    template = REPO / "templates" / variant.board_template
    assert template.is_file(), f"{slug}'s board template {variant.board_template} is missing"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_rules_decisions_are_written_down(slug):
    page = REPO / "docs" / "rules" / f"{slug}.md"
    assert page.is_file(), f"docs/rules/{slug}.md is missing"
    assert f"({slug}.md)" in (REPO / "docs" / "rules" / "README.md").read_text(), (
        "not listed in docs/rules/README.md"
    )
