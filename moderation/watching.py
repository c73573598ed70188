"""The watch gate moderation registers with games.observing: bans, observer policies
and caps, checked when an observer's socket connects (docs/moderation.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from accounts import sql
from games.models import Game
from games.observing import CLOSE_OBSERVERS_FULL, CLOSE_WATCH_REFUSED, WatchRefusal, cap_reached
from league.models import ClubMembership, Pairing, Section, Tournament

from .models import ClubRuleSet, ObserverBan, ObserverPolicy, WatchPolicy


@dataclass(frozen=True)
class EffectivePolicy:
    """The policy that applies to one game, and where it was set."""

    policy: str
    cap: int | None
    source: str  # "game", "section override", "section", "club" or "default"
    invited_ids: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class WatchPlace:
    """Where a game belongs (as ``selectors.place_of_game`` decides), in the ids the
    gate needs: it runs on every observer's connect, so one query, no model rows."""

    section_id: int | None
    section_policy: str | None  # the section's own observer policy
    tournament_id: int | None
    club_id: int | None


def watch_place(game: Game) -> WatchPlace:
    """A tournament game's section and club, else the club owning its house-rule set."""
    family = ClubRuleSet._meta.get_field("family").get_db_prep_value(game.rule_set.family, connection)
    with connection.cursor() as cursor:
        # Hand-written (docs/benchmarks-live.md): the tournament pairing first, if any.
        cursor.execute(
            f"SELECT s.id, s.observer_policy, s.tournament_id, t.club_id, 0 AS rank"
            f" FROM {sql.table(Pairing)} p JOIN {sql.table(Section)} s ON s.id = p.section_id"
            f" JOIN {sql.table(Tournament)} t ON t.id = s.tournament_id"
            f" WHERE p.game_id = %s OR p.match_id = %s"
            f" UNION ALL SELECT NULL, NULL, NULL, c.club_id, 1 FROM {sql.table(ClubRuleSet)} c WHERE c.family = %s"
            f" ORDER BY rank LIMIT 1",
            [game.pk, game.match_id, family],
        )
        row = cursor.fetchone()
    if row is None:
        return WatchPlace(None, None, None, None)
    return WatchPlace(*row[:4])


def effective_policy(game: Game, place: WatchPlace | None = None, *, with_invited: bool = True) -> EffectivePolicy:
    """The most specific policy set wins, as a whole: the game's own row, then the
    section's moderation row, then the section's own observer policy (a section always
    states one, so its club's row never reaches a tournament game), then the club's
    row, then anyone with no cap. One query for the rows; the invited list only under
    the "invited" policy, and only ``with_invited`` (no one anonymous is ever invited)."""
    place = place or watch_place(game)
    rows = {_source_of(row): row for row in _policy_rows(game.pk, place)}
    row = rows.get("game") or rows.get("section override")
    if row is None and place.section_id is not None:
        invited: frozenset[int] = frozenset()
        if with_invited and place.section_policy == WatchPolicy.INVITED:
            through = Section.invited_observers.through.objects.filter(section_id=place.section_id)
            invited = frozenset(through.values_list("user_id", flat=True))
        return EffectivePolicy(policy=place.section_policy or WatchPolicy.ANYONE, cap=None, source="section",
                               invited_ids=invited)
    row = row or rows.get("club")
    if row is None:
        return EffectivePolicy(policy=WatchPolicy.ANYONE, cap=None, source="default")
    invited = frozenset()
    if with_invited and row.policy == WatchPolicy.INVITED:
        invited = frozenset(row.invited.values_list("pk", flat=True))
    return EffectivePolicy(policy=row.policy, cap=row.cap, source=_source_of(row), invited_ids=invited)


_POLICY = (sql.Shape(ObserverPolicy, "o"),)


def _policy_rows(game_id: int, place: WatchPlace) -> list[ObserverPolicy]:
    """The policy rows that could apply: the game's own, and its section's, or else its
    club's. Hand-written, as ``watch_place``: the ORM's query compiler cost more than
    the query on every observer's connect."""
    scopes, params = ["o.game_id = %s"], [game_id]
    if place.section_id is not None:
        scopes.append("o.section_id = %s")
        params.append(place.section_id)
    elif place.club_id is not None:
        scopes.append("o.club_id = %s")
        params.append(place.club_id)
    statement = f"SELECT {sql.select(_POLICY)} FROM {sql.table(ObserverPolicy)} o WHERE {' OR '.join(scopes)}"
    return [row for (row,) in sql.fetch(statement, params, _POLICY)]


def _source_of(row: ObserverPolicy) -> str:
    if row.game_id:
        return "game"
    return "section override" if row.section_id else "club"


_BAN = (sql.Shape(ObserverBan, "b"),)


def active_ban(*, user: Any, game: Game, place: WatchPlace) -> ObserverBan | None:
    """The newest ban that keeps ``user`` from watching ``game``, if any. Hand-written, as
    ``watch_place``: every signed-in observer's page and connect asks it, and the ORM's
    query cost 0.9 ms of CPU there, this one 0.18 (docs/benchmarks-live.md, fifteenth round)."""
    scopes, params = ["b.game_id = %s"], [game.pk]
    if place.tournament_id is not None:
        scopes.append("b.tournament_id = %s")
        params.append(place.tournament_id)
    if place.club_id is not None:
        scopes.append("b.club_id = %s")
        params.append(place.club_id)
    statement = (f"SELECT {sql.select(_BAN)} FROM {sql.table(ObserverBan)} b WHERE b.user_id = %s"
                 f" AND b.lifted_at IS NULL AND ({' OR '.join(scopes)}) ORDER BY b.created_at DESC, b.id DESC LIMIT 1")
    rows = sql.fetch(statement, [user.pk, *params], _BAN)
    return rows[0][0] if rows else None


def watch_gate(game: Game, user: Any, viewer: str | None = None) -> WatchRefusal | None:
    """games.observing gate: None lets the viewer watch; a refusal closes the socket.
    For anyone not signed in (most observers) two queries: the place, the policy rows.
    ``viewer``: the socket's viewer key, for the cap (None: an HTTP read, never capped)."""
    place = watch_place(game)
    refusal = _refusal(game, user, place, viewer)
    # The club's moderators (and superusers) always watch: they moderate. Asked only to
    # overrule a refusal, so a viewer let in anyway costs no query for it.
    if refusal is not None and user.has_perm("league.moderate_club", place.club_id):
        return None
    return refusal


def _refusal(game: Game, user: Any, place: WatchPlace, viewer: str | None) -> WatchRefusal | None:
    """The ban, the policy or the cap that keeps ``user`` out, whoever they are."""
    signed_in = bool(getattr(user, "is_authenticated", False))
    if signed_in:
        ban = active_ban(user=user, game=game, place=place)
        if ban is not None:
            return WatchRefusal("banned", f"You are banned from watching this {_ban_scope(ban)}: {ban.reason}")
    policy = effective_policy(game, place, with_invited=signed_in)
    refusal = _policy_refusal(policy, user, signed_in, place)
    if refusal is not None:
        return refusal
    if policy.cap is not None and viewer is not None and cap_reached(game_id=game.pk, cap=policy.cap, viewer=viewer):
        return WatchRefusal(
            "observers-full",
            f"This game has its most observers ({policy.cap}) watching; try again later.",
            CLOSE_OBSERVERS_FULL,
        )
    return None


def _policy_refusal(policy: EffectivePolicy, user: Any, signed_in: bool, place: WatchPlace) -> WatchRefusal | None:
    if policy.policy == WatchPolicy.NONE:
        return WatchRefusal("observers-not-allowed", "This game is closed to observers.", CLOSE_WATCH_REFUSED)
    if policy.policy == WatchPolicy.ANYONE:
        return None
    if not signed_in:
        return WatchRefusal("sign-in-to-watch", "Sign in to watch this game.", CLOSE_WATCH_REFUSED)
    if policy.policy == WatchPolicy.MEMBERS:
        member = place.club_id is not None and ClubMembership.objects.filter(club_id=place.club_id, user=user).exists()
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
