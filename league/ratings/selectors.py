"""Reads for rating pages and the API: leaderboards, a player's ratings and history,
the history chart (an inline SVG computed here, drawn by the template), performance
ratings per tournament period, and a recompute's progress."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games.models import Game
from games.rules import RuleError, get_variant, variant_slugs
from league.models import (
    LEAGUE_LIST,
    Club,
    Entry,
    Pairing,
    PeriodGame,
    Rating,
    RatingChange,
    RatingPeriod,
    RecomputeRun,
    club_list_key,
)

from . import elo, explain


def list_key_for(club: Club | None) -> str:
    return club_list_key(club.pk) if club is not None else LEAGUE_LIST


def _last_change(offset: int = 0) -> QuerySet[RatingChange]:
    """The rating's latest change (``offset`` back), for Subquery against a Rating."""
    return RatingChange.objects.filter(
        user=OuterRef("user"), list_key=OuterRef("list_key"), variant=OuterRef("variant")
    ).order_by("-sequence")[offset:offset + 1]


#: The leaderboard's trend: the change over a player's last this many rated games.
TREND_GAMES = 10


def leaderboard(*, variant: str, club: Club | None = None, limit: int | None = 100,
                members_of: Club | None = None) -> QuerySet[Rating]:
    """The best ratings of one list and variant; provisional ones are marked, not hidden.
    Each row has ``last_played`` and ``trend`` (the change over its last TREND_GAMES
    games). ``members_of``: the league's list cut to one club's members (a club
    without a list of its own)."""
    # Closed accounts (consent pending, deactivated) are never listed (docs/accounts.md).
    rows = Rating.objects.filter(list_key=list_key_for(club), variant=variant, user__is_active=True)
    if members_of is not None:
        rows = rows.filter(user__club_memberships__club=members_of)
    trend_from = Coalesce(
        Subquery(_last_change(TREND_GAMES - 1).values("rating_before")),
        Subquery(RatingChange.objects.filter(
            user=OuterRef("user"), list_key=OuterRef("list_key"), variant=OuterRef("variant")
        ).order_by("sequence").values("rating_before")[:1]),
    )
    rows = (
        rows.select_related("user__profile")
        .annotate(last_played=Subquery(_last_change().values("finished_at")), trend=F("rating") - trend_from)
        .order_by("-rating", "user__username")
    )
    return rows[:limit] if limit is not None else rows


def rated_variants(*, club: Club | None = None) -> list[str]:
    return sorted(set(Rating.objects.filter(list_key=list_key_for(club)).values_list("variant", flat=True)))


#: The lists every leaderboard offers as tabs, in this order; another variant (rock-
#: paper-scissors, the decider of official matches) gets a tab once it has ratings.
MAIN_VARIANTS = ("classic", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two", "nine-square")


def variant_name(slug: str) -> str:
    try:
        return get_variant(slug).display_name
    except RuleError:
        return slug


def variant_tabs(rated: list[str]) -> list[tuple[str, str]]:
    """(slug, name) of every main variant present, then any other variant with ratings."""
    present = set(variant_slugs())
    slugs = [v for v in MAIN_VARIANTS if v in present] + [v for v in rated if v not in MAIN_VARIANTS]
    return [(slug, variant_name(slug)) for slug in slugs]


def clubs_for_picker(user: User | AnonymousUser) -> list[tuple[Club, bool]]:
    """(club, is the viewer's) for the lists page's club picker: the viewer's own clubs
    first, then every other club that keeps a list of its own."""
    mine = list(Club.objects.filter(memberships__user_id=user.pk).order_by("name")) if user.is_authenticated else []
    others = clubs_with_lists().exclude(pk__in=[c.pk for c in mine])
    return [(club, True) for club in mine] + [(club, False) for club in others]


def clubs_with_lists() -> QuerySet[Club]:
    return Club.objects.filter(own_rating_list=True).order_by("name")


def player_ratings(user: User) -> QuerySet[Rating]:
    return Rating.objects.filter(user=user).select_related("club").order_by("list_key", "variant")


def rating_history(user: User, *, variant: str, list_key: str = LEAGUE_LIST) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(user=user, variant=variant, list_key=list_key).order_by("sequence")


# -- the history chart: an inline SVG computed here, drawn by templates/league/_chart.html --

#: The chart shows a player's last this many changes (the table under it, all of them).
CHART_GAMES = 200
_CHART_WIDTH, _CHART_HEIGHT = 440, 220
_PLOT_LEFT, _PLOT_RIGHT, _PLOT_TOP, _PLOT_BOTTOM = 46, 430, 14, 190
_TIP_CHAR_WIDTH, _TIP_HEIGHT = 6.4, 36


@dataclass(frozen=True)
class Tick:
    at: float
    label: str
    anchor: str = "middle"


@dataclass(frozen=True)
class ChartPoint:
    """One rated game: its dot, its hover text (``title``; ``lines`` in the drawn tip)."""

    x: float
    y: float
    provisional: bool
    game_id: int
    title: str
    lines: tuple[str, str]
    tip_x: float
    tip_y: float
    tip_width: float


@dataclass(frozen=True)
class Chart:
    """An SVG line chart of ratings by game, with dated x labels and rating y labels."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str  # the <polyline>'s points, the rating before the first game included
    points: list[ChartPoint]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    low: int
    high: int
    first: str
    last: str
    shown: int
    total: int


def _day(moment: datetime) -> date:
    return timezone.localtime(moment).date()


def _date_words(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def _nice_step(span: float) -> int:
    """A round step giving at most five rating labels over ``span``."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000


_OUTCOME = {1.0: "won", 0.5: "drew", 0.0: "lost"}


def history_chart(changes: list[RatingChange], *, limit: int = CHART_GAMES) -> Chart | None:
    """The rating after each game, oldest left; x labels are the games' dates (one step
    per game: a time axis would crush a busy evening into a pixel), y labels round
    ratings. Needs the changes' opponents loaded (select_related)."""
    if not changes:
        return None
    total = len(changes)
    changes = changes[-limit:]
    values = [changes[0].rating_before] + [c.rating_after for c in changes]
    step = _nice_step(max(max(values) - min(values), 20))
    low = int(min(values) - 1) // step * step
    high = -(-int(max(values) + 1) // step) * step
    plot_w, plot_h = _PLOT_RIGHT - _PLOT_LEFT, _PLOT_BOTTOM - _PLOT_TOP
    spacing = plot_w / len(changes)

    def x(i: int) -> float:
        return round(_PLOT_LEFT + i * spacing, 1)

    def y(value: float) -> float:
        return round(_PLOT_BOTTOM - (value - low) / (high - low) * plot_h, 1)

    points = []
    for i, change in enumerate(changes, start=1):
        px, py = x(i), y(change.rating_after)
        day = _date_words(_day(change.finished_at))
        before, after = round(change.rating_before), round(change.rating_after)
        move = f"{before} → {after} ({explain.signed(after - before)})"  # as the list of changes writes it
        outcome = _OUTCOME.get(change.score, f"scored {change.score:g}")
        opponent = change.opponent.name
        lines = (f"{day}: {move}{', provisional' if change.provisional else ''}",
                 f"Game #{change.game_id}, {outcome} vs {opponent}")
        title = (f"{day}: rating {move} after game #{change.game_id}, {outcome} "
                 f"against {opponent}{', provisional' if change.provisional else ''}")
        tip_w = round(max(len(line) for line in lines) * _TIP_CHAR_WIDTH + 14, 1)
        tip_x = round(min(max(px - tip_w / 2, 2), _CHART_WIDTH - tip_w - 2), 1)
        tip_y = round(py - _TIP_HEIGHT - 8 if py - _TIP_HEIGHT - 8 >= 2 else py + 8, 1)
        points.append(ChartPoint(px, py, change.provisional, change.game_id, title, lines, tip_x, tip_y, tip_w))
    y_ticks = [Tick(y(v), str(v)) for v in range(low, high + 1, step)]
    days = [_day(c.finished_at) for c in changes]
    x_ticks: list[Tick] = []
    for i in sorted({0, len(changes) // 3, 2 * len(changes) // 3, len(changes) - 1}):
        label = f"{days[i].day} {days[i]:%b}" + (f" {days[i]:%y}" if days[0].year != days[-1].year else "")
        if x_ticks and x_ticks[-1].label == label:
            continue
        x_ticks.append(Tick(x(i + 1), label))
    if len(x_ticks) > 1:  # the ends align inwards, so no label leaves the box
        x_ticks[0] = Tick(x_ticks[0].at, x_ticks[0].label, "start")
        x_ticks[-1] = Tick(x_ticks[-1].at, x_ticks[-1].label, "end")
    return Chart(
        _CHART_WIDTH, _CHART_HEIGHT, _PLOT_LEFT, _PLOT_RIGHT, _PLOT_TOP, _PLOT_BOTTOM,
        " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)), points, y_ticks, x_ticks, low, high,
        _date_words(days[0]), _date_words(days[-1]), len(changes), total,
    )


# -- rating changes explained (league/ratings/explain.py) ------------------------------------


def _stored(change: RatingChange) -> explain.StoredChange:
    return explain.StoredChange(
        change.system, change.period, change.opponent.name, change.opponent_rating, change.score, change.k,
        change.rating_before, change.rating_after, change.rd_before, change.rd_after, change.provisional,
    )


def _period_names(changes: list[RatingChange]) -> dict[str, str]:
    keys = {c.period for c in changes if not c.period.startswith("game-")}
    return dict(RatingPeriod.objects.filter(key__in=keys).values_list("key", "name")) if keys else {}


def explained_history(user: User, *, variant: str, list_key: str = LEAGUE_LIST,
                      up_to: int | None = None) -> list[tuple[RatingChange, explain.Explanation]]:
    """A player's changes in one list and variant, oldest first, each with its
    explanation, worked out from the whole log up to it (``up_to``: a sequence)."""
    rows = rating_history(user, variant=variant, list_key=list_key).select_related("opponent__profile")
    if up_to is not None:
        rows = rows.filter(sequence__lte=up_to)
    changes = list(rows)
    return list(zip(changes, explain.explain_history([_stored(c) for c in changes],
                                                     period_names=_period_names(changes)), strict=True))


@dataclass(frozen=True)
class RatingLine:
    """One player's change in one list, for the game page."""

    player: User
    list_name: str
    explanation: explain.Explanation


@dataclass(frozen=True)
class GameRatingNote:
    """What a finished game did to ratings: ``lines`` when rated, else why not (``text``)."""

    rated: bool
    text: str
    lines: list[RatingLine]


def _unrated_why(game: Game) -> tuple[str, str]:
    """Why a finished game is unrated: a key of explain.UNRATED_WORDS and the player it
    names. A tournament game's reason is read from its pairing (how it was scored, who
    withdrew), never guessed from its end reason's words."""
    if game.lesson:
        return "lesson", ""
    if any(seat.user_id is None for seat in game.seats.all()):
        return "computer", ""
    pairings = Pairing.objects.select_related("section", "first", "second")
    pairing = (pairings.filter(match_id=game.match_id) if game.match_id else pairings.filter(game=game)).first()
    if pairing is not None:
        by_result: dict[str, list[User | None]] = {
            Pairing.Result.SECOND_FORFEIT_WIN: [pairing.first], Pairing.Result.FIRST_FORFEIT_WIN: [pairing.second],
            Pairing.Result.DOUBLE_FORFEIT: [pairing.first, pairing.second]}
        forfeited = by_result.get(pairing.result)
        if forfeited is not None:
            losers = [user for user in forfeited if user is not None]
            withdrawn = [user for user in losers if Entry.objects.filter(
                section=pairing.section, user=user, status=Entry.Status.WITHDRAWN).exists()]
            if withdrawn:
                return "withdrawal", withdrawn[0].name
            no_show = [user for user in losers
                       if any(flag.startswith(f"{user.username} did not show up") for flag in pairing.flags)]
            if no_show or "did not show up" in game.end_reason:
                return "no-show", (no_show or losers)[0].name if no_show or losers else ""
            resigned = _resigned_before_any_move(pairing)
            if resigned:
                return "resigned-unplayed", resigned
            return "forfeit", ""
        if not pairing.section.rated:
            return "unrated-section", ""
        return ("unplayed" if game.ply == 0 else "forfeit"), ""
    if "show" in game.end_reason and game.on_first_step:  # "did not show up", "Neither player showed up."
        loser = next((s for s in game.seats.all() if game.winner_seat is not None
                      and s.number != game.winner_seat), None)
        return "no-show", loser.user.name if loser is not None and loser.user is not None else ""
    if "forfeit" in game.end_reason.lower():
        return "forfeit", ""
    return "casual", ""


def _resigned_before_any_move(pairing: Pairing) -> str:
    """The name of the player whose resignation before any move the pairing was scored
    as a forfeit for (competitions.results flags it); "" for any other pairing."""
    for user in (pairing.first, pairing.second):
        if user is not None and f"{user.username} {Pairing.RESIGNED_UNPLAYED}" in pairing.flags:
            return user.name
    return ""


def game_rating_note(game: Game) -> GameRatingNote | None:
    """Each rating change of a finished game explained, or why it changed no rating
    (casual, against the computer, a lesson, a forfeit — a withdrawal, a no-show —,
    an unrated section, aborted, waiting for its tournament): explain.unrated_words."""
    if game.status == Game.Status.ABORTED:
        return GameRatingNote(False, explain.unrated_words("aborted"), [])
    if game.status != Game.Status.FINISHED:
        return None
    if not game.rated:
        why, player = _unrated_why(game)
        return GameRatingNote(False, explain.unrated_words(why, player=player), [])
    unplayed = Pairing.objects.filter(game=game).select_related("first", "second").first() if game.ply == 0 else None
    if unplayed is not None:  # services.rateable
        resigned = _resigned_before_any_move(unplayed)
        if resigned:
            return GameRatingNote(False, explain.unrated_words("resigned-unplayed", player=resigned), [])
        return GameRatingNote(False, explain.unrated_words("unplayed"), [])
    changes = list(RatingChange.objects.filter(game=game).select_related("user__profile").order_by("sequence"))
    if not changes:
        link = PeriodGame.objects.filter(game_id=game.pk).select_related("period").first()
        if link is None and game.match_id:
            link = PeriodGame.objects.filter(game__match_id=game.match_id).select_related("period").first()
        if link is not None:
            return GameRatingNote(True, f"Rated with {link.period}: its games are rated together when it ends.", [])
        return GameRatingNote(True, "Rated: the rating changes are being worked out; they show here as soon as they are stored.", [])
    clubs = dict(Club.objects.filter(pk__in=[c.list_key.removeprefix("club-") for c in changes
                                             if c.list_key != LEAGUE_LIST]).values_list("pk", "name"))
    lines = []
    for change in sorted(changes, key=lambda c: (c.list_key != LEAGUE_LIST, c.list_key, c.sequence)):
        history = explained_history(change.user, variant=change.variant, list_key=change.list_key,
                                    up_to=change.sequence)
        list_name = "League" if change.list_key == LEAGUE_LIST else clubs.get(
            int(change.list_key.removeprefix("club-")), change.list_key)
        lines.append(RatingLine(change.user, list_name, history[-1][1]))
    return GameRatingNote(True, "", lines)


@dataclass(frozen=True)
class Performance:
    period: str
    name: str
    variant: str
    games: int
    score: float
    average_opponent: float
    rating: int


def performances(user: User, *, list_key: str = LEAGUE_LIST) -> list[Performance]:
    """FIDE's performance rating per tournament period: the opponents' average rating
    plus dp for the percentage score (table 8.1.1)."""
    rows: dict[tuple[str, str], list[RatingChange]] = {}
    for change in RatingChange.objects.filter(user=user, list_key=list_key).exclude(period__startswith="game-"):
        rows.setdefault((change.period, change.variant), []).append(change)
    names = dict(RatingPeriod.objects.filter(key__in=[p for p, _ in rows]).values_list("key", "name"))
    result = []
    for (period, variant), changes in sorted(rows.items()):
        score = sum(c.score for c in changes)
        average = sum(c.opponent_rating for c in changes) / len(changes)
        result.append(Performance(period, names.get(period) or period, variant, len(changes), score, average,
                                  round(average + elo.dp_for(score / len(changes)))))
    return result


def progress_cache_key(run_id: int) -> str:
    """Where a running recompute keeps its progress while its transaction is open."""
    return f"league:recompute:{run_id}"


def recompute_progress(run: RecomputeRun) -> dict[str, Any]:
    """The run's progress: from the cache while a SQLite recompute holds its write
    transaction, else from the row (PostgreSQL commits progress on its own connection)."""
    done, total = run.done, run.total
    if run.status == RecomputeRun.Status.RUNNING:
        cached = cache.get(progress_cache_key(run.pk))
        if cached and cached[0] > done:
            done, total = cached
    percent = int(100 * done / total) if total else (100 if run.status == RecomputeRun.Status.DONE else 0)
    return {"id": run.pk, "status": run.status, "done": done, "total": total, "percent": percent,
            "seconds": run.seconds, "error": run.error}
