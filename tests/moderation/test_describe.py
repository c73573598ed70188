"""games.rules.describe: the rules in words and the presets (pure, no database)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import RuleError, get_variant, variant_slugs
from games.rules.describe import PRESETS, describe_options, preset, presets_for


def test_every_variant_has_a_standard_preset_and_every_preset_is_valid():
    for slug in variant_slugs():
        assert presets_for(slug), slug
    for item in PRESETS:
        assert get_variant(item.variant).validate_options(item.options) is not None
        assert preset(item.slug) is item
    assert len({p.slug for p in PRESETS}) == len(PRESETS)


def test_the_faq_house_rules_are_presets():
    swapped = preset("classic-player-two-x")
    o_first = preset("classic-o-first")
    assert swapped is not None and swapped.options == {"symbols": ["O", "X"]}
    assert o_first is not None and o_first.options == {"first": "O"}


def test_classic_standard_in_words():
    lines = describe_options("classic", {})
    assert "Player One places X and Player Two places O." in lines
    assert "X goes first, so Player One moves first." in lines


def test_classic_player_two_uses_x_keeps_x_first():
    # docs/rules/classic.md: with the letters swapped, X still goes first (Player Two).
    lines = describe_options("classic", {"symbols": ["O", "X"]})
    assert "House rule: Player One places O and Player Two places X." in lines
    assert "X goes first, so Player Two moves first." in lines


def test_classic_o_goes_first():
    lines = describe_options("classic", {"first": "O"})
    assert "House rule: O goes first, so Player Two moves first." in lines
    both = describe_options("classic", {"symbols": ["O", "X"], "first": "O"})
    assert "House rule: O goes first, so Player One moves first." in both


@pytest.mark.parametrize("letters", [["Q", "O"], ["X", "C"]])
def test_other_letters_are_refused_with_the_faq_answer(letters):
    with pytest.raises(RuleError) as err:
        describe_options("classic", {"symbols": letters})
    assert "it must be Xs and Os" in err.value.message


def test_unknown_variant_is_refused():
    with pytest.raises(RuleError) as err:
        describe_options("chess", {})
    assert err.value.code == "unknown-variant"


def test_options_change_the_words():
    assert any("Version 2.0" in line for line in describe_options("t-tic-t-tac-toe", {"version": "2.0"}))
    assert any("no bwahs" in line for line in describe_options("t-tic-t-tac-toe", {"bwahs": False}))
    confirm = describe_options("t-tic-t-tac-toe", {"confirm_moves": True, "take_backs": 1})
    assert any("1 pending move per game" in line for line in confirm)
    assert any("Meta variation" in line for line in describe_options("tic-tac-two", {"meta": True}))
    assert not any("Meta variation" in line for line in describe_options("tic-tac-two", {}))
    assert any("Player Two is X" in line for line in describe_options("nine-square", {"x_player": "player-two"}))


@given(st.sampled_from(["X", "O"]), st.sampled_from(["X", "O"]), st.sampled_from(["X", "O"]))
def test_classic_words_name_the_seat_the_engine_starts(one, two, first):
    options = {"symbols": [one, two], "first": first}
    rules = get_variant("classic")
    try:
        state = rules.new_game(options)
    except RuleError:
        with pytest.raises(RuleError):
            describe_options("classic", options)
        return
    seat = state.to_move[0]
    starter = ("Player One", "Player Two")[seat]
    assert any(line.endswith(f"so {starter} moves first.") for line in describe_options("classic", options))


def test_every_variant_is_described_with_its_defaults():
    for slug in variant_slugs():
        lines = describe_options(slug, None)
        assert lines and all(isinstance(line, str) and line.endswith(".") for line in lines)
