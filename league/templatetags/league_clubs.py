"""Whether the reader runs a club's events, for a page whose view does not say
(templates/league/season.html): ``{% load league_clubs %}{% organises club as organiser %}``."""

from typing import Any

from django import template

from league.models import Club

register = template.Library()


@register.simple_tag(takes_context=True)
def organises(context: template.Context, club: Club) -> bool:
    """The permission the organiser pages ask (moderation/permissions.py: "league.organise_club")."""
    user: Any = context["request"].user
    return bool(user.has_perm("league.organise_club", club))
