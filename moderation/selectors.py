"""Reads for moderation: where a game belongs, which club keeps a house-rule set, what a
moderator may see. Writes are in services.py; who moderates what is in permissions.py."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from games.models import Game, Observer, RuleSet
from games.ownership import CLUB, Keeper, Refusal
from league.models import Club, Section

from .models import AuditEntry, ClubRuleSet, ObserverBan, ObserverPolicy


@dataclass(frozen=True)
class GamePlace:
    """Where a game belongs: its tournament section (if paired in one) and its club."""

    club: Club | None
    section: Section | None


def place_of_game(game: Game) -> GamePlace:
    """A tournament game belongs to its section's club; any other game to the club that
    owns its house-rule set; a game under the platform's rules to no club."""
    section = (
        Section.objects.select_related("tournament__club")
        .filter(Q(pairings__game=game) | (Q(pairings__match_id=game.match_id) if game.match_id else Q(pk__in=[])))
        .first()
    )
    if section is not None:
        return GamePlace(club=section.tournament.club, section=section)
    owner = ClubRuleSet.objects.select_related("club").filter(family=game.rule_set.family).first()
    return GamePlace(club=owner.club if owner else None, section=None)


def club_of_rule_set(rule_set: RuleSet) -> Club | None:
    owner = ClubRuleSet.objects.select_related("club").filter(family=rule_set.family).first()
    return owner.club if owner else None


def claim_rule_set(rule_set: RuleSet) -> Keeper | None:
    """games/ownership.py's claim: a club's set is kept by that club (its organisers:
    moderation/permissions.py)."""
    club = club_of_rule_set(rule_set)
    if club is None:
        return None
    return Keeper(
        kind=CLUB,
        refusal=Refusal("not-organiser", f"Only the organisers of {club} can revise this house-rule set."),
        club=club,
    )


# -- what a moderator sees (the admin's querysets) -------------------------------------


def rule_sets_of(clubs: QuerySet[Club]) -> QuerySet[RuleSet]:
    families = ClubRuleSet.objects.filter(club__in=clubs).values("family")
    return RuleSet.objects.filter(family__in=families)


def games_of(clubs: QuerySet[Club]) -> QuerySet[Game]:
    families = ClubRuleSet.objects.filter(club__in=clubs).values("family")
    return Game.objects.filter(
        Q(rule_set__family__in=families)
        | Q(pairing__section__tournament__club__in=clubs)
        | Q(match__pairing__section__tournament__club__in=clubs)
    ).distinct()


def observers_of(clubs: QuerySet[Club]) -> QuerySet[Observer]:
    return Observer.objects.filter(game__in=games_of(clubs).values("pk"))


def policies_of(clubs: QuerySet[Club]) -> QuerySet[ObserverPolicy]:
    return ObserverPolicy.objects.filter(
        Q(club__in=clubs) | Q(section__tournament__club__in=clubs) | Q(game__in=games_of(clubs).values("pk"))
    )


def bans_of(clubs: QuerySet[Club]) -> QuerySet[ObserverBan]:
    return ObserverBan.objects.filter(
        Q(club__in=clubs) | Q(tournament__club__in=clubs) | Q(game__in=games_of(clubs).values("pk"))
    )


def audit_of(clubs: QuerySet[Club]) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(club__in=clubs)


def watchers(game: Game) -> QuerySet[Observer]:
    """Who is watching ``game`` now: one row per open socket, oldest first."""
    return Observer.objects.filter(game=game).select_related("user").order_by("joined_at", "pk")
