"""A section's facts the pages say in words without a view of their own to compute them
(templates/league/_section_facts.html): lengths as people say them (``|duration``), the
entry box's sentences (``entry_words``); whose game
links say "play" to its players, and the organiser's answers shown beside their forms:
``{% load league_sections %}``."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.utils import timezone

from games.rules import RuleError, get_variant
from games.time_controls import clock_text, duration_words
from league.competitions import event_selectors, selectors
from league.competitions.formats import format_of
from league.models import Entry, Section

register = template.Library()


@register.simple_tag
def level_match(section: Section) -> str:
    """How a match that ends level is settled ("": the section plays single games)."""
    return event_selectors.level_match_words(section)


@dataclass(frozen=True)
class ArenaClock:
    """A running arena's end and the time left at render (static/js/arena-clock.js counts
    it down; without JavaScript the page still says both)."""

    ends: datetime
    left_ms: int

    @property
    def left(self) -> str:
        return clock_text(self.left_ms)


@register.simple_tag
def arena_clock(section: Section) -> ArenaClock | None:
    """The clock of a running timed section (an arena); None for any other."""
    ends = format_of(section).closes_at(section)
    if ends is None or section.status != Section.Status.RUNNING:
        return None
    return ArenaClock(ends, max(0, int((ends - timezone.now()).total_seconds() * 1000)))


@register.simple_tag
def section_check_in(section: Section, user: Any) -> event_selectors.CheckInView | None:
    """The section's check-in in words, for ``user`` (None: it asks for none, or has started)."""
    return event_selectors.check_in_view(section, user)


@register.filter
def duration(value: timedelta | int | None) -> str:
    """Every length the league's pages show, in words (games.time_controls.duration_words): a schedule's
    (a timedelta: "a round every 20 minutes") and a clock's (whole seconds: "3 minutes a
    game", "10 seconds a move"); "" for none."""
    if not value:
        return ""
    return duration_words(int(value.total_seconds()) if isinstance(value, timedelta) else int(value))


def withdrawn_words(entry: Entry) -> str:
    """A withdrawn entry, said to its player in one sentence: who withdrew them and why,
    never the stored reason repeating the status ("You withdrew: Withdrew."). A reason
    someone typed is quoted as theirs (an organiser's, an arbiter's in the console, or the
    player's own through the API: the entry does not say whose). The reasons the services
    store themselves: selectors.WITHDREW, BY_ORGANISER and NO_CHECK_IN."""
    reason = entry.withdrawn_reason.strip()
    if reason in ("", selectors.WITHDREW):
        return "You withdrew from this section."
    if reason == selectors.BY_ORGANISER:
        return "The organiser withdrew you from this section."
    if reason == selectors.NO_CHECK_IN:
        return "You were withdrawn when round 1 started, as you had not checked in."
    quoted = f"“{reason}”" if reason[-1] in ".!?" else f"“{reason}”."
    return f"Your entry was withdrawn. The reason given: {quoted}"


def _progress_words(words: str) -> str:
    """A knockout table's standing said to the player: "still in the semi-finals",
    "eliminated in round 1; you play for places 5 to 8" ("Still in: the semi-finals",
    "Eliminated in round 1; plays for places 5 to 8" in the table)."""
    words = words.replace("Still in: ", "still in ", 1).replace("; plays ", "; you play ")
    return words[:1].lower() + words[1:]


@dataclass(frozen=True)
class EntryWords:
    """The entry box's sentences: where the player stands (``status``, "" when the
    check-in line says it) and why they may not enter (``refusal``, "" when they may)."""

    status: str
    refusal: str


@register.simple_tag
def entry_words(state: event_selectors.EntryState, section: Section,
                check_in: event_selectors.CheckInView | None = None) -> EntryWords:
    """The signed-in player's entry in sentences, each said once: a status word is not
    its own reason, a withdrawal is not said again by the refusal to enter again, and a
    check-in the check-in line confirms is not said above it too."""
    entry = state.entry
    refusal = state.refusal
    if entry is None:
        return EntryWords("", refusal)
    if entry.status == Entry.Status.WITHDRAWN:
        if state.register_refusal is not None and state.register_refusal.code == "already-entered":
            # "You withdrew from this section after it started.": the status said the first half.
            refusal = "You cannot enter again now that the section has started."
        return EntryWords(withdrawn_words(entry), refusal)
    seed = f" (seed {entry.seed})" if entry.seed else ""
    if section.status == Section.Status.RUNNING:
        status = f"You are playing in this section{seed}."
        progress = event_selectors.knockout_progress(section)  # a knockout: how far they have got
        mine = progress.get(entry.user_id) if progress else None
        if mine is not None:
            status = f"You are {f'seed {entry.seed}: ' if entry.seed else ''}{_progress_words(mine.words)}."
    elif section.status == Section.Status.FINISHED:
        status = f"You played in this section{seed}."
    elif section.status == Section.Status.CANCELLED:
        status = "You were entered; the section was cancelled."
    elif check_in is not None and check_in.button == "done":
        status = ""  # the check-in line: "You are checked in (...): you will be paired."
    elif entry.status == Entry.Status.CHECKED_IN:
        status = f"You are checked in{seed}."
    else:
        status = f"You are registered{seed}."
    return EntryWords(status, refusal)


@register.filter
def rounds_words(section: Section) -> str:
    """The section's number of rounds after its format, before its start too: " · 5 rounds"
    (counted at the start, or a Swiss's declared rounds), a Swiss without declared rounds
    " · rounds: the recommended number for the field, fixed at the start", else ""."""
    count = section.total_rounds or (section.rounds if section.format == Section.Format.SWISS else None)
    if count:
        return f" · {count} round{'' if count == 1 else 's'}"
    if section.format == Section.Format.SWISS:
        return " · rounds: the recommended number for the field, fixed at the start"
    return ""


@register.filter
def rules_name(section: Section) -> str:
    """The section's rules in words: "Tic Tac Two, standard rules", or a house-rule set's
    own name after its variant's ("Tic Tac Two, house rules: Blitz fours"). The pages
    once printed the set's stored name and the variant's slug, "Standard tic-tac-two
    (tic-tac-two)" (walkthrough)."""
    try:
        variant = get_variant(section.variant).display_name
    except RuleError:
        variant = section.variant
    if section.rule_set.is_standard:
        return f"{variant}, standard rules"
    return f"{variant}, house rules: {section.rule_set.name}"


@register.filter
def paused_of(paused: dict[int, event_selectors.Paused], user_id: int) -> event_selectors.Paused | None:
    """A player's pause in a running arena (event_selectors.paused_players), or None."""
    return paused.get(user_id)


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
