"""Finding players: search by name and who is online, as anyone may see them.

**Who is listed** (docs/accounts.md, "Finding players"): active accounts with a player
profile, except the accounts opened with a guardian's consent (players under their
country's digital-consent age). Those are never offered to strangers: not by search or
the "Online now" list, and a stranger who knows the exact username still sees neither
whether they are online nor a way to challenge them (``may_reach``); their club's
members see them on the club page and may challenge them. Closed accounts (a guardian's
consent pending, deactivated) are never listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from .errors import ServiceError
from .models import GuardianConsent, Presence, User

#: Results of one search; a longer list is not a search any more.
SEARCH_LIMIT = 20
#: The longest query searched (a username is at most 150 characters).
MAX_QUERY_LENGTH = 150
#: The "Online now" list shows at most this many.
ONLINE_LIMIT = 40


def listed_players() -> QuerySet[User]:
    """The accounts search and the online list may show to anyone."""
    return User.objects.filter(
        is_active=True, profile__isnull=False, guardian_consent__isnull=True
    ).select_related("profile")


def refuse_overlong(name: str) -> None:
    """No player is named with more than ``MAX_QUERY_LENGTH`` characters (a username's
    most): refused before the lookup, whose ``iexact`` is a LIKE pattern that SQLite
    refuses past 50,000 characters ("pattern too complex": a 500 on the lobby's form, the
    API's ``opponent`` and the organiser's "Enter a player", an outside probe)."""
    if len(name) > MAX_QUERY_LENGTH:
        raise ServiceError("no-such-player", f"There is no such player: a name is at most {MAX_QUERY_LENGTH} "
                                             "characters.")


def by_username(name: str) -> User:
    """The open account called ``name`` (any case), to challenge by name: a closed one
    (consent pending, deactivated) is "no such player", as if it did not exist."""
    refuse_overlong(name)
    found = User.objects.filter(username__iexact=name, is_active=True).first()
    if found is None:
        raise ServiceError("no-such-player", f"There is no player called {name!r}.")
    return found


#: "Edith (105)" as the lists show a player: the name, then the rating in brackets.
_SHOWN_WITH_RATING = re.compile(r"^(?P<name>.+?)\s*\(\s*\d+\??\s*\)$")


def by_name_shown(text: str) -> User:
    """The player a person typed as the site shows them: a username, "@username", a
    display name (any case) when only one open account has it, or either followed by
    the rating in brackets ("Edith (105)"). A display name two accounts share is refused
    with their usernames, so the challenger can pick one."""
    name = text.strip()
    match = _SHOWN_WITH_RATING.match(name)
    if match:
        name = match["name"].strip()
    name = name.removeprefix("@").strip()
    if not name:
        raise ServiceError("no-such-player", "Type the name of the player to challenge.")
    refuse_overlong(name)
    found = User.objects.filter(username__iexact=name, is_active=True).first()
    if found is not None:
        return found
    named = list(User.objects.filter(profile__display_name__iexact=name, is_active=True).order_by("username")[:10])
    if len(named) == 1:
        return named[0]
    if named:
        usernames = ", ".join(person.username for person in named)
        raise ServiceError("ambiguous-player", f"More than one player is called {name!r}: type the username "
                                               f"of the one you mean ({usernames}).")
    raise ServiceError("no-such-player", f"There is no player called {name!r}.")


def clean_query(raw: str) -> str:
    query = raw.strip()
    if len(query) > MAX_QUERY_LENGTH:
        raise ServiceError("query-too-long", f"Search for at most {MAX_QUERY_LENGTH} characters.")
    return query


def search_players(query: str, *, limit: int = SEARCH_LIMIT) -> list[User]:
    """Listed players whose username or display name contains ``query`` (any case):
    names that start with it first, then by username. Empty query: nobody."""
    query = clean_query(query)
    if not query:
        return []
    starts = Q(username__istartswith=query) | Q(profile__display_name__istartswith=query)
    found = listed_players().filter(Q(username__icontains=query) | Q(profile__display_name__icontains=query))
    order = Case(When(starts, then=Value(0)), default=Value(1), output_field=IntegerField())
    return list(found.annotate(prefix=order).order_by("prefix", "username")[:limit])


def online_players(*, viewer: Any = None, limit: int = ONLINE_LIMIT) -> list[User]:
    """Listed players with an open socket now, by username. ``viewer`` counts as online
    too: they have this page open, though its socket opens only after the page is drawn
    (a first visit read "Nobody is online just now" while a later page listed them)."""
    present = Q(pk__in=Presence.objects.values("user_id"))
    if viewer is not None and viewer.is_authenticated:
        present |= Q(pk=viewer.pk)
    return list(listed_players().filter(present).order_by("username")[:limit])


#: Who besides themselves may reach a child (see the module docstring): tests that apps
#: above accounts register from their AppConfig.ready (league: a club the two share).
_vouchers: dict[str, Callable[[User, User], bool]] = {}


def register_voucher(name: str, test: Callable[[User, User], bool]) -> None:
    """``test(viewer, child)``: True when ``viewer`` may reach ``child``."""
    _vouchers[name] = test


def is_child(person: User) -> bool:
    """An account opened with a guardian's consent."""
    return GuardianConsent.objects.filter(user_id=person.pk).exists()


def may_reach(viewer: Any, person: User) -> bool:
    """Whether ``viewer`` (None or anonymous: nobody signed in) may see ``person`` online
    and challenge them: anyone may reach an adult; a child, only themselves and whom an
    app vouches for."""
    if not is_child(person):
        return True
    if viewer is None or not viewer.is_authenticated:
        return False
    return viewer.pk == person.pk or any(test(viewer, person) for test in list(_vouchers.values()))
