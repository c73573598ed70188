"""Who keeps a house-rule set, who may revise it, and who hears of each revision.

A set (every version of one ``family``) has one keeper (docs/security.md, "Who may
change what"):

- the platform: its standard sets (``RuleSet.is_standard``: one current set per
  variant, the text's own rules, the one a game without a rule set is played under)
  and any set without an author (made for the platform in the console, or its
  author's account is gone): superusers only;
- a club: a set an app above ``games`` claims for a club (moderation's ClubRuleSet):
  that app decides who (the club's organisers);
- a player: every other set, kept by the author of its first version: that player only.

``games`` knows nothing of clubs or the audit log, so moderation registers a *claim*
(which club keeps a set) and a *recorder* (the audit entry) here in its
AppConfig.ready, as it does the watch gates of games/observing.py. Every revision goes
through ``services.revise_rule_set``, which asks ``revise_refusal`` and tells the
recorders in the same transaction, so the API and the console follow one rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .models import RuleSet

PLATFORM, CLUB, PLAYER = "platform", "club", "player"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a user may not revise a set: an error code and a sentence."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Keeper:
    """Who keeps a set: ``kind`` (PLATFORM, CLUB or PLAYER), who of them may revise
    it, and the refusal everyone else gets. ``club`` is the club (an object of the app
    that claimed the set), for the audit log; None for the others."""

    kind: str
    may_revise: Callable[[Any], bool]
    refusal: Refusal
    club: Any = None


#: A claim gets a set and answers None (not one of mine) or its Keeper.
Claim = Callable[["RuleSet"], Keeper | None]
#: A recorder gets the version revised, the new version, the actor (None: the platform
#: itself, e.g. a command) and the keeper; it runs inside the revision's transaction.
Recorder = Callable[["RuleSet", "RuleSet", Any, Keeper], None]

_claims: dict[str, Claim] = {}
_recorders: dict[str, Recorder] = {}


def register_claim(name: str, claim: Claim) -> None:
    """Add (or replace, by name: AppConfig.ready may run twice) a claim."""
    _claims[name] = claim


def register_recorder(name: str, recorder: Recorder) -> None:
    """Add (or replace, by name) a recorder of revisions."""
    _recorders[name] = recorder


def is_superuser(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_superuser)


PLATFORM_KEEPER = Keeper(
    kind=PLATFORM,
    may_revise=is_superuser,
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
        may_revise=lambda user: bool(
            getattr(user, "is_authenticated", False) and user.is_active and user.pk == author_id
        ),
        refusal=Refusal("not-the-author", "Only the author of a house-rule set can revise it."),
    )


def revise_refusal(rule_set: RuleSet, user: Any) -> Refusal | None:
    """None if ``user`` may revise ``rule_set``, else why not."""
    keeper = keeper_of(rule_set)
    return None if keeper.may_revise(user) else keeper.refusal


def may_revise(rule_set: RuleSet, user: Any) -> bool:
    return revise_refusal(rule_set, user) is None


def revised(before: RuleSet, after: RuleSet, actor: Any, keeper: Keeper) -> None:
    """Tell every recorder of a revision (called by services.revise_rule_set)."""
    for recorder in list(_recorders.values()):
        recorder(before, after, actor, keeper)
