"""Results: a finished game scores its pairing (a drawn elimination game is replayed), a
no-show is forfeited, and the section moves on as its format says; standings, prizes and
the end of a section and of its tournament; a tournament rated as one period."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts import age
from games import services as game_services
from games.models import Game, Match
from games.rules import match as match_rules
from games.rules.variants.t_tic_t_tac_toe.match import TTTMatch
from league.competitions import selectors
from league.formats.matches import pairing_points
from league.models import Pairing, Prize, Round, Section, Standing, Tournament
from league.ratings import services as rating_services

from .arena_pause import pause_forfeiters
from .formats import Next, format_of
from .notices import broadcast_section, notify_players, notify_section_finished
from .pairings import SEED_DECIDED, create_games, pairing_for_game, score
from .scheduling import next_round_time, queue_arena_pairing, schedule_round, send_task
from .sections import locked_section
from .stages import after_stage


@transaction.atomic
def record_game_result(*, game_id: int, now: datetime | None = None) -> Pairing | None:
    """Score the pairing a finished game (or the last game of a match) belongs to, and
    move the section on. Idempotent: a scored pairing is left as it is."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id).select_related("match").first()
    if game is None or game.status != Game.Status.FINISHED:
        return None
    found = pairing_for_game(game)
    if found is None:
        return None
    section = locked_section(found.section_id)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "match").get(pk=found.pk)
    if pairing.status == Pairing.Status.FINISHED:
        return pairing
    match = pairing.match  # selected with the pairing
    if match is not None:
        if match.status != Match.Status.FINISHED:
            return None
        value = TTTMatch.load(match.state) if match.kind == Match.Kind.OFFICIAL else \
            match_rules.MatchState.load(match.state)
        first_points, second_points = pairing_points(value)
        played = match.games.filter(ply__gt=0).exists()
    else:
        if game.winner_seat is None:
            first_points = second_points = 0.5
        else:
            winner = game.seats.get(number=game.winner_seat).user_id
            first_points, second_points = (1.0, 0.0) if winner == pairing.first_id else (0.0, 1.0)
        played = game.ply > 0  # no move at all: a no-show, scored as a forfeit
        if not played and game.winner_seat is not None and "resigned" in game.end_reason:
            # The same forfeit, but its words say what happened (the game page says "resigned").
            resigner = game.seats.exclude(number=game.winner_seat).select_related("user").first()
            if resigner is not None and resigner.user is not None:
                pairing.flags = [*pairing.flags, f"{resigner.user.username} {Pairing.RESIGNED_UNPLAYED}"]
                pairing.save(update_fields=["flags"])
        elif not played and game.on_first_step and "show" in game.end_reason:
            # The games' clock ended the no-show grace before the league's sweep did (an
            # arena's short games, mostly): the same flag as forfeit_no_show's, or the
            # pairing read as a bare forfeit ("did not show up", "Neither player showed up.").
            absent = game.seats.select_related("user").order_by("number")
            if game.winner_seat is not None:
                absent = absent.exclude(number=game.winner_seat)
            pairing.flags = [*pairing.flags, *(f"{seat.user.username} {Pairing.NO_SHOW}"
                                               for seat in absent if seat.user is not None)]
            pairing.save(update_fields=["flags"])
    replays = format_of(section).drawn_game_replays
    if replays is not None and first_points == second_points and played:
        if _replay_drawn(section, pairing, replays):
            return pairing
        assert pairing.second_id is not None  # a drawn game: two players, not a bye
        seed = dict(section.entries.values_list("user_id", "seed"))
        first_seed, second_seed = seed[pairing.first_id], seed[pairing.second_id]
        assert first_seed is not None and second_seed is not None  # seeded at round 1 (late entries: on entry)
        first_points, second_points = (1.0, 0.0) if first_seed < second_seed else (0.0, 1.0)
        pairing.flags = [*pairing.flags, SEED_DECIDED]
        pairing.save(update_fields=["flags"])
    if played:
        result = (Pairing.Result.DRAW if first_points == second_points
                  else Pairing.Result.FIRST_WON if first_points > second_points else Pairing.Result.SECOND_WON)
    elif first_points == second_points:
        result, first_points, second_points = Pairing.Result.DOUBLE_FORFEIT, 0.0, 0.0
    else:
        result = Pairing.Result.FIRST_FORFEIT_WIN if first_points > second_points else \
            Pairing.Result.SECOND_FORFEIT_WIN
    winner_id = None if first_points == second_points or SEED_DECIDED in pairing.flags else (
        pairing.first_id if first_points > second_points else pairing.second_id)  # the seed won no game
    score(pairing, result, first_points, second_points, played=played, now=now, won_over_board=winner_id)
    after_result(section, pairing.round, now, scored=pairing)
    return pairing


def _replay_drawn(section: Section, pairing: Pairing, most: int) -> bool:
    """A drawn game of a format that replays draws (elimination) is played again with
    the first move swapped, up to ``most`` times. True if a replay was created."""
    replays = sum(1 for flag in pairing.flags if flag.startswith("drawn, replayed"))
    if replays >= most:
        return False
    old = f"game {pairing.game_id}" if pairing.game_id else f"match {pairing.match_id}"
    pairing.flags = [*pairing.flags, f"drawn, replayed ({old})"]
    assert pairing.second_id is not None  # a drawn game: two players, not a bye
    pairing.first_id, pairing.second_id = pairing.second_id, pairing.first_id
    pairing.game, pairing.match = None, None
    pairing.save(update_fields=["flags", "first", "second", "game", "match"])
    create_games(section, pairing)
    notify_players(section, pairing.round, [pairing],
                   again=f"a new {old.split()[0]} after the drawn one, the first move swapped")
    return True


def after_result(section: Section, round_: Round, now: datetime, *, scored: Pairing | None = None) -> None:
    """Move the section on after a result (or a round paired with byes and forfeits):
    the table counts it at once; close the round when its last pairing is scored; then,
    as the format says, the next round (or the end), or a pairing wave. The section's
    pages hear of the ``scored`` pairing's result."""
    if scored is not None:
        broadcast_section(section, {"event": "result", "round": round_.number, "board": scored.board})
        if format_of(section).timed:  # an arena pairs nobody who did not show until they are back
            pause_forfeiters(section, scored, now)
    update_standings(section, final=False)
    round_over = round_.status == Round.Status.IN_PLAY and not round_.pairings.exclude(
        status=Pairing.Status.FINISHED).exists()
    if round_over:
        round_.status, round_.finished_at = Round.Status.FINISHED, now
        round_.save(update_fields=["status", "finished_at"])
    step = format_of(section).after_result(section, round_, now, round_over=round_over)
    if step is Next.PAIR_FREE:
        queue_arena_pairing(section.pk)
    elif step is Next.FINISH:
        finish_section(section, now)
    elif step in (Next.NEXT_ROUND, Next.LAST_ROUND):
        if step is Next.NEXT_ROUND:
            number = round_.number + 1
            schedule_round(section, number, next_round_time(section, number, round_, now))
        else:
            finish_section(section, now)
        broadcast_section(section, {"event": "round-finished", "round": round_.number})


def update_standings(section: Section, *, final: bool) -> list[Standing]:
    """The section's table, ranked by its format, with each player's game counts, from
    the one computation of its results (selectors.section_results). Rewritten with
    every result, so the table, the crosstable, the bracket, exports and the API agree."""
    stats = selectors.section_results(section).stats
    rows = [
        Standing(section=section, user_id=r.user_id, rank=r.rank, points=r.points, tiebreaks=r.tiebreaks,
                 final=final, **stats.get(r.user_id, {}))
        for r in format_of(section).rank(section, stats)
    ]
    Standing.objects.filter(section=section).delete()
    Standing.objects.bulk_create(rows)
    return rows


def finish_section(section: Section, now: datetime) -> None:
    if section.status == Section.Status.FINISHED:
        return
    section.status, section.finished_at = Section.Status.FINISHED, now
    section.save(update_fields=["status", "finished_at"])
    table = update_standings(section, final=True)
    _award_prizes(section, table, now)
    notify_section_finished(section)
    after_stage(section)  # a multi-stage event: the next stage takes the top players
    broadcast_section(section, {"event": "section-finished"})
    finish_tournament_if_done(section.tournament, now)


def _award_prizes(section: Section, table: list[Standing], now: datetime) -> None:
    """Place prize N goes to the player placed N (players sharing a place: the higher
    seed first). Then age and rating prizes, in order, each to the N-th best-placed
    player who fits and has no prize yet: one prize per player."""
    entries = {e.user_id: e for e in section.entries.select_related("user__profile")}
    ordered = [s.user_id for s in sorted(table, key=lambda s: (s.rank, entries[s.user_id].seed or 10**6))]
    year = selectors.age_group_year(section)
    awarded: set[int] = set()

    def fits(prize: Prize, user_id: int) -> bool:
        entry = entries[user_id]
        if prize.kind == Prize.Kind.AGE:
            born = getattr(entry.user.profile, "date_of_birth", None)
            return born is not None and not age.age_group_refusal(
                born, season_year=year, under=prize.age_under, over=prize.age_over)
        if prize.kind == Prize.Kind.RATING:
            return prize.rating_below is None or (entry.rating is None or entry.rating < prize.rating_below)
        return True

    for prize in selectors.prizes_in_order(section):
        if prize.kind == Prize.Kind.PLACE:
            winner = ordered[prize.place - 1] if prize.place <= len(ordered) else None
        else:
            candidates = [u for u in ordered if u not in awarded and fits(prize, u)]
            winner = candidates[prize.place - 1] if prize.place <= len(candidates) else None
        if winner is not None and winner not in awarded:
            prize.winner_id, prize.awarded_at = winner, now
            prize.save(update_fields=["winner", "awarded_at"])
            awarded.add(winner)


def finish_tournament_if_done(tournament: Tournament, now: datetime) -> None:
    if tournament.sections.exclude(status__in=[Section.Status.FINISHED, Section.Status.CANCELLED]).exists():
        return
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED, finished_at=now)
    if tournament.rating_period == Tournament.RatingPeriod.TOURNAMENT:
        tournament_id = tournament.pk
        transaction.on_commit(lambda: send_task("league.rate_tournament", tournament_id))


def tournament_games(tournament: Tournament) -> Iterable[Game]:
    pairings = Pairing.objects.filter(section__tournament=tournament, section__rated=True)
    return Game.objects.filter(Q(pk__in=pairings.values("game_id")) | Q(match_id__in=pairings.values("match_id")))


def rate_tournament(*, tournament_id: int) -> int:
    """Rate a finished tournament's games as one period (rating_services.rate_period)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    return rating_services.rate_period(list(tournament_games(tournament)), key=tournament.rating_period_key,
                                       name=tournament.name)


@transaction.atomic
def forfeit_no_show(*, pairing_id: int, now: datetime | None = None) -> Pairing | None:
    """A player who has not made a single move of their game a grace period (the rule
    set's ``no_show_seconds``) after their turn came loses it by forfeit (unplayed, as
    FIDE counts a game lost without playing). Single-game pairings; the games' own
    clock sweep already ends a game whose first move never comes."""
    now = now or timezone.now()
    found = Pairing.objects.filter(pk=pairing_id).values_list("section_id", flat=True).first()
    if found is None:
        return None
    section = locked_section(found)
    pairing = Pairing.objects.select_for_update(of=("self",)).select_related("round", "game").get(pk=pairing_id)
    game = pairing.game
    if pairing.status != Pairing.Status.IN_PLAY or game is None or game.status != Game.Status.ACTIVE:
        return None
    if section.paused_at is not None or game.turn_started_at is None:
        return None  # a paused section forfeits nobody
    # After a resume the grace counts again from the resume.
    waiting_since = max(game.turn_started_at, section.resumed_at or game.turn_started_at)
    if now < waiting_since + timedelta(seconds=section.rule_set.no_show_seconds):
        return None
    to_move = [seat for seat in game.seats.select_related("user") if seat.number in game.to_move and seat.user_id]
    absent = [seat for seat in to_move if not game.moves.filter(seat=seat.number).exists()]
    if len(absent) != 1:
        return None
    no_show = absent[0].user
    assert no_show is not None  # to_move holds seated people only
    # A forfeit is not rated (FIDE).
    game_services.forfeit(game_id=game.pk, seat=absent[0].number, rated=False,
                          reason=f"Player {absent[0].number + 1} did not show up: lost by forfeit.")
    first_lost = no_show.pk == pairing.first_id
    score(pairing, Pairing.Result.SECOND_FORFEIT_WIN if first_lost else Pairing.Result.FIRST_FORFEIT_WIN,
           0.0 if first_lost else 1.0, 1.0 if first_lost else 0.0, played=False, now=now)
    pairing.flags = [*pairing.flags, f"{no_show.username} {Pairing.NO_SHOW}"]
    pairing.save(update_fields=["flags"])
    after_result(section, pairing.round, now, scored=pairing)
    return pairing
