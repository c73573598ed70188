"""The podium of a finished section, for the section page (one line there:
``{% load league_results %}{% section_podium section %}``)."""

from typing import Any

from django import template

from league.competitions.podium import podium
from league.models import Section

register = template.Library()


@register.inclusion_tag("league/_podium.html")
def section_podium(section: Section) -> dict[str, Any]:
    return {"podium": podium(section), "section": section, "tournament": section.tournament,
            "club": section.tournament.club, "results_link": True}
