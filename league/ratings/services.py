"""Writes for ratings: with league/ratings/recompute.py, the only code that changes
Rating, RatingChange, RatingAdjustment.

Three ways in, one engine (league/ratings/periods.py):
* ``rate_game`` (the Celery task ``league.rate_game``): live ratings, one game a period,
  exactly once, in the order games ended;
* ``rate_period``: a tournament's games as one period, applied at its end;
* ``recompute.recompute_all``: every rating again from the game log (command and
  admin action, queued here by ``queue_recompute``).

All of them hold the RatingLedger row lock while they write, so they never interleave.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts import dispatch
from accounts.errors import ServiceError
from accounts.models import User
from games import boards as game_boards
from games import realtime as game_realtime
from games.models import Game
from league.models import (
    LEAGUE_LIST,
    Club,
    Pairing,
    PeriodGame,
    Rating,
    RatingAdjustment,
    RatingChange,
    RatingLedger,
    RatingPeriod,
    RecomputeRun,
    club_list_key,
)

from . import periods
from .periods import Entry, PlayerState

#: The league's system ("elo" or "glicko2") and Glicko-2's tau; clubs choose their own.
LEAGUE_SYSTEM: str = getattr(settings, "LEAGUE_RATING_SYSTEM", periods.ELO)
GLICKO2_TAU: float = getattr(settings, "GLICKO2_TAU", 0.5)

ListSpec = tuple[str, int | None, str]  # (list_key, club id, system)


# -- the lock and what is waiting -------------------------------------------------


def lock_ledger() -> RatingLedger:
    """The one RatingLedger row, locked until the caller's transaction ends."""
    RatingLedger.objects.get_or_create(pk=1)
    return RatingLedger.objects.select_for_update().get(pk=1)


def _in_a_period() -> Exists:
    """The game, or an earlier game of its match, belongs to a tournament period: a
    match's later games are created by games/ and follow its first into the period."""
    return Exists(PeriodGame.objects.filter(Q(game=OuterRef("pk")) | Q(game__match_id=OuterRef("match_id"))))


def rateable(games: QuerySet[Game]) -> QuerySet[Game]:
    """Of ``games``, those a rating counts: finished, rated (a forfeit is not: games'
    ``forfeit`` and its clock's no-show end unrate the game, as FIDE rates no forfeits),
    between two people (AI games are never rated), and not a tournament pairing's game
    that ended with no move (the league scores that as a forfeit, whatever ended it).
    The one definition: live ratings and tournament periods use it, the recompute's SQL
    (``recompute._GAMES_SQL``) has the same conditions."""
    return (
        games.filter(status=Game.Status.FINISHED, rated=True, finished_at__isnull=False)
        .exclude(Q(ply=0) & Exists(Pairing.objects.filter(game=OuterRef("pk"))))
        .annotate(humans=Count("seats", filter=Q(seats__user__isnull=False)))
        .filter(humans=2)
    )


def rateable_games() -> QuerySet[Game]:
    """Rateable games outside any tournament period, in the order they ended."""
    return rateable(Game.objects.exclude(_in_a_period())).order_by("finished_at", "id")


#: How far back a task looks for earlier games still unrated. Each game's own task
#: rates it whatever its age; the window only bounds the catch-up scan, so a task does
#: not read the whole game log (a game older than this was already rated, or its own
#: task is still on its way: it would then be rated out of order, by its own task).
CATCH_UP_WINDOW = timedelta(days=1)


def pending_games(up_to: Game | None = None) -> QuerySet[Game]:
    """Rateable games with no rating change yet, ending no later than ``up_to`` (and no
    more than CATCH_UP_WINDOW before it; ``up_to`` itself always)."""
    games = rateable_games().exclude(Exists(RatingChange.objects.filter(game=OuterRef("pk"))))
    if up_to is not None and up_to.finished_at is not None:
        games = games.filter(
            Q(pk=up_to.pk)
            | Q(finished_at__gte=up_to.finished_at - CATCH_UP_WINDOW, finished_at__lt=up_to.finished_at)
            | Q(finished_at=up_to.finished_at, id__lt=up_to.id)
        )
    return games


# -- live ratings -------------------------------------------------------------------


def rate_game(*, game_id: int) -> int:
    """Rate ``game_id`` and every earlier finished game still unrated, oldest first.

    Idempotent: a game that already has its rating changes is skipped, and the unique
    (game, player, list) constraint stops a second application if anything slipped
    past the lock. Returns how many games this call rated.
    """
    with transaction.atomic():
        ledger = lock_ledger()
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.FINISHED:
            return 0
        rated = []
        for pending in pending_games(up_to=game).select_related(None):
            _apply_periods(ledger, [pending], period=f"game-{pending.pk}")
            rated.append(pending.pk)
        ledger.save(update_fields=["last_sequence"])
        # The finished games' pages show the changes as soon as they are stored: an
        # update pushes every open page its board again, rating line included.
        transaction.on_commit(functools.partial(_announce_rated, rated))
        return len(rated)


def _announce_rated(game_ids: list[int]) -> None:
    for game_id in game_ids:
        game_realtime.send_to_game(game_id, game_boards.update_message(game_id))


#: A finished game unrated this long, or a recompute still queued: its task was lost.
LOST_TASK_SECONDS = 30


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """What a lost rating task left (Celery beat, league.ratings_sweep): the newest
    finished game still unrated (rating it rates every earlier one, rate_game), and
    recomputes still queued, queued again (should the first task arrive after all, the
    run is done twice, one after the other under the ledger lock: the same ratings)."""
    cutoff = (now or timezone.now()) - timedelta(seconds=LOST_TASK_SECONDS)
    done = {"rated": 0, "recomputes": 0}
    newest = pending_games().filter(finished_at__lt=cutoff).order_by("-finished_at", "-id").first()
    if newest is not None:
        done["rated"] = rate_game(game_id=newest.pk)
    for run_id in RecomputeRun.objects.filter(status=RecomputeRun.Status.QUEUED, created_at__lt=cutoff).values_list(
            "pk", flat=True):
        done["recomputes"] += dispatch.enqueue("league.recompute_ratings", run_id)
    return done


# -- tournament periods ---------------------------------------------------------------


def defer_to_period(*, games: Iterable[Game], key: str, name: str = "") -> RatingPeriod:
    """Keep ``games`` out of live rating: their tournament rates them as one period
    (``rate_period``). Call it when the games are created, before they can end; the
    later games of a match follow its first game. Refused, changing nothing, for a
    game already rated live or already in another period."""
    with transaction.atomic():
        lock_ledger()  # a rating task must not rate these games while they are linked
        ids = {game.pk for game in games}
        if RatingChange.objects.filter(game_id__in=ids).exists():
            raise ServiceError("already-rated", "A game rated on its own cannot join a tournament's rating period.")
        elsewhere = PeriodGame.objects.filter(game_id__in=ids).exclude(period__key=key)
        if elsewhere.exists():
            raise ServiceError("in-another-period", "A game belongs to one tournament's rating period only.")
        return _link_to_period(ids, key=key, name=name)


def _link_to_period(game_ids: Iterable[int], *, key: str, name: str) -> RatingPeriod:
    period, _ = RatingPeriod.objects.get_or_create(key=key, defaults={"name": name})
    linked = set(PeriodGame.objects.filter(game_id__in=set(game_ids)).values_list("game_id", flat=True))
    PeriodGame.objects.bulk_create([PeriodGame(game_id=pk, period=period) for pk in set(game_ids) - linked])
    return period


def rate_period(games: Iterable[Game], *, key: str, name: str = "") -> int:
    """Rate ``games`` (and the other games of their matches) as one period, a
    tournament: every game with the ratings from before the period, the changes
    applied now, at its end. Idempotent per (game, player, list).

    Games that are not rateable (``rateable``: unfinished, unrated, a forfeit, not
    between two people), or already rated
    (live, or by another period) are left out. Returns how many games were rated.
    """
    with transaction.atomic():
        ledger = lock_ledger()
        games = list(games)
        matches = {g.match_id for g in games if g.match_id}
        ids = {g.pk for g in games} | set(Game.objects.filter(match_id__in=matches).values_list("pk", flat=True))
        other = set(PeriodGame.objects.filter(game_id__in=ids).exclude(period__key=key).values_list("game_id", flat=True))
        rated_live = set(RatingChange.objects.filter(game_id__in=ids).exclude(period=key).values_list("game_id", flat=True))
        ids -= other | rated_live
        period = _link_to_period(ids, key=key, name=name)
        todo = list(
            rateable(Game.objects.filter(pk__in=ids))
            .exclude(Exists(RatingChange.objects.filter(game=OuterRef("pk")))).order_by("finished_at", "id")
        )
        _apply_periods(ledger, todo, period=key)
        if period.applied_at is None:
            period.applied_at = timezone.now()
            period.save(update_fields=["applied_at"])
        ledger.save(update_fields=["last_sequence"])
        return len(todo)


# -- applying a period to the stored ratings ------------------------------------------


@dataclass(frozen=True)
class _GameFacts:
    game_id: int
    variant: str
    white: int  # seat 0's user id
    black: int
    score: float  # seat 0's score
    finished_at: datetime


def _facts(game: Game) -> _GameFacts:
    seats = {seat.number: seat.user_id for seat in game.seats.all()}
    white, black = seats[0], seats[1]
    # A rateable game (rateable_games, rate_period's filter): finished, two people seated.
    assert white is not None and black is not None and game.finished_at is not None
    score = 0.5 if game.winner_seat is None else (1.0 if game.winner_seat == 0 else 0.0)
    return _GameFacts(game.pk, game.variant, white, black, score, game.finished_at)


def lists_for(a: int, b: int) -> list[ListSpec]:
    """The league's list, and each club list both players are members of."""
    clubs = Club.objects.filter(own_rating_list=True, memberships__user_id=a).filter(memberships__user_id=b)
    return [(LEAGUE_LIST, None, LEAGUE_SYSTEM)] + [(club_list_key(c.pk), c.pk, c.rating_system) for c in clubs]


def _junior_years(user_ids: Iterable[int]) -> dict[int, int]:
    """The last year each user counts as a FIDE junior (the year of the 18th birthday)."""
    return {
        pk: born.year + 18
        for pk, born in User.objects.filter(pk__in=set(user_ids), profile__date_of_birth__isnull=False)
        .values_list("pk", "profile__date_of_birth")
        if born is not None  # always, by the filter: for the type
    }


def _junior_in(last_junior_years: dict[int, int], year: int, user_id: int) -> bool:
    """Whether FIDE's junior K applies to ``user_id`` in ``year`` (see _junior_years)."""
    return last_junior_years.get(user_id, 0) >= year


def _state_of(row: Rating) -> PlayerState:
    return PlayerState(
        row.system, row.rating, row.rd, row.volatility, row.games, row.established, row.reached_2400,
        [tuple(pair) for pair in row.initial_results],
    )


def _apply_periods(ledger: RatingLedger, games: Sequence[Game], *, period: str) -> None:
    """Rate ``games`` as one period in every list they count for, and store it."""
    if not games:
        return
    facts = [_facts(g) for g in games]
    juniors = _junior_years([f.white for f in facts] + [f.black for f in facts])
    # (list, variant) -> the games of this period in it
    groups: dict[tuple[ListSpec, str], list[_GameFacts]] = {}
    for fact in facts:
        for spec in lists_for(fact.white, fact.black):
            groups.setdefault((spec, fact.variant), []).append(fact)
    finished = {f.game_id: f.finished_at for f in facts}
    for (spec, variant), its_games in groups.items():
        list_key, club_id, system = spec
        players = {f.white for f in its_games} | {f.black for f in its_games}
        rows = {r.user_id: r for r in Rating.objects.select_for_update().filter(
            list_key=list_key, variant=variant, user_id__in=players)}
        states: dict[int, PlayerState] = {pk: _state_of(row) for pk, row in rows.items()}
        year = max(f.finished_at for f in its_games).year
        entries = periods.rate_period(
            states, [(f.game_id, f.white, f.black, f.score) for f in its_games], system=system, tau=GLICKO2_TAU,
            junior=functools.partial(_junior_in, juniors, year),
        )
        changes = []
        for entry in entries:
            ledger.last_sequence += 1
            changes.append(_change_row(entry, variant, list_key, system, period, finished[entry.game],
                                       ledger.last_sequence))
        RatingChange.objects.bulk_create(changes)
        for pk in players:
            row = rows.get(pk) or Rating(user_id=pk, variant=variant, list_key=list_key, club_id=club_id)
            copy_state(row, states[pk], system)
            row.save()


def _change_row(entry: Entry[int, int], variant: str, list_key: str, system: str, period: str,
                finished_at: datetime, sequence: int) -> RatingChange:
    return RatingChange(
        game_id=entry.game, user_id=entry.player, opponent_id=entry.opponent, variant=variant,
        list_key=list_key, system=system, period=period, opponent_rating=entry.opponent_rating,
        score=entry.score, k=entry.k, rating_before=entry.rating_before, rating_after=entry.rating_after,
        rd_before=entry.rd_before, rd_after=entry.rd_after, volatility_before=entry.volatility_before,
        volatility_after=entry.volatility_after, provisional=entry.provisional, finished_at=finished_at,
        sequence=sequence,
    )


def copy_state(row: Rating, state: PlayerState, system: str) -> None:
    """Store the engine's ``state`` on a Rating row (not saved)."""
    row.system = system
    row.rating, row.rd, row.volatility = state.rating, state.rd, state.volatility
    row.games, row.established, row.reached_2400 = state.games, state.established, state.reached_2400
    row.initial_results = [list(pair) for pair in state.initial_results]
    row.provisional = state.provisional


# -- manual adjustments ---------------------------------------------------------------


def adjust_rating(*, rating: Rating, new_rating: float, reason: str, made_by: User | None) -> RatingAdjustment:
    """Set a rating by hand. The reason is required and the change kept in the audit log;
    a recompute re-applies it at the same point of the log."""
    if not reason or not reason.strip():
        raise ServiceError("reason-required", "A manual adjustment needs a reason.")
    with transaction.atomic():
        lock_ledger()
        row = Rating.objects.select_for_update().get(pk=rating.pk)
        adjustment = RatingAdjustment.objects.create(
            user_id=row.user_id, variant=row.variant, list_key=row.list_key, rating_before=row.rating,
            rating_after=float(new_rating), reason=reason.strip(), made_by=made_by,
        )
        row.rating = float(new_rating)
        row.save(update_fields=["rating", "updated_at"])
        return adjustment


# -- a full recompute: queued here, run by league/ratings/recompute.py --------------------


def queue_recompute(*, requested_by: User | None) -> RecomputeRun:
    """A RecomputeRun row and its Celery task (sent after commit)."""
    run = RecomputeRun.objects.create(requested_by=requested_by)
    # By its registered name: league/tasks.py calls this package. Not queued (broker
    # down): league.ratings_sweep queues a run left waiting.
    dispatch.enqueue_on_commit("league.recompute_ratings", run.pk)
    return run
