"""Who keeps a house-rule set, whether a user may revise it, and who hears of each
revision.

A set (every version of one ``family``) has one keeper (docs/security.md, "Who may
change what"):

- the platform: its standard sets (``RuleSet.is_standard``: one current set per
  variant, the text's own rules, the one a game without a rule set is played under)
  and any set without an author (made for the platform in the console, or its
  author's account is gone);
- a club: a set an app above ``games`` claims for a club (moderation's ClubRuleSet);
- a player: every other set, kept by the author of its first version.

Who of the keeper may revise is the permission "games.revise_ruleset", defined with
every other permission in moderation/permissions.py. ``games`` knows nothing of clubs
or the audit log, so moderation registers here, in its AppConfig.ready, a *claim*
(which club keeps a set, for the refusal's words and the audit entry) and a *recorder*
(the audit entry). Every revision goes through ``rule_sets.revise_rule_set``, which asks
``may_revise`` and tells the recorders in the same transaction, so the API and the
console follow one rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import rules  # django-rules, not games.rules

from .models import RuleSet

PLATFORM, CLUB, PLAYER = "platform", "club", "player"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a user may not revise a set: an error code and a sentence."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Keeper:
    """Who keeps a set: ``kind`` (PLATFORM, CLUB or PLAYER) and the refusal everyone
    the permission leaves out gets. ``club`` is the club (an object of the app that
    claimed the set) of a CLUB set, ``author_id`` the author of a PLAYER set."""

    kind: str
    refusal: Refusal
    club: Any = None
    author_id: int | None = None


#: A claim gets a set and answers None (not one of mine) or its Keeper.
Claim = Callable[[RuleSet], Keeper | None]
#: A recorder gets the version revised, the new version, the actor (None: the platform
#: itself, e.g. a command) and the keeper; it runs inside the revision's transaction.
Recorder = Callable[[RuleSet, RuleSet, Any, Keeper], None]

_claims: dict[str, Claim] = {}
_recorders: dict[str, Recorder] = {}


def register_claim(name: str, claim: Claim) -> None:
    """Add (or replace, by name: AppConfig.ready may run twice) a claim."""
    _claims[name] = claim


def register_recorder(name: str, recorder: Recorder) -> None:
    """Add (or replace, by name) a recorder of revisions."""
    _recorders[name] = recorder


PLATFORM_KEEPER = Keeper(
    kind=PLATFORM,
    refusal=Refusal("superusers-only", "Only a superuser can revise the platform's own house-rule sets."),
)


def keeper_of(rule_set: RuleSet) -> Keeper:
    """Who keeps ``rule_set``'s family."""
    if rule_set.is_standard:  # first: no claim or author can take a standard set
        return PLATFORM_KEEPER
    for claim in list(_claims.values()):
        keeper = claim(rule_set)
        if keeper is not None:
            return keeper
    # The author of the first version, not of the one asked about: revisions keep the keeper.
    author_id = (
        RuleSet.objects.filter(family=rule_set.family, version=1).values_list("created_by_id", flat=True).first()
    )
    if author_id is None:
        return PLATFORM_KEEPER
    return Keeper(
        kind=PLAYER,
        refusal=Refusal("not-the-author", "Only the author of a house-rule set can revise it."),
        author_id=author_id,
    )


def may_revise(rule_set: RuleSet, user: Any) -> bool:
    """Whether ``user`` may make a new version of ``rule_set``'s family."""
    # The predicate itself, not user.has_perm: Django lets an active superuser have every
    # permission, and a player's own set is its author's alone.
    return bool(rules.has_perm("games.revise_ruleset", user, rule_set))


def revise_refusal(rule_set: RuleSet, user: Any) -> Refusal | None:
    """None if ``user`` may revise ``rule_set``, else why not."""
    return None if may_revise(rule_set, user) else keeper_of(rule_set).refusal


def revised(before: RuleSet, after: RuleSet, actor: Any, keeper: Keeper) -> None:
    """Tell every recorder of a revision (called by rule_sets.revise_rule_set)."""
    for recorder in list(_recorders.values()):
        recorder(before, after, actor, keeper)
