"""Tournament formats, Django side: one class per format behind one protocol
(``SectionFormat``, base.py), registered once (registry.py) by its Section.Format value.

The services, selectors, forms, API and pages ask ``format_of(section)`` instead of
comparing format names; the pure algorithms the classes feed are league/formats/.
Adding a format: docs/formats.md, "Adding a format".
"""

from .base import Board, LiveRow, Next, Progress, Ranked, SectionFormat
from .registry import (
    FORMAT_SETTINGS,
    FORMATS,
    SECTION_SETTINGS,
    TIMED_FORMATS,
    check_format_settings,
    format_of,
    own_defaults,
)

__all__ = [
    "FORMATS", "FORMAT_SETTINGS", "SECTION_SETTINGS", "TIMED_FORMATS", "Board", "LiveRow", "Next", "Progress", "Ranked",
    "SectionFormat", "check_format_settings", "format_of", "own_defaults",
]
