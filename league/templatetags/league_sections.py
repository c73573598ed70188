"""A section's facts the pages say in words without a view of their own to compute them
(templates/league/_section_facts.html): ``{% load league_sections %}``."""

from datetime import timedelta
from typing import Any

from django import template

from games.time_controls import duration_words
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


@register.filter
def duration(value: timedelta | None) -> str:
    """A schedule's length in words ("20 min", "1 h 30 min"), not ``0:20:00``."""
    return duration_words(int(value.total_seconds())) if value else ""
