"""An organiser's or arbiter's decisions (moderation's console calls these): forfeit or
adjudicate a pairing, correct a result, pause and resume a section, pair a round again."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import User
from games import services as game_services
from games.models import Game, Match
from league.models import Pairing, Round, Section
from league.ratings import services as rating_services

from . import refusals, unpairable
from .formats import format_of
from .notices import broadcast_section, notify_result_corrected
from .pairings import games_of, score, stop_games
from .results import after_result, finish_section, update_standings
from .rounds import boards_for, pair_and_play
from .scheduling import cancel_task, queue_arena_pairing, send_task
from .sections import locked_section

#: loser -> (result, first player's points, second player's points)
FORFEITS = {
    "first": (Pairing.Result.SECOND_FORFEIT_WIN, 0.0, 1.0),
    "second": (Pairing.Result.FIRST_FORFEIT_WIN, 1.0, 0.0),
    "both": (Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0),
}


#: "1-0" / "0-1" / "draw" -> (result code, first player's points, second player's points)
DECISIONS = {
    "1-0": (Pairing.Result.FIRST_WON, 1.0, 0.0),
    "0-1": (Pairing.Result.SECOND_WON, 0.0, 1.0),
    "draw": (Pairing.Result.DRAW, 0.5, 0.5),
}


def _section_of_pairing(pairing_id: int) -> Section:
    found = Pairing.objects.filter(pk=pairing_id).values_list("section_id", flat=True).first()
    if found is None:
        raise ServiceError("no-such-pairing", "There is no such pairing.")
    return locked_section(found)


def _open_pairing(pairing_id: int) -> tuple[Pairing, Section]:
    """The pairing under its section's lock: two players and no result yet."""
    section = _section_of_pairing(pairing_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "match", "game").get(
        pk=pairing_id)
    if pairing.is_bye:
        raise ServiceError("bye", "A bye has no game to decide.")
    if pairing.status == Pairing.Status.FINISHED:
        raise ServiceError("already-scored", "This pairing has its result already.")
    return pairing, section


@transaction.atomic
def forfeit_pairing(*, pairing_id: int, loser: str, reason: str = "", now: datetime | None = None) -> Pairing:
    """Score a pairing as lost by forfeit by its "first" player, its "second", or "both"
    (unplayed and unrated, as FIDE counts forfeits), and stop its games: a game not
    begun is aborted, one begun is lost by forfeit (unrated) by the forfeiting player."""
    if loser not in FORFEITS:
        raise ServiceError("bad-loser", "The forfeit is lost by the first player, the second, or both.")
    now = now or timezone.now()
    pairing, section = _open_pairing(pairing_id)
    if loser == "both" and (refusal := refusals.tie_refusal(pairing)) is not None:
        raise ServiceError(*refusal)
    forfeiting = pairing.second if loser == "second" else pairing.first
    assert forfeiting is not None  # _open_pairing refuses a bye: two players
    stop_games(pairing, forfeiting, rated=False,
                reason=f"{forfeiting.username} lost by forfeit" + (f": {reason}" if reason else "."))
    result, first_points, second_points = FORFEITS[loser]
    score(pairing, result, first_points, second_points, played=False, now=now)
    after_result(section, pairing.round, now, scored=pairing)
    return pairing


@transaction.atomic
def adjudicate_pairing(*, pairing_id: int, result: str, reason: str = "", now: datetime | None = None) -> Pairing:
    """The arbiter decides a pairing as played: "1-0", "0-1" or "draw". A game still in
    play is lost by the side adjudicated to lose (rated as the game is, so the rating
    follows the decision); a draw only once no game is in play (a game has no draw by
    decree, and ending it as a loss would rate it as one)."""
    if result not in DECISIONS:
        raise ServiceError("bad-result", 'An adjudicated result is "1-0", "0-1" or "draw".')
    now = now or timezone.now()
    pairing, section = _open_pairing(pairing_id)
    if result == "draw" and (refusal := refusals.tie_refusal(pairing)) is not None:
        raise ServiceError(*refusal)
    games = games_of(pairing)
    in_play = [g for g in games if g.status == Game.Status.ACTIVE]
    if result == "draw" and in_play:
        raise ServiceError("game-in-play", "A game still in play can be adjudicated a win, not a draw.")
    if in_play:
        loser = pairing.second if result == "1-0" else pairing.first
        assert loser is not None  # _open_pairing refuses a bye: two players
        stop_games(pairing, loser, rated=None,
                    reason=f"Adjudicated by the arbiter: {loser.username} loses" + (f" ({reason})" if reason else "."))
    code, first_points, second_points = DECISIONS[result]
    winner = None if result == "draw" else pairing.first_id if result == "1-0" else pairing.second_id
    score(pairing, code, first_points, second_points, played=True, now=now, won_over_board=winner)
    after_result(section, pairing.round, now, scored=pairing)
    return pairing


@transaction.atomic
def correct_result(*, pairing_id: int, result: str, reason: str, requested_by: User | None = None) -> Pairing:
    """Correct a finished single-game pairing of a round robin, Swiss or arena: scored
    again, the game's outcome corrected through games (a rating recompute from the game
    log is queued when the game was rated), the standings drawn again. Later rounds keep
    their pairings. A bracket's results stand (who went through is settled) and a
    match's result comes from its games."""
    if result not in DECISIONS:
        raise ServiceError("bad-result", 'A corrected result is "1-0", "0-1" or "draw".')
    if not (reason or "").strip():
        raise ServiceError("reason-required", "A correction needs a reason.")
    section = _section_of_pairing(pairing_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game", "first", "second").get(pk=pairing_id)
    pairing.section = section
    if (refusal := refusals.correction_refusal(pairing)) is not None:
        raise ServiceError(*refusal)
    finished = section.status == Section.Status.FINISHED
    before = {user_id: (rank, points) for user_id, rank, points in
              section.standings.values_list("user_id", "rank", "points")} if finished else {}
    code, first_points, second_points = DECISIONS[result]
    winner = None if result == "draw" else pairing.first_id if result == "1-0" else pairing.second_id
    score(pairing, code, first_points, second_points, played=True,
           now=pairing.finished_at or timezone.now(), won_over_board=winner)
    game = pairing.game
    if game is not None and game.status == Game.Status.FINISHED:
        seat = None if winner is None else game.seats.get(user_id=winner).number
        game_services.correct_result(game_id=game.pk, winner_seat=seat, reason=reason)
        if game.rated:
            rating_services.queue_recompute(requested_by=requested_by)
    update_standings(section, final=finished)  # a result counts at once
    if finished:  # the "is over" notices named the old places
        notify_result_corrected(section, pairing, before, reason, at=timezone.now().timestamp())
    broadcast_section(section, {"event": "result", "round": pairing.round.number, "board": pairing.board})
    return pairing


@transaction.atomic
def pause_section(*, section_id: int, now: datetime | None = None) -> Section:
    """Pause a running (or not yet started) section: no round starts, no arena wave is
    paired and nobody is forfeited for not showing up until it is resumed. Games in play
    go on with their clocks, and their results count."""
    now = now or timezone.now()
    section = locked_section(section_id)
    refusal = refusals.pause_refusal(section)
    if refusal is not None:
        raise ServiceError(*refusal)
    section.paused_at = now
    section.save(update_fields=["paused_at"])
    broadcast_section(section, {"event": "paused"})
    return section


@transaction.atomic
def resume_section(*, section_id: int, now: datetime | None = None) -> Section:
    """Resume a paused section: a round due meanwhile starts now (after commit; beat's
    sweep would start it too), an arena pairs whoever is free, and the no-show grace of
    games in play counts again from now."""
    now = now or timezone.now()
    section = locked_section(section_id)
    refusal = refusals.resume_refusal(section)
    if refusal is not None:
        raise ServiceError(*refusal)
    section.paused_at, section.resumed_at = None, now
    section.save(update_fields=["paused_at", "resumed_at"])
    section_id = section.pk
    if format_of(section).timed and section.status == Section.Status.RUNNING:
        queue_arena_pairing(section_id)  # whoever is free is paired
    for number in section.round_set.filter(status=Round.Status.SCHEDULED, starts_at__lte=now + timedelta(seconds=1)
                                           ).values_list("number", flat=True):
        transaction.on_commit(functools.partial(send_task, "league.start_round", section_id, number))
    broadcast_section(section, {"event": "resumed"})
    return section


#: Results an arbiter decided or a game produced: a round holding one is under way.
_DECIDED = (Pairing.Result.FIRST_WON, Pairing.Result.SECOND_WON, Pairing.Result.DRAW)


@transaction.atomic
def repair_round(*, round_id: int, now: datetime | None = None) -> Round:
    """Pair the current round again while it has not really started: no game of it has
    a move and no result was decided over the board (byes and forfeits are made again).
    Its games are aborted, its pairings deleted, and league/formats pairs it afresh from
    the entries as they are now (withdrawn players left out, late entrants in); the
    players are told their new boards. Not for an arena (it pairs whoever is free)."""
    now = now or timezone.now()
    found = Round.objects.filter(pk=round_id).values_list("section_id", flat=True).first()
    if found is None:
        raise ServiceError("no-such-round", "There is no such round.")
    section = locked_section(found)
    round_ = Round.objects.select_for_update().get(pk=round_id)
    refusal = format_of(section).repair_refusal
    if refusal is not None:
        raise ServiceError(*refusal)
    if section.paused_at is not None:
        raise ServiceError("paused", "This section is paused: resume it first.")
    if round_.status == Round.Status.SCHEDULED:
        raise ServiceError("not-paired", f"Round {round_.number} is not paired yet: it is paired when it starts.")
    if round_.status != Round.Status.IN_PLAY or section.status != Section.Status.RUNNING:
        raise ServiceError("round-over", f"Round {round_.number} is over: its results stand.")
    pairings = list(round_.pairings.select_for_update(of=("self",)).select_related("first", "match", "game"))
    games = Game.objects.filter(Q(pk__in=[p.game_id for p in pairings if p.game_id])
                                | Q(match_id__in=[p.match_id for p in pairings if p.match_id]))
    if games.filter(ply__gt=0).exists() or any(p.result in _DECIDED for p in pairings):
        raise ServiceError("round-under-way",
                           f"Round {round_.number} is under way (a game has a move or a result): it cannot be paired again.")
    for pairing in pairings:
        for game in games_of(pairing):
            if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
                game_services.call_off(game_id=game.pk, reason=f"Round {round_.number} is paired again.")
        if pairing.match_id:
            Match.objects.filter(pk=pairing.match_id, status=Match.Status.ACTIVE).update(status=Match.Status.ABORTED)
    round_.pairings.all().delete()  # their PairingPlayer rows go with them
    round_.status = Round.Status.PAIRING
    round_.save(update_fields=["status"])
    try:
        boards = boards_for(section, round_, now)
    except unpairable.UNPAIRABLE:  # raised: everything above is rolled back
        raise ServiceError("unpairable", unpairable.round_words(section, round_)) from None
    pair_and_play(section, round_, now, boards=boards)
    return round_


@transaction.atomic
def end_section_early(*, section_id: int, now: datetime | None = None) -> Section:
    """End a section whose next round cannot be paired after its last completed round:
    the rounds not started are deleted (and their beat tasks), the standings after that
    round are final (prizes, the "is over" notices, the next stage), and the section says
    why it ended early (``Section.ended_early``, on its page and in the notices)."""
    now = now or timezone.now()
    section = locked_section(section_id)
    refusal = refusals.end_early_refusal(section)
    if refusal is not None:
        raise ServiceError(*refusal)
    stuck = section.round_set.filter(status=Round.Status.SCHEDULED).exclude(unpairable="").order_by("number").first()
    assert stuck is not None  # end_early_refusal refuses a section without one
    last, planned = section.current_round, section.total_rounds or stuck.number
    for round_ in section.round_set.filter(status=Round.Status.SCHEDULED).select_related("start_task"):
        if round_.start_task is not None:
            cancel_task(round_.start_task.name)
        round_.delete()
    section.total_rounds = last
    section.ended_early = (f"Ended after round {last} of {planned}: round {stuck.number} could not be paired "
                           f"(no pairing keeps FIDE's rules), so the standings after round {last} are final.")
    section.save(update_fields=["total_rounds", "ended_early"])
    finish_section(section, now)
    return section
