"""Every permission of the platform and who has it (docs/security.md, "Permissions").

Each permission is a django-rules predicate registered under a Django permission name
(``register``, from ModerationConfig.ready), and the pages, the API, the admin and the
websocket ask it through Django's own ``user.has_perm(name, obj)``: settings put
``rules.permissions.ObjectPermissionBackend`` among AUTHENTICATION_BACKENDS. A name
belongs to the app that asks it ("games.revise_ruleset", "league.organise_club"), so
``games`` and ``league`` ask without importing this module; it lives in moderation,
the top app, because the predicates need league's clubs and moderation's club sets.
None of the names is a model permission: no group or user row can grant one.

Superusers. ``User.has_perm`` answers True for an *active* superuser before any
backend is asked. Every predicate that superusers pass says so itself
(``is_active_superuser | ...``), so a permission gives the same answer asked through
``user.has_perm`` or through ``rules.has_perm`` (the predicate alone), and an inactive
superuser has no rights. One permission is NOT every superuser's:
"games.revise_ruleset" (a player's own set is its author's alone; superusers see it
read-only), so it is asked with ``rules.has_perm``, never ``user.has_perm``
(games/ownership.py, the only place that asks it).

The admin's lists are narrowed with ``moderated_clubs``: the same roles as the
predicates, as a queryset of clubs.
"""

from __future__ import annotations

from typing import Any

import rules
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet

from games import ownership
from league.models import ORGANISER_ROLES, Club, ClubMembership

#: Club roles that moderate a club and open the console. Owners and organisers
#: (ORGANISER_ROLES) run the club's events and house rules; arbiters moderate games
#: and observers.
CONSOLE_ROLES = (*ORGANISER_ROLES, ClubMembership.Role.ARBITER)


def _active(user: Any) -> bool:
    """Signed in with an active account (Django's AnonymousUser is neither)."""
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def moderated_clubs(user: Any, *, roles: tuple[str, ...] = CONSOLE_ROLES) -> QuerySet[Club] | None:
    """The clubs where ``user`` holds one of ``roles``; None means every club (an active
    superuser). Anyone else, and any inactive account, gets an empty set."""
    if not _active(user):
        return Club.objects.none()
    if user.is_superuser:
        return None
    return Club.objects.filter(memberships__user=user, memberships__role__in=roles)


def _holds_role(user: Any, club: Club | int | None, roles: tuple[str, ...]) -> bool:
    return (
        _active(user)
        and club is not None
        and ClubMembership.objects.filter(club_id=getattr(club, "pk", club), user=user, role__in=roles).exists()
    )


# -- predicates -----------------------------------------------------------------------------


@rules.predicate
def is_active_superuser(user: Any) -> bool:
    return _active(user) and bool(user.is_superuser)


@rules.predicate
def is_club_organiser(user: Any, club: Club | int | None) -> bool:
    """An owner or organiser of ``club`` (a Club or its id)."""
    return _holds_role(user, club, ORGANISER_ROLES)


@rules.predicate
def is_club_moderator(user: Any, club: Club | int | None) -> bool:
    """An owner, organiser or arbiter of ``club`` (a Club or its id)."""
    return _holds_role(user, club, CONSOLE_ROLES)


#: A club's events and house rules; None (no club: the platform's) is superusers' only.
organises_club = is_active_superuser | is_club_organiser
#: A club's games and observers; None (no club) is superusers' only.
moderates_club = is_active_superuser | is_club_moderator


@rules.predicate
def keeps_rule_set(user: Any, rule_set: Any) -> bool:
    """The keeper of the set's family (games/ownership.py says which): a club's set is
    whoever organises the club; a player's set is its author's alone, superusers not
    included; the platform's (standard, or without an author) is superusers'."""
    keeper = ownership.keeper_of(rule_set)
    if keeper.kind == ownership.CLUB:
        return organises_club.test(user, keeper.club)
    if keeper.kind == ownership.PLAYER:
        return _active(user) and user.pk == keeper.author_id
    return is_active_superuser.test(user)


# -- the permissions --------------------------------------------------------------------------

#: Every permission of the platform: its name, what it allows (and on what object), and
#: who has it. Asked with ``user.has_perm(name, obj)`` unless said otherwise.
PERMISSIONS: dict[str, rules.Predicate] = {
    # Run a club's events (tournaments, sections, registration, starting; see drafts),
    # keep its house-rule sets, set its observer policies, and start a round now, pause,
    # resume or pair again in the console. Object: a Club; None (no club): superusers.
    "league.organise_club": organises_club,
    # Moderate a club's games: kick and ban observers, lift bans, forfeit, adjudicate,
    # correct a result, withdraw a player; watch its games whatever the observer policy,
    # bans or cap; never be banned from them. Object: a Club or its id; None: superusers.
    "league.moderate_club": moderates_club,
    # Make a new version of a house-rule set. Object: a RuleSet. NOT every superuser's:
    # asked with rules.has_perm (games/ownership.py), never user.has_perm.
    "games.revise_ruleset": keeps_rule_set,
    # Recompute every rating of every club from the game log (admin action, or adding a
    # recompute run). No object.
    "league.recompute_ratings": is_active_superuser,
}


def register() -> None:
    """Register every permission with django-rules (set, not add: ready may run twice)."""
    for name, predicate in PERMISSIONS.items():
        rules.set_perm(name, predicate)


# -- apps whose permissions are superusers' own -------------------------------------------

#: A periodic task runs code for the whole platform, so no club role reaches the schedules.
SUPERUSERS_ONLY_APPS = frozenset({"django_celery_beat"})


class SuperusersOnlyAppsBackend:
    """Refuses these apps' permissions to everyone who asks a backend, whatever their
    groups hold: Django stops at the first backend that raises PermissionDenied, and an
    active superuser has every permission without asking one. Listed before ModelBackend.

    It authenticates nobody and has no ``get_user``, so no session (nor the test
    client's ``force_login``) ever names it."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def has_perm(self, user_obj: Any, perm: str, obj: Any = None) -> bool:
        if perm.split(".", 1)[0] in SUPERUSERS_ONLY_APPS:
            raise PermissionDenied
        return False

    def has_module_perms(self, user_obj: Any, app_label: str) -> bool:
        if app_label in SUPERUSERS_ONLY_APPS:
            raise PermissionDenied
        return False
