"""A house-rule set in words, for the pages that show the rules in force beside a game or
a tournament section (templates/games/_rules_panel.html, templates/league/section.html)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from django import template

from games.admin import rules_in_words
from games.models import RuleSet
from games.rules import RuleError, get_variant

register = template.Library()


@register.simple_tag
def house_rules(rule_set: RuleSet | None, paired: bool = False) -> list[str]:
    """The set's sentences (the admin's describer: options, match, clock, decider); none
    for a set the engine no longer accepts, which the page then names only. ``paired``:
    a tournament section's, where a pairing, not a challenger, names Player One."""
    if rule_set is None:
        return []
    try:
        return rules_in_words(rule_set, paired=paired)
    except RuleError:
        return []


@dataclass(frozen=True)
class RulesTitle:
    """What a game page calls its rules: ``name`` ("Classic Tic Tac Toe, standard
    rules", or a house-rule set's own name) and whether they are a house-rule set."""

    name: str
    house: bool


#: The fields that make a set's rules (its clocks and no-show grace aside).
_RULE_FIELDS = ("options", "decider", "match_format", "match_games", "next_first")


def _standard_without_clock(rule_set: RuleSet) -> bool:
    """Whether ``rule_set`` is a standard set's rules with no clock: the copy a game
    against the computer plays (games.services.practice_rules), made by the platform."""
    if rule_set.seconds_per_move or rule_set.seconds_per_game or rule_set.created_by_id is not None:
        return False
    return standard_rules_are(rule_set.variant, _rules_of(rule_set))


def _rules_of(rule_set: RuleSet) -> str:
    return json.dumps([getattr(rule_set, field) for field in _RULE_FIELDS], sort_keys=True)


@functools.lru_cache(maxsize=1024)
def standard_rules_are(variant: str, rules: str) -> bool:
    """Whether a standard set of ``variant`` has these rules (``_rules_of``): read once a
    process for each, since the board that names them is drawn at every move (it was
    three statements a move, against five for the whole move). Standard rules change
    with a release (games/rule_sets.py), which restarts the process."""
    standards = RuleSet.objects.filter(is_standard=True, variant=variant).only(*_RULE_FIELDS)
    return any(_rules_of(standard) == rules for standard in standards)


@register.simple_tag
def rules_title(rule_set: RuleSet) -> RulesTitle:
    """The rules in force named for a player. A game against the computer plays the
    standard rules without a clock, on a copy the platform makes ("Standard classic (no
    clock)"): the page named it so and called it "a house-rule set" (walkthrough)."""
    try:
        variant = get_variant(rule_set.variant).display_name
    except RuleError:
        return RulesTitle(rule_set.name, not rule_set.is_standard)
    if rule_set.is_standard:
        return RulesTitle(f"{variant}, standard rules", False)
    if not rule_set.for_lessons and _standard_without_clock(rule_set):
        return RulesTitle(f"{variant}, standard rules, no clock", False)
    return RulesTitle(rule_set.name, True)
