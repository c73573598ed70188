"""Form fields as the site's forms show them (templates/accounts/_field.html)."""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def widget_described_by(field: BoundField, *ids: str) -> SafeString:
    """The field's widget, described first by ``ids`` (a note the page puts beside it,
    such as "Type your password again.") and then, as Django describes it, by its help
    text and its errors: a screen reader reads the note with the box."""
    own = field.aria_describedby or ""
    return field.as_widget(attrs={"aria-describedby": " ".join([*ids, own]).strip()})
