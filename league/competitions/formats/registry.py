"""The registry: one format class per Section.Format value, and what derives from it."""

from __future__ import annotations

from league.models import Section

from .arena import ArenaFormat
from .base import SectionFormat
from .elimination import DoubleEliminationFormat, SingleEliminationFormat
from .round_robin import RoundRobinFormat
from .section_settings import COMMON_SETTINGS, Setting, check_settings
from .swiss import SwissFormat

#: Every format, by its Section.Format value. The order is the order create_section
#: checks their settings in (it reports the first one refused).
FORMATS: dict[str, SectionFormat] = {
    fmt.key: fmt
    for fmt in (
        RoundRobinFormat(), ArenaFormat(), SwissFormat(), DoubleEliminationFormat(), SingleEliminationFormat(),
    )
}

#: Every format's own settings, each once, in the formats' order.
FORMAT_SETTINGS: tuple[Setting, ...] = tuple(dict.fromkeys(s for fmt in FORMATS.values() for s in fmt.settings))

#: The settings create_section takes besides its own arguments.
SECTION_SETTINGS = frozenset(COMMON_SETTINGS) | {setting.name for setting in FORMAT_SETTINGS}

#: The formats that run a fixed time from their start (the sweep finishes them).
TIMED_FORMATS = tuple(key for key, fmt in FORMATS.items() if fmt.timed)


def format_of(section: Section) -> SectionFormat:
    """The section's format (``section.format`` is one of Section.Format: create_section checks)."""
    return FORMATS[section.format]


def check_format_settings(section: Section) -> None:
    """Refuse (ServiceError) the first format setting of ``section`` that is not allowed."""
    check_settings(section, format_of(section).settings, FORMAT_SETTINGS)


def own_defaults(format: str) -> dict[str, object]:
    """The settings ``format`` takes that, given none, it gives a value of its own
    (Setting.own_default; the column's default, empty, is the other formats')."""
    return {s.name: s.own_default for s in FORMATS[format].settings if s.own_default is not None}
