"""The watch gate moderation registers with games.observing: bans, observer policies
and caps, checked when an observer's socket connects (docs/moderation.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from games.models import Game, Observer
from games.observing import CLOSE_OBSERVERS_FULL, CLOSE_WATCH_REFUSED, WatchRefusal
from league.models import ClubMembership

from .models import ObserverBan, ObserverPolicy, WatchPolicy
from .selectors import GamePlace, is_club_moderator, place_of_game


@dataclass(frozen=True)
class EffectivePolicy:
    """The policy that applies to one game, and where it was set."""

    policy: str
    cap: int | None
    source: str  # "game", "section override", "section", "club" or "default"
    invited_ids: frozenset[int] = field(default_factory=frozenset)


def effective_policy(game: Game, place: GamePlace | None = None) -> EffectivePolicy:
    """The most specific policy set wins, as a whole: the game's own row, then the
    section's moderation row, then the section's own observer policy (a section always
    states one), then the club's row, then anyone with no cap."""
    place = place or place_of_game(game)
    row = ObserverPolicy.objects.filter(game=game).first()
    source = "game"
    if row is None and place.section is not None:
        row, source = ObserverPolicy.objects.filter(section=place.section).first(), "section override"
        if row is None:
            section = place.section
            invited = frozenset(section.invited_observers.values_list("pk", flat=True))
            return EffectivePolicy(policy=section.observer_policy, cap=None, source="section", invited_ids=invited)
    if row is None and place.club is not None:
        row, source = ObserverPolicy.objects.filter(club=place.club).first(), "club"
    if row is None:
        return EffectivePolicy(policy=WatchPolicy.ANYONE, cap=None, source="default")
    invited = frozenset(row.invited.values_list("pk", flat=True))
    return EffectivePolicy(policy=row.policy, cap=row.cap, source=source, invited_ids=invited)


def active_ban(*, user: Any, game: Game, place: GamePlace) -> ObserverBan | None:
    """The newest ban that keeps ``user`` from watching ``game``, if any."""
    scope = Q(game=game)
    if place.section is not None:
        scope |= Q(tournament_id=place.section.tournament_id)
    if place.club is not None:
        scope |= Q(club=place.club)
    return ObserverBan.objects.filter(scope, user=user, lifted_at__isnull=True).order_by("-created_at").first()


def watch_gate(game_id: int, user: Any) -> WatchRefusal | None:
    """games.observing gate: None lets the viewer watch; a refusal closes the socket."""
    game = Game.objects.select_related("rule_set").filter(pk=game_id).first()
    if game is None:
        return None  # the consumer answers no-such-game itself
    place = place_of_game(game)
    signed_in = bool(getattr(user, "is_authenticated", False))
    # The club's moderators (and superusers) always watch: they moderate.
    if signed_in and is_club_moderator(user, place.club):
        return None
    if signed_in:
        ban = active_ban(user=user, game=game, place=place)
        if ban is not None:
            return WatchRefusal("banned", f"You are banned from watching this {_ban_scope(ban)}: {ban.reason}")
    policy = effective_policy(game, place)
    refusal = _policy_refusal(policy, user, signed_in, place)
    if refusal is not None:
        return refusal
    if policy.cap is not None and Observer.objects.filter(game=game).count() >= policy.cap:
        return WatchRefusal(
            "observers-full",
            f"This game has its most observers ({policy.cap}) watching; try again later.",
            CLOSE_OBSERVERS_FULL,
        )
    return None


def _policy_refusal(policy: EffectivePolicy, user: Any, signed_in: bool, place: GamePlace) -> WatchRefusal | None:
    if policy.policy == WatchPolicy.NONE:
        return WatchRefusal("observers-not-allowed", "This game is closed to observers.", CLOSE_WATCH_REFUSED)
    if policy.policy == WatchPolicy.ANYONE:
        return None
    if not signed_in:
        return WatchRefusal("sign-in-to-watch", "Sign in to watch this game.", CLOSE_WATCH_REFUSED)
    if policy.policy == WatchPolicy.MEMBERS:
        member = place.club is not None and ClubMembership.objects.filter(club=place.club, user=user).exists()
        if not member:
            return WatchRefusal("members-only", "Only members of the club may watch this game.", CLOSE_WATCH_REFUSED)
    if policy.policy == WatchPolicy.INVITED and user.pk not in policy.invited_ids:
        return WatchRefusal("invited-only", "Only invited observers may watch this game.", CLOSE_WATCH_REFUSED)
    return None


def _ban_scope(ban: ObserverBan) -> str:
    if ban.game_id:
        return "game"
    if ban.tournament_id:
        return "tournament"
    return "club's games"
