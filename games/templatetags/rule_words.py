"""A house-rule set in words, for the pages that show the rules in force beside a game or
a tournament section (templates/games/_rules_panel.html, templates/league/section.html)."""

from __future__ import annotations

from django import template

from games.admin import rules_in_words
from games.models import RuleSet
from games.rules import RuleError

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
