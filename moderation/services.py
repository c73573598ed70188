"""Writes for moderation: the only code that changes moderation's rows, and the
entry point every moderation action and tournament operation goes through to be
audited (``record``). Each service checks that the actor moderates the club concerned,
so a crafted request cannot reach another club's objects."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import Group, Permission
from django.db import models, transaction
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from accounts.notices import Kind, notify
from games import observing as game_observing
from games import rule_sets as game_rule_sets
from games.models import Game, Observer, RuleSet
from games.observing import kick_message
from games.ownership import Keeper
from league.models import ORGANISER_ROLES, Club, ClubMembership, Section, Tournament

from .models import (
    BAN_SCOPE_REFUSAL,
    OBSERVER_CAP_LEAST,
    OBSERVER_CAP_MOST,
    OBSERVER_CAP_REFUSAL,
    POLICY_SCOPE_REFUSAL,
    AuditEntry,
    ClubRuleSet,
    ConsoleAccess,
    ObserverBan,
    ObserverPolicy,
    WatchPolicy,
)
from .permissions import CONSOLE_ROLES
from .selectors import games_of, place_of_game

logger = logging.getLogger(__name__)

# -- the audit log -------------------------------------------------------------------


def record(
    *,
    actor: User | None,
    action: str,
    target: models.Model,
    club: Club | None = None,
    reason: str = "",
    details: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """Write one audit entry: who (``actor``; None for the system), what (``action``, a
    short slug such as "observer.ban"), on what (``target``), in which club, and why."""
    if not action or len(action) > 48:
        raise ServiceError("bad-audit-action", "An audit action is a short name of at most 48 characters.")
    return AuditEntry.objects.create(
        actor=actor if actor is not None and actor.is_authenticated else None,
        actor_name=actor.get_username() if actor is not None and actor.is_authenticated else "",
        action=action,
        club=club,
        target_type=target._meta.label_lower,
        target_id=str(target.pk or ""),
        target_repr=str(target)[:200],
        reason=reason,
        details=dict(details or {}),
    )


def _require_reason(reason: Any, what: str) -> str:
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise ServiceError("reason-required", f"{what} needs a reason: it goes into the audit log.")
    return reason


def require_moderator(actor: User, club: Club | None) -> None:
    """Refuse unless ``actor`` moderates ``club`` (None: a game of no club)."""
    if not actor.has_perm("league.moderate_club", club):
        raise ServiceError("not-a-moderator", "Only the club's organisers and arbiters can do that.")


def require_organiser(actor: User, club: Club | None, what: str = "do that") -> None:
    """Refuse unless ``actor`` organises ``club`` (None: the platform's, superusers)."""
    if not actor.has_perm("league.organise_club", club):
        raise ServiceError("not-organiser", f"Only the club's organisers can {what}.")


# -- house-rule sets ---------------------------------------------------------------------


@transaction.atomic
def save_house_rules(
    *, actor: User, fields: Mapping[str, Any], rule_set: RuleSet | None = None, club: Club | None = None
) -> RuleSet:
    """Create a house-rule set (``rule_set`` None) or save a new version of one.

    A new set belongs to ``club`` (None: the platform's, superusers only); a revision
    stays with the club that owns the family. The engine validates the options; its
    message comes back as a ServiceError and nothing is saved.
    """
    if rule_set is not None:
        # games checks the keeper (games/ownership.py) and the audit entry comes from
        # record_rule_set_revision, as for a revision through the API.
        return game_rule_sets.revise_rule_set(rule_set=rule_set, created_by=actor, **fields)
    require_organiser(actor, club)
    # No author: a set without a club is the platform's (superusers), not its creator's.
    saved = game_rule_sets.create_rule_set(created_by=actor if club is not None else None, **fields)
    if club is not None:
        ClubRuleSet.objects.create(family=saved.family, club=club)
    record(actor=actor, action="rules.create", target=saved, club=club, details=_rule_details(saved))
    return saved


def _rule_details(rule_set: RuleSet) -> dict[str, Any]:
    return {"variant": rule_set.variant, "version": rule_set.version, "options": rule_set.options}


def record_rule_set_revision(before: RuleSet, after: RuleSet, actor: User | None, keeper: Keeper) -> None:
    """games/ownership.py's recorder: every revision of a house-rule set, whoever keeps
    it and wherever it was made (API, console, command), goes into the audit log."""
    record(actor=actor, action="rules.revise", target=after, club=keeper.club,
           details={**_rule_details(after), "kept_by": keeper.kind, "previous": before.pk})


# -- observer policies -----------------------------------------------------------------


def _policy_club(*, club: Club | None, section: Section | None, game: Game | None) -> Club | None:
    if sum(x is not None for x in (club, section, game)) != 1:
        raise ServiceError("bad-scope", POLICY_SCOPE_REFUSAL)
    if club is not None:
        return club
    if section is not None:
        return section.tournament.club
    assert game is not None
    return place_of_game(game).club


@transaction.atomic
def set_observer_policy(
    *,
    actor: User,
    policy: str,
    cap: int | None = None,
    invited: Iterable[User] = (),
    club: Club | None = None,
    section: Section | None = None,
    game: Game | None = None,
) -> ObserverPolicy:
    """Set who may watch (and how many at once) for a club, a section or a game.
    Viewers already watching stay; the policy decides at connect (kick to remove)."""
    owner = _policy_club(club=club, section=section, game=game)
    require_organiser(actor, owner)
    if policy not in WatchPolicy.values:
        raise ServiceError("bad-policy", f"An observer policy is one of: {', '.join(WatchPolicy.values)}.")
    invited = list(invited)
    if invited and policy != WatchPolicy.INVITED:
        # The list is read only by "invited": kept beside another policy, it looked in
        # force and was not (an outside probe saved "anyone" with an invited user).
        raise ServiceError("bad-invited", f"Only the policy “{WatchPolicy.INVITED.label}” has invited users: "
                                          f"clear the list, or choose that policy.")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int)
                            or not OBSERVER_CAP_LEAST <= cap <= OBSERVER_CAP_MOST):
        raise ServiceError("bad-cap", OBSERVER_CAP_REFUSAL)
    row = ObserverPolicy.objects.select_for_update().filter(club=club, section=section, game=game).first()
    if row is None:
        row = ObserverPolicy(club=club, section=section, game=game)
    row.policy, row.cap, row.updated_by = policy, cap, actor
    row.save()
    row.invited.set(invited)
    record(actor=actor, action="observers.policy", target=row, club=owner,
           details={"policy": policy, "cap": cap, "invited": sorted(u.pk for u in row.invited.all())})
    return row


@transaction.atomic
def remove_observer_policy(*, actor: User, policy: ObserverPolicy) -> None:
    """Drop a policy: the next less specific one applies again."""
    owner = _policy_club(club=policy.club, section=policy.section, game=policy.game)
    require_organiser(actor, owner)
    record(actor=actor, action="observers.policy-removed", target=policy, club=owner)
    policy.delete()


# -- kicks and bans ----------------------------------------------------------------------


def _close_sockets(channel_names: list[str], message: str, code: str) -> None:
    """After commit: close each socket at once through the channel layer."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        for name in channel_names:
            async_to_sync(layer.send)(name, kick_message(code=code, message=message))
    except Exception as exc:  # Redis down: the ban or kick is stored all the same
        logger.warning("could not close %d socket(s) (%s): %r", len(channel_names), code, exc)


def _remove_observers(observers: Iterable[Observer], message: str, code: str) -> list[str]:
    """Forget the rows now (a dead socket's row goes too) and close the sockets after commit."""
    names = []
    for observer in observers:
        game_observing.observer_left(channel_name=observer.channel_name)
        names.append(observer.channel_name)
    transaction.on_commit(lambda: _close_sockets(names, message, code))
    return names


@transaction.atomic
def kick_observer(*, actor: User, observer: Observer, reason: str) -> None:
    """Close one observer's socket now. They may connect again unless banned or the
    policy refuses them: a kick clears a socket, a ban keeps someone out."""
    reason = _require_reason(reason, "A kick")
    club = place_of_game(observer.game).club
    require_moderator(actor, club)
    record(actor=actor, action="observer.kick", target=observer.game, club=club, reason=reason,
           details={"observer": observer.user.get_username() if observer.user else "guest",
                    "channel": observer.channel_name})
    _remove_observers([observer], f"A moderator removed you from this game: {reason}", "kicked")
    if observer.user_id is not None:
        notify(recipient=observer.user_id, kind=Kind.MODERATION, cause=f"observer-kick:{observer.pk}",
               message=f"A moderator removed you from watching game {observer.game_id}: {reason}",
               url=f"/play/{observer.game_id}/", game=observer.game_id, action="observer.kick")


BAN_SCOPES = ("game", "tournament", "club")


@transaction.atomic
def ban_observer(*, actor: User, user: User | None, game: Game, scope: str, reason: str) -> ObserverBan:
    """Ban ``user`` from watching ``game``, its tournament or its club's games, and
    close their sockets there at once."""
    if user is None:
        raise ServiceError("guest-not-bannable",
                           "A guest has no account to ban: kick them, or set the policy to signed-in users.")
    place = place_of_game(game)
    if scope == "game":
        return ban_user(actor=actor, user=user, game=game, reason=reason)
    if scope == "tournament":
        if place.section is None:
            raise ServiceError("no-tournament", "This game is not part of a tournament.")
        return ban_user(actor=actor, user=user, tournament=place.section.tournament, reason=reason)
    if scope == "club":
        if place.club is None:
            raise ServiceError("no-club", "This game belongs to no club (it is played under the platform's rules).")
        return ban_user(actor=actor, user=user, club=place.club, reason=reason)
    raise ServiceError("bad-scope", f"A ban is from one of: {', '.join(BAN_SCOPES)}.")


@transaction.atomic
def ban_user(
    *,
    actor: User,
    user: User,
    reason: str,
    club: Club | None = None,
    tournament: Tournament | None = None,
    game: Game | None = None,
) -> ObserverBan:
    """Keep ``user`` from watching one game, one tournament or every game of a club."""
    reason = _require_reason(reason, "A ban")
    if sum(x is not None for x in (club, tournament, game)) != 1:
        raise ServiceError("bad-scope", BAN_SCOPE_REFUSAL)
    owner = _club_of_scope(club, tournament, game)
    require_moderator(actor, owner)
    if owner is not None and user.has_perm("league.moderate_club", owner):
        raise ServiceError("cannot-ban-moderator", "The club's own organisers and arbiters cannot be banned here.")
    # One ban in force per person and scope: a form saved twice (a double click) made two,
    # and lifting one left the viewer refused by the other. The user's row is locked so
    # that two saves at once find each other's.
    User.objects.select_for_update().filter(pk=user.pk).exists()
    standing = ObserverBan.objects.filter(user=user, club=club, tournament=tournament, game=game,
                                          lifted_at__isnull=True).first()
    if standing is not None:
        raise ServiceError("already-banned", f"{user.get_username()} is already banned from watching "
                                             f"{standing.scope_label}: {standing.reason}")
    ban = ObserverBan.objects.create(user=user, club=club, tournament=tournament, game=game, reason=reason,
                                     banned_by=actor)
    record(actor=actor, action="observer.ban", target=ban, club=owner, reason=reason,
           details={"user": user.get_username(), "scope": ban.scope_label})
    _remove_observers(_watching_in_scope(ban), f"You are banned from watching: {reason}", "banned")
    notify(recipient=user, kind=Kind.MODERATION, cause=f"observer-ban:{ban.pk}",
           message=f"You are banned from watching {ban.scope_label}: {reason}", action="observer.ban", ban=ban.pk)
    return ban


def _club_of_scope(club: Club | None, tournament: Tournament | None, game: Game | None) -> Club | None:
    """The club a ban's one scope (a club, a tournament or a game) belongs to."""
    if club is not None:
        return club
    if tournament is not None:
        return tournament.club
    assert game is not None  # exactly one scope: the callers and a check constraint hold it
    return place_of_game(game).club


def _watching_in_scope(ban: ObserverBan) -> list[Observer]:
    rows = Observer.objects.select_for_update(of=("self",)).filter(user=ban.user)
    if ban.game_id:
        rows = rows.filter(game_id=ban.game_id)
    elif ban.tournament_id:
        rows = rows.filter(models.Q(game__pairing__section__tournament_id=ban.tournament_id)
                           | models.Q(game__match__pairing__section__tournament_id=ban.tournament_id))
    else:
        assert ban.club_id is not None  # a ban has exactly one scope
        rows = rows.filter(game__in=games_of(Club.objects.filter(pk=ban.club_id)).values("pk"))
    return list(rows)


@transaction.atomic
def lift_ban(*, actor: User, ban: ObserverBan, reason: str = "") -> ObserverBan:
    ban = ObserverBan.objects.select_for_update().get(pk=ban.pk)
    owner = _club_of_scope(ban.club, ban.tournament, ban.game)
    require_moderator(actor, owner)
    if ban.lifted_at is not None:
        raise ServiceError("already-lifted", "This ban was lifted already.")
    ban.lifted_at, ban.lifted_by = timezone.now(), actor
    ban.save(update_fields=["lifted_at", "lifted_by"])
    record(actor=actor, action="observer.unban", target=ban, club=owner, reason=reason,
           details={"user": ban.user.get_username(), "scope": ban.scope_label})
    notify(recipient=ban.user_id, kind=Kind.MODERATION, cause=f"observer-unban:{ban.pk}",
           message=f"Your ban from watching {ban.scope_label} was lifted.", action="observer.unban", ban=ban.pk)
    return ban


# -- console access ------------------------------------------------------------------------

ORGANISERS_GROUP = "Club organisers"
ARBITERS_GROUP = "Club arbiters"

#: What each group may do in the admin; the querysets then narrow it to their clubs.
_GROUP_PERMISSIONS = {
    ORGANISERS_GROUP: [
        "games.view_ruleset", "games.add_ruleset", "games.change_ruleset",
        "games.view_game", "games.view_observer", "games.change_observer",
        "moderation.view_observerpolicy", "moderation.add_observerpolicy",
        "moderation.change_observerpolicy", "moderation.delete_observerpolicy",
        "moderation.view_observerban", "moderation.add_observerban", "moderation.change_observerban",
        "moderation.view_auditentry",
        "league.view_tournament", "league.view_section", "league.change_section", "league.view_round",
        "league.change_round",
        "league.view_pairing", "league.change_pairing", "league.view_entry", "league.change_entry",
    ],
    ARBITERS_GROUP: [
        "games.view_ruleset", "games.view_game", "games.view_observer", "games.change_observer",
        "moderation.view_observerpolicy",
        "moderation.view_observerban", "moderation.add_observerban", "moderation.change_observerban",
        "moderation.view_auditentry",
        "league.view_tournament", "league.view_section", "league.view_round",
        "league.view_pairing", "league.change_pairing", "league.view_entry", "league.change_entry",
    ],
}


def console_group(name: str) -> Group:
    """The group with its permissions, created or brought up to date."""
    group, _ = Group.objects.get_or_create(name=name)
    wanted = []
    for label in _GROUP_PERMISSIONS[name]:
        app_label, codename = label.split(".")
        wanted.append(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    group.permissions.set(wanted)
    return group


@transaction.atomic
def sync_console_access(*, user: User) -> bool:
    """Give or take the admin console after a club role changes; True if they have it.

    An owner or organiser of any club joins "Club organisers", an arbiter "Club
    arbiters", and gets staff status; losing every such role takes back what this
    service gave (a staff member made by hand stays staff). Superusers are left alone.
    """
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.is_superuser:
        return True
    roles = set(ClubMembership.objects.filter(user=user, role__in=CONSOLE_ROLES).values_list("role", flat=True))
    organiser, arbiter = console_group(ORGANISERS_GROUP), console_group(ARBITERS_GROUP)
    wants_organiser = bool(roles & set(ORGANISER_ROLES))
    wants_arbiter = ClubMembership.Role.ARBITER in roles
    for group, wanted in ((organiser, wants_organiser), (arbiter, wants_arbiter)):
        if wanted:
            user.groups.add(group)
        else:
            user.groups.remove(group)
    granted = ConsoleAccess.objects.filter(user=user).first()
    if roles and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        ConsoleAccess.objects.get_or_create(user=user)
        record(actor=None, action="console.grant", target=user, details={"roles": sorted(roles)})
    elif not roles and granted is not None:
        user.is_staff = False
        user.save(update_fields=["is_staff"])
        granted.delete()
        record(actor=None, action="console.revoke", target=user)
    return user.is_staff
