"""Tournament operations from the console: start a round now, forfeit or adjudicate a
game, withdraw a player. Each checks the actor's club role, calls league's
competition services (under the section's row lock, as they do), and writes the audit
log in the same transaction (docs/moderation.md).

league/competition_services.py has no public forfeit or adjudication service yet, so
those two are written here on top of its scoring helpers (``_score``, ``_after_result``,
``_stop_games``, ``_locked_section``): the same steps its ``withdraw`` takes for a
pairing, so a forfeit here scores exactly as a withdrawal does.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from games.models import Game
from league import competition_services as competitions
from league.models import Entry, Pairing, Round, Section

from .selectors import is_club_moderator, is_organiser
from .services import record


def _reason(reason: str) -> str:
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise ServiceError("reason-required", "This operation needs a reason: it goes into the audit log.")
    return reason


@transaction.atomic
def start_round_now(*, actor: User, round_id: int, reason: str = "", now: datetime | None = None) -> Round:
    """Start a scheduled round at once (pair it and create its games)."""
    round_ = Round.objects.select_related("section__tournament__club").get(pk=round_id)
    club = round_.section.tournament.club
    if not is_organiser(actor, club):
        raise ServiceError("not-an-organiser", "Only the club's organisers can start a round.")
    if round_.status != Round.Status.SCHEDULED:
        raise ServiceError("round-started", f"Round {round_.number} has started already.")
    started = competitions.start_round(section_id=round_.section_id, number=round_.number, now=now, force=True)
    if started is None or started.status == Round.Status.SCHEDULED:
        raise ServiceError("round-not-startable", f"Round {round_.number} cannot start now (the section is over).")
    record(actor=actor, action="round.start-now", target=started, club=club, reason=reason,
           details={"section": started.section_id, "round": started.number})
    return started


#: loser -> (result, first player's points, second player's points)
FORFEITS = {
    "first": (Pairing.Result.SECOND_FORFEIT_WIN, 0.0, 1.0),
    "second": (Pairing.Result.FIRST_FORFEIT_WIN, 1.0, 0.0),
    "both": (Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0),
}
#: result -> (first player's points, second player's points)
ADJUDICATIONS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "draw": (0.5, 0.5)}


def _pairing_for_operation(actor: User, pairing_id: int) -> tuple[Pairing, Section]:
    """The pairing under its section's lock, checked: the actor moderates its club, and
    it has two players and no result yet."""
    found = Pairing.objects.select_related("section__tournament__club").get(pk=pairing_id)
    club = found.section.tournament.club
    if not is_club_moderator(actor, club):
        raise ServiceError("not-a-moderator", "Only the club's organisers and arbiters can do that.")
    section = competitions._locked_section(found.section_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "match", "game").get(
        pk=pairing_id)
    if pairing.is_bye:
        raise ServiceError("bye", "A bye has no game to decide.")
    if pairing.status == Pairing.Status.FINISHED:
        raise ServiceError("already-scored", "This pairing has its result already.")
    return pairing, section


@transaction.atomic
def forfeit(*, actor: User, pairing_id: int, loser: str, reason: str, now: datetime | None = None) -> Pairing:
    """Score a pairing as lost by forfeit by its first player, its second, or both
    (unplayed and unrated, as FIDE counts forfeits), and stop its games: a game not
    begun is aborted, one begun is resigned for the forfeiting player."""
    reason = _reason(reason)
    if loser not in FORFEITS:
        raise ServiceError("bad-loser", "The forfeit is lost by the first player, the second, or both.")
    now = now or timezone.now()
    pairing, section = _pairing_for_operation(actor, pairing_id)
    first, second = pairing.first, pairing.second
    # A forfeit is not rated (FIDE; league's no-show forfeit does the same): games has
    # no forfeit service, so the games are unflagged before the resignation ends them.
    games = Game.objects.filter(match_id=pairing.match_id) if pairing.match_id else Game.objects.filter(
        pk=pairing.game_id)
    games.update(rated=False)
    competitions._stop_games(pairing, second if loser == "second" else first)
    result, first_points, second_points = FORFEITS[loser]
    competitions._score(pairing, result, first_points, second_points, played=False, now=now)
    competitions._after_result(section, pairing.round, now)
    record(actor=actor, action="game.forfeit", target=pairing, club=pairing.section.tournament.club, reason=reason,
           details={"result": result, "first": first.get_username(),
                    "second": second.get_username() if second else None, "loser": loser})
    return pairing


@transaction.atomic
def adjudicate(*, actor: User, pairing_id: int, result: str, reason: str, now: datetime | None = None) -> Pairing:
    """The arbiter decides a pairing's result as played: a win for either player, or a
    draw. A game still in play is resigned for the side adjudicated to lose, so its
    rating follows; a draw can only be adjudicated once no game is in play (a game has
    no draw by decree, and a resignation would rate it as a loss)."""
    reason = _reason(reason)
    if result not in ADJUDICATIONS:
        raise ServiceError("bad-result", 'An adjudicated result is "1-0", "0-1" or "draw".')
    now = now or timezone.now()
    pairing, section = _pairing_for_operation(actor, pairing_id)
    games = list(pairing.match.games.all()) if pairing.match_id else [pairing.game] if pairing.game_id else []
    in_play = [g for g in games if g.status == g.Status.ACTIVE]
    if result == "draw" and in_play:
        raise ServiceError("game-in-play", "A game still in play can be adjudicated a win, not a draw.")
    if in_play:
        competitions._stop_games(pairing, pairing.second if result == "1-0" else pairing.first)
    first_points, second_points = ADJUDICATIONS[result]
    code = {"1-0": Pairing.Result.FIRST_WON, "0-1": Pairing.Result.SECOND_WON, "draw": Pairing.Result.DRAW}[result]
    winner = None if result == "draw" else pairing.first_id if result == "1-0" else pairing.second_id
    competitions._score(pairing, code, first_points, second_points, played=True, now=now, won_over_board=winner)
    competitions._after_result(section, pairing.round, now)
    record(actor=actor, action="game.adjudicate", target=pairing, club=pairing.section.tournament.club,
           reason=reason, details={"result": code})
    return pairing


@transaction.atomic
def correct_result(*, actor: User, pairing_id: int, result: str, reason: str) -> Pairing:
    """Correct a finished single-game pairing of a round robin, Swiss or arena: the
    pairing is scored again, the game's outcome is set to match (so a recompute from the
    game log rates it as corrected: one is queued when the game was rated), and the
    standings are drawn again. A bracket's results stand (who went through is settled),
    and a match's result comes from its games."""
    from league import rating_services

    reason = _reason(reason)
    if result not in ADJUDICATIONS:
        raise ServiceError("bad-result", 'A corrected result is "1-0", "0-1" or "draw".')
    found = Pairing.objects.select_related("section__tournament__club").get(pk=pairing_id)
    club = found.section.tournament.club
    if not is_club_moderator(actor, club):
        raise ServiceError("not-a-moderator", "Only the club's organisers and arbiters can do that.")
    section = competitions._locked_section(found.section_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=pairing_id)
    if pairing.status != Pairing.Status.FINISHED:
        raise ServiceError("no-result-yet", "This pairing has no result to correct yet; adjudicate it instead.")
    if pairing.is_bye:
        raise ServiceError("bye", "A bye has no game to correct.")
    if section.format in competitions.ELIMINATION:
        raise ServiceError("bracket-result", "A bracket's result stands once played: who went through is settled.")
    if pairing.match_id:
        raise ServiceError("match-result", "A match's result comes from its games.")
    before = pairing.result
    first_points, second_points = ADJUDICATIONS[result]
    code = {"1-0": Pairing.Result.FIRST_WON, "0-1": Pairing.Result.SECOND_WON, "draw": Pairing.Result.DRAW}[result]
    winner = None if result == "draw" else pairing.first_id if result == "1-0" else pairing.second_id
    competitions._score(pairing, code, first_points, second_points, played=True,
                        now=pairing.finished_at or timezone.now(), won_over_board=winner)
    game = pairing.game
    if game is not None and game.status == Game.Status.FINISHED:
        # games has no correction service; the outcome is set beside the pairing's so
        # the game log (which ratings are computed from) tells the corrected story.
        seat = None if winner is None else game.seats.get(user_id=winner).number
        Game.objects.filter(pk=game.pk).update(result="draw" if winner is None else "win", winner_seat=seat,
                                               end_reason=f"Result corrected by the arbiter: {reason}"[:200])
        if game.rated:
            rating_services.queue_recompute(requested_by=actor)
    if pairing.round.status == Round.Status.FINISHED:
        competitions._update_standings(section, final=section.status == Section.Status.FINISHED)
    record(actor=actor, action="result.correct", target=pairing, club=club, reason=reason,
           details={"before": before, "after": code, "game": pairing.game_id})
    return pairing


@transaction.atomic
def withdraw_player(*, actor: User, entry_id: int, reason: str, now: datetime | None = None) -> Entry:
    """Withdraw a player from a section (league's withdraw: their game in play is lost by
    forfeit and no later round pairs them)."""
    reason = _reason(reason)
    entry = Entry.objects.select_related("section__tournament__club", "user").get(pk=entry_id)
    club = entry.section.tournament.club
    if not is_club_moderator(actor, club):
        raise ServiceError("not-a-moderator", "Only the club's organisers and arbiters can do that.")
    withdrawn = competitions.withdraw(section=entry.section, user=entry.user, reason=reason, now=now)
    record(actor=actor, action="entry.withdraw", target=withdrawn, club=club, reason=reason,
           details={"user": entry.user.get_username(), "section": entry.section_id})
    return withdrawn
