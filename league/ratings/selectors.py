"""Reads for rating pages and the API: leaderboards, a player's ratings and history,
the history chart (an inline SVG computed here, drawn by the template), performance
ratings per tournament period, and a recompute's progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet

from accounts.models import User
from league.models import LEAGUE_LIST, Club, Rating, RatingChange, RatingPeriod, RecomputeRun, club_list_key

from . import elo


def list_key_for(club: Club | None) -> str:
    return club_list_key(club.pk) if club is not None else LEAGUE_LIST


def leaderboard(*, variant: str, club: Club | None = None, limit: int = 100) -> QuerySet[Rating]:
    """The best ratings of one list and variant; provisional ones are marked, not hidden."""
    return (
        Rating.objects.filter(list_key=list_key_for(club), variant=variant)
        .select_related("user")
        .order_by("-rating", "user__username")[:limit]
    )


def rated_variants(*, club: Club | None = None) -> list[str]:
    return sorted(set(Rating.objects.filter(list_key=list_key_for(club)).values_list("variant", flat=True)))


def clubs_with_lists() -> QuerySet[Club]:
    return Club.objects.filter(own_rating_list=True).order_by("name")


def player_ratings(user: User) -> QuerySet[Rating]:
    return Rating.objects.filter(user=user).select_related("club").order_by("list_key", "variant")


def rating_history(user: User, *, variant: str, list_key: str = LEAGUE_LIST) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(user=user, variant=variant, list_key=list_key).order_by("sequence")


def recent_rated_games(user: User, *, limit: int = 50) -> QuerySet[RatingChange]:
    return (
        RatingChange.objects.filter(user=user).select_related("opponent").order_by("-sequence")[:limit]
    )


@dataclass(frozen=True)
class Chart:
    """An SVG line chart: ``points`` for a <polyline>, labels for the axes."""

    width: int
    height: int
    points: str
    dots: list[tuple[float, float, bool]]  # x, y, provisional
    low: int
    high: int
    first: str
    last: str


def history_chart(changes: list[RatingChange], *, width: int = 560, height: int = 160) -> Chart | None:
    """The rating after each period, left to right, scaled into the box."""
    if not changes:
        return None
    values = [changes[0].rating_before] + [c.rating_after for c in changes]
    low, high = int(min(values)) - 10, int(max(values)) + 10
    pad = 8
    step = (width - 2 * pad) / max(1, len(values) - 1)

    def y(value: float) -> float:
        return round(height - pad - (value - low) / (high - low) * (height - 2 * pad), 1)

    coords = [(round(pad + i * step, 1), y(v)) for i, v in enumerate(values)]
    provisional = [changes[0].provisional] + [c.provisional for c in changes]
    return Chart(
        width, height, " ".join(f"{x},{yy}" for x, yy in coords),
        [(x, yy, p) for (x, yy), p in zip(coords, provisional, strict=True)], low, high,
        changes[0].finished_at.date().isoformat(), changes[-1].finished_at.date().isoformat(),
    )


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
