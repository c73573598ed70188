"""``{% challenge_form person %}``: the form that challenges one player, for their
page (it posts to games:create, as the lobby's form does); ``viewer|challenge_offer:person``:
what a list of players shows beside one of them."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import players, presence
from accounts.models import User

from .. import selectors, services
from ..views import VARIANT_NAMES

register = template.Library()


@register.filter
def challenge_offer(viewer: Any, person: User) -> str:
    """What a list of players (a club's members, the search, "Online now") shows beside
    ``person`` for ``viewer``: "offer" (a Challenge button), "cannot-play" (the games
    service would refuse them: no date of birth, under 4), or "" (nothing: signed out,
    themselves, or the viewer may not play). The lists show only whom the viewer may
    reach (accounts.players.may_reach)."""
    if viewer is None or not viewer.is_authenticated or viewer.pk == person.pk or services.play_refusal(viewer):
        return ""
    return "cannot-play" if services.challenge_refusal(viewer, person) else "offer"


@register.inclusion_tag("games/_challenge_form.html", takes_context=True)
def challenge_form(context: template.Context, person: User) -> dict[str, Any]:
    viewer = context.get("user")
    reachable = players.may_reach(viewer, person)
    signed_in = viewer is not None and viewer.is_authenticated
    # The form only where games.services.create_game would take the challenge; else why not.
    refusal = None
    if viewer is not None and signed_in and reachable and viewer.pk != person.pk:
        refusal = services.challenge_refusal(viewer, person)
    return {
        "person": person,
        "user": viewer,
        "reachable": reachable,
        "refusal": refusal,
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "online": reachable and presence.is_online(person),
        "variants": list(VARIANT_NAMES.items()),
        "rule_sets": selectors.current_rule_sets() if signed_in and refusal is None else [],
    }
