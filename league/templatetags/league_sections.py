"""A section's facts the pages say in words without a view of their own to compute them
(templates/league/_section_facts.html), whose game links say "play" to its players, and
the organiser's answers shown beside their forms: ``{% load league_sections %}``."""

import copy
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django import template

from games.models import RuleSet
from games.templatetags.rule_words import house_rules
from league.competitions import event_selectors
from league.models import Section

register = template.Library()


@register.simple_tag
def level_match(section: Section) -> str:
    """How a match that ends level is settled ("": the section plays single games)."""
    return event_selectors.level_match_words(section)


@register.simple_tag
def section_check_in(section: Section, user: Any) -> event_selectors.CheckInView | None:
    """The section's check-in in words, for ``user`` (None: it asks for none, or has started)."""
    return event_selectors.check_in_view(section, user)


#: The units a length is said in, largest first: (seconds in one, singular, plural).
_UNITS = ((24 * 3600, "day", "days"), (3600, "hour", "hours"), (60, "minute", "minutes"), (1, "second", "seconds"))


def duration_words(seconds: int) -> str:
    """A length as people say it: "3 minutes", "10 seconds", "1 minute 30 seconds",
    "1 hour 30 minutes", "2 days" (not "180 s", "0:20:00" or "1 h 30 min")."""
    parts = []
    for size, one, many in _UNITS:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {one if count == 1 else many}")
    return " ".join(parts) or "0 seconds"


@register.filter
def duration(value: timedelta | int | None) -> str:
    """Every length the league's pages show, in words (duration_words): a schedule's
    (a timedelta: "a round every 20 minutes") and a clock's (whole seconds: "3 minutes a
    game", "10 seconds a move"); "" for none."""
    if not value:
        return ""
    return duration_words(int(value.total_seconds()) if isinstance(value, timedelta) else int(value))


@register.simple_tag
def section_rule_lines(rule_set: RuleSet | None) -> list[str]:
    """A section's rule set in sentences (games' describer, as paired in a tournament),
    its clock said as people say it: "Each player has 3 minutes for the whole game.", not
    "180 seconds". In the describer's order: the options and the match, the clock, then
    who is Player One (its last line)."""
    if rule_set is None:
        return []
    clockless = copy.copy(rule_set)
    clockless.seconds_per_move = clockless.seconds_per_game = None
    lines = house_rules(clockless, paired=True)
    if not lines:
        return []
    clock = []
    if rule_set.seconds_per_move:
        clock.append(f"Each move must be made within {duration(rule_set.seconds_per_move)}.")
    if rule_set.seconds_per_game:
        clock.append(f"Each player has {duration(rule_set.seconds_per_game)} for the whole game.")
    return [*lines[:-1], *clock, lines[-1]]


@register.filter
def plays_in(board: Any, user: Any) -> bool:
    """Whether ``user`` is one of the players of ``board`` (a round's board, with its
    players ``shown``, or a bracket's match, with its ``sides``): their own game's link
    says "play", anyone else's "watch"."""
    if not getattr(user, "is_authenticated", False):
        return False
    sides = getattr(board, "sides", None)
    people = [side.person for side in sides] if sides is not None else getattr(board, "shown", [])
    return any(person is not None and person.user_id == user.pk for person in people)


class Notes(list[Any]):
    """The messages a page shows beside the form they answer."""

    @property
    def refused_entry(self) -> bool:
        """One says why the organiser's "Enter a player" was refused (its field is marked)."""
        return any(note.level_tag == "error" and "enter-player" in note.extra_tags.split() for note in self)


@register.filter
def in_place(messages: Iterable[Any]) -> Notes:
    """The messages tagged "in-place" (league.views.competitions.IN_PLACE): the page shows
    them beside the form they answer, templates/base.html not at its top."""
    return Notes(message for message in messages if "in-place" in (message.extra_tags or "").split())
