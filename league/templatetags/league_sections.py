"""A section's facts the pages say in words without a view of their own to compute them
(templates/league/_section_facts.html), whose game links say "play" to its players, and
the organiser's answers shown beside their forms: ``{% load league_sections %}``."""

from collections.abc import Iterable
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
