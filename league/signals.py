"""Listeners, connected in LeagueConfig.ready: a finished rated game is queued for
rating, and a finished tournament game for scoring, once its commit is done; the
rematch gate that keeps tournament games from rematches; and the voucher that lets a
child's club-mates reach them."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts import dispatch
from accounts.models import User
from games.models import Game

from .models import ORGANISER_ROLES, ClubMembership, Pairing
from .tasks import rate_game, record_game_result


def on_game_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
    # games sends this after its commit already; on_commit still guards a sender that
    # fires inside a transaction (the task must never see an uncommitted game).
    if not Game.objects.filter(pk=game_id, rated=True).exists():
        return
    dispatch.enqueue_on_commit(rate_game.name, game_id)


def on_game_finished_for_competitions(sender: Any, game_id: int, **kwargs: Any) -> None:
    """A tournament game ended: score its pairing (and move the round on) in a task."""
    match_id = Game.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    pairings = Pairing.objects.filter(match_id=match_id) if match_id else Pairing.objects.filter(game_id=game_id)
    if pairings.exists():
        dispatch.enqueue_on_commit(record_game_result.name, game_id)


def share_a_club(viewer: User, person: User) -> bool:
    """A voucher (accounts.players.register_voucher): a child may be reached by the members
    of a club they belong to."""
    return ClubMembership.objects.filter(user=viewer.pk, club__memberships__user=person.pk).exists()


def organises_a_club(user: User) -> bool:
    """An audience (accounts.notices.register_audience) for "Your club's events": the
    notices of a club's owners and organisers."""
    return ClubMembership.objects.filter(user=user.pk, role__in=ORGANISER_ROLES).exists()


def _competition_game(game: Game) -> bool:
    by_match = Q(match_id=game.match_id) if game.match_id else Q(pk__in=[])
    return Pairing.objects.filter(Q(game_id=game.pk) | by_match).exists()


def no_rematch_for_competition_games(game: Game) -> str | None:
    """A rematch gate (games.services.register_gate): a tournament's pairing decides who
    plays whom next, not a rematch."""
    if _competition_game(game):
        return "Tournament games have no rematch: the next round pairs the players."
    return None


def no_abort_for_competition_games(game: Game) -> str | None:
    """An abort gate: a tournament's game (or match) stands as paired. An abort once made
    a new game with a new draw of who moves first, as often as a player liked, and
    reset the no-show grace; an aborted match left its pairing in play for good."""
    if _competition_game(game):
        return ("A tournament game cannot be aborted: the pairing stands. Play it or resign it; "
                "a player who does not move in time loses it as a no-show.")
    return None
