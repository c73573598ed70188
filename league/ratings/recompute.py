"""A full recompute: every rating again from the game log (the command
``recompute_ratings`` and the admin's action, a Celery task queued by
``services.queue_recompute``). It holds the ledger lock like every rating write."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache
from django.db import connection, connections, models, transaction
from django.utils import timezone

from accounts.models import User
from league.models import (
    LEAGUE_LIST,
    Club,
    PeriodGame,
    Rating,
    RatingAdjustment,
    RatingChange,
    RatingPeriod,
    RecomputeRun,
    club_list_key,
)

from . import periods
from .periods import PlayerState
from .selectors import progress_cache_key
from .services import GLICKO2_TAU, LEAGUE_SYSTEM, copy_state, lock_ledger

logger = logging.getLogger(__name__)

_GAMES_SQL = """
SELECT g.id, g.variant, {epoch}, g.finished_at{as_text}, g.winner_seat, s0.user_id, s1.user_id
FROM games_game g
JOIN games_seat s0 ON s0.game_id = g.id AND s0.number = 0
JOIN games_seat s1 ON s1.game_id = g.id AND s1.number = 1
WHERE g.status = 'finished' AND g.rated AND g.finished_at IS NOT NULL
  AND s0.user_id IS NOT NULL AND s1.user_id IS NOT NULL
  AND NOT (g.ply = 0 AND EXISTS (SELECT 1 FROM league_pairing lp WHERE lp.game_id = g.id))
  AND NOT EXISTS (SELECT 1 FROM league_periodgame p
      JOIN league_ratingperiod r ON r.id = p.period_id AND r.applied_at IS NULL
      JOIN games_game pg ON pg.id = p.game_id
      WHERE pg.id = g.id OR pg.match_id = g.match_id)
ORDER BY g.finished_at, g.id
"""


def _games_sql() -> str:
    """The rateable games in the order they ended. On PostgreSQL the time comes as epoch
    seconds (to order and compare) and as text (passed to COPY untouched): parsing a
    million timestamps in Python would cost seconds."""
    if connection.vendor == "postgresql":
        return _GAMES_SQL.format(epoch="EXTRACT(EPOCH FROM g.finished_at)::float8", as_text="::text")
    return _GAMES_SQL.format(epoch="0.0", as_text="")


_CHANGE_COLUMNS = (
    "game_id", "user_id", "opponent_id", "variant", "list_key", "system", "period", "opponent_rating", "score",
    "k", "rating_before", "rating_after", "rd_before", "rd_after", "volatility_before", "volatility_after",
    "provisional", "finished_at", "sequence",
)


@dataclass
class RecomputeResult:
    games: int
    changes: int
    seconds: float
    phases: dict[str, float]


def recompute_all(
    *, progress: Callable[[int, int], None] | None = None, batch_size: int = 50_000
) -> RecomputeResult:
    """Every rating again from the game log, in the order games ended.

    Streams the games with a server-side cursor, rates them in memory with the same
    engine as the live path, and writes the changes with COPY (PostgreSQL) or
    bulk_create in batches. Manual adjustments are re-applied at their place in time;
    tournament periods at the time they were applied. ``progress(done, total)``.
    """
    started = time.perf_counter()
    phases: dict[str, float] = {}
    with transaction.atomic():
        ledger = lock_ledger()
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM ({_games_sql()}) AS rateable")
            total = cursor.fetchone()[0]
        phases["count"] = time.perf_counter() - started
        with connection.cursor() as cursor:  # no signals or cascades hang on these rows
            verb = "DELETE FROM"
            if connection.vendor == "postgresql":
                # TRUNCATE refuses while deferred foreign-key checks are pending.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                verb = "TRUNCATE"
            cursor.execute(f"{verb} {RatingChange._meta.db_table}")
            cursor.execute(f"{verb} {Rating._meta.db_table}")
        run = _Recompute(total, progress, batch_size)
        with _indexes_built_after(RatingChange):
            run.go()
        ledger.last_sequence = run.sequence
        ledger.save(update_fields=["last_sequence"])
        phases.update(run.phases)
        before_commit = time.perf_counter()
    phases["commit"] = time.perf_counter() - before_commit
    return RecomputeResult(total, run.sequence, time.perf_counter() - started, phases)


@contextmanager
def _indexes_built_after(model: type[models.Model]) -> Iterator[None]:
    """On PostgreSQL, fill ``model``'s table without its indexes and build them once at
    the end: one sorted build is much cheaper than millions of index inserts. All in
    the recompute's transaction, so no other transaction ever sees the table without
    its unique constraint (they wait on the table lock instead)."""
    if connection.vendor != "postgresql":
        yield
        return
    constraints = [c for c in model._meta.constraints if isinstance(c, models.UniqueConstraint)]
    with connection.schema_editor(atomic=False) as editor:
        for constraint in constraints:
            editor.remove_constraint(model, constraint)
        for index in model._meta.indexes:
            editor.remove_index(model, index)
    yield
    with connection.schema_editor(atomic=False) as editor:
        for constraint in constraints:
            editor.add_constraint(model, constraint)
        for index in model._meta.indexes:
            editor.add_index(model, index)


class _Recompute:
    """The in-memory state of one recompute."""

    def __init__(self, total: int, progress: Callable[[int, int], None] | None, batch_size: int) -> None:
        self.total, self.progress, self.batch_size = total, progress, batch_size
        self.states: dict[tuple[str, str], dict[Any, PlayerState]] = {}
        self.clubs: dict[str, tuple[int, str]] = {}
        self.user_lists: dict[int, set[str]] = {}
        for club in Club.objects.filter(own_rating_list=True):
            key = club_list_key(club.pk)
            self.clubs[key] = (club.pk, club.rating_system)
            for user_id in club.memberships.values_list("user_id", flat=True):
                self.user_lists.setdefault(user_id, set()).add(key)
        self.juniors = dict(
            User.objects.filter(profile__date_of_birth__isnull=False).values_list("pk", "profile__date_of_birth__year")
        )
        self.deferred = dict(PeriodGame.objects.values_list("game_id", "period__key"))
        applied = RatingPeriod.objects.filter(applied_at__isnull=False).values_list("key", "applied_at")
        self.period_times = {key: when for key, when in applied if when is not None}  # all, by the filter
        self.period_games: dict[str, list[tuple]] = {}
        self.league_only: list[tuple[str, int | None, str]] = [(LEAGUE_LIST, None, LEAGUE_SYSTEM)]
        self.league_states: dict[str, dict[Any, PlayerState]] = {}
        self.junior_year = -1
        self.junior_test: Callable[[Any], bool] = lambda pk: False
        # events that are not single games, by time (epoch seconds): (when, kind, payload)
        self.events: list[tuple[float, int, RatingAdjustment | str]] = sorted(
            [(a.created_at.timestamp(), 0, a) for a in RatingAdjustment.objects.order_by("created_at", "id")]
            + [(when.timestamp(), 1, key) for key, when in self.period_times.items()],
            key=lambda item: (item[0], item[1]),
        )
        self.next_event = 0
        self.sequence = 0
        self.rows: list[tuple] = []
        self.phases = {"write changes": 0.0, "write ratings": 0.0}
        self.year_range = (0.0, -1.0, 0)  # [start, end) epoch of the year last seen, and the year

    def go(self) -> None:
        started = time.perf_counter()
        done = 0
        sqlite = connection.vendor == "sqlite"
        with connection.chunked_cursor() as cursor:
            cursor.execute(_games_sql())
            while chunk := cursor.fetchmany(10_000):
                if sqlite:  # raw SQLite rows carry datetimes as text (UTC)
                    chunk = [(g[0], g[1], (at := _sqlite_datetime(g[3])).timestamp(), at, *g[4:]) for g in chunk]
                for game in chunk:
                    if self.next_event < len(self.events):
                        self._events_until(game[2])
                    if game[0] in self.deferred:
                        self.period_games.setdefault(self.deferred[game[0]], []).append(game)
                    else:
                        self._rate_one(game)
                if len(self.rows) >= self.batch_size:
                    self._flush()
                done += len(chunk)
                if self.progress:
                    self.progress(done, self.total)
        self._events_until(None)
        self._flush()
        self.phases["read and rate"] = time.perf_counter() - started - self.phases["write changes"]
        started = time.perf_counter()
        self._save_ratings()
        self.phases["write ratings"] = time.perf_counter() - started

    def _year(self, epoch: float) -> int:
        start, end, year = self.year_range
        if not start <= epoch < end:
            year = datetime.fromtimestamp(epoch, UTC).year
            start = datetime(year, 1, 1, tzinfo=UTC).timestamp()
            self.year_range = (start, datetime(year + 1, 1, 1, tzinfo=UTC).timestamp(), year)
        return year

    def _events_until(self, when: float | None) -> None:
        while self.next_event < len(self.events) and (when is None or self.events[self.next_event][0] <= when):
            _, _, payload = self.events[self.next_event]
            self.next_event += 1
            if isinstance(payload, RatingAdjustment):  # a manual adjustment (kind 0): the rating staff set
                state = self.states.get((payload.list_key, payload.variant), {}).get(payload.user_id)
                if state is not None:
                    state.rating = payload.rating_after
            else:
                self._rate(self.period_games.pop(payload, []), payload)

    def _lists(self, white: int, black: int) -> list[tuple[str, int | None, str]]:
        mine, theirs = self.user_lists.get(white), self.user_lists.get(black)
        if not (mine and theirs):
            return self.league_only
        specs = list(self.league_only)
        for key in sorted(mine & theirs, key=lambda k: int(k.split("-")[1])):
            specs.append((key, *self.clubs[key]))
        return specs

    def _rate_one(self, game: tuple) -> None:
        """A live period of one game: ``_rate`` without its grouping, for the common
        case of a game in the league's list alone (the same engine call)."""
        white, black = game[5], game[6]
        mine = self.user_lists.get(white)
        if mine and mine & self.user_lists.get(black, set()):
            self._rate([game], f"game-{game[0]}")
            return
        year = self._year(game[2])
        if year != self.junior_year:
            juniors, self.junior_year = self.juniors, year
            self.junior_test = lambda pk: juniors.get(pk, -99) + 18 >= year
        states = self.league_states.get(game[1])
        if states is None:
            states = self.league_states[game[1]] = self.states.setdefault((LEAGUE_LIST, game[1]), {})
        winner = game[4]
        period, variant, finished = f"game-{game[0]}", game[1], game[3]
        for e in periods.rate_period(
            states, [(game[0], white, black, 0.5 if winner is None else (1.0 if winner == 0 else 0.0))],
            system=LEAGUE_SYSTEM, tau=GLICKO2_TAU, junior=self.junior_test,
        ):
            self.sequence += 1
            self.rows.append((
                e.game, e.player, e.opponent, variant, LEAGUE_LIST, LEAGUE_SYSTEM, period, e.opponent_rating,
                e.score, e.k, e.rating_before, e.rating_after, e.rd_before, e.rd_after, e.volatility_before,
                e.volatility_after, e.provisional, finished, self.sequence,
            ))

    def _rate(self, games: list[tuple], period: str) -> None:
        """games: (id, variant, epoch, finished_at, winner seat, seat 0 user, seat 1 user)."""
        groups: dict[tuple[tuple[str, int | None, str], str], list[tuple]] = {}
        for game in games:
            for spec in self._lists(game[5], game[6]):
                groups.setdefault((spec, game[1]), []).append(game)
        append = self.rows.append
        for (spec, variant), its_games in groups.items():
            list_key, _, system = spec
            year = self._year(max(g[2] for g in its_games))
            finished = {g[0]: g[3] for g in its_games}
            entries = periods.rate_period(
                self.states.setdefault((list_key, variant), {}),
                [(g[0], g[5], g[6], 0.5 if g[4] is None else (1.0 if g[4] == 0 else 0.0)) for g in its_games],
                system=system, tau=GLICKO2_TAU, junior=functools.partial(_junior_in, self.juniors, year),
            )
            for e in entries:
                self.sequence += 1
                append((
                    e.game, e.player, e.opponent, variant, list_key, system, period, e.opponent_rating, e.score,
                    e.k, e.rating_before, e.rating_after, e.rd_before, e.rd_after, e.volatility_before,
                    e.volatility_after, e.provisional, finished[e.game], self.sequence,
                ))

    def _flush(self) -> None:
        if not self.rows:
            return
        started = time.perf_counter()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                raw = cursor.cursor  # psycopg 3's own cursor, for COPY
                # The id is the sequence number (unique here): no nextval() per row.
                columns = ", ".join(("id", *_CHANGE_COLUMNS))
                with raw.copy(f"COPY league_ratingchange ({columns}) FROM STDIN") as copy:
                    write = copy.write_row
                    for row in self.rows:
                        write((row[-1], *row))
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence('league_ratingchange', 'id'), %s)", [self.sequence]
                )
        else:
            RatingChange.objects.bulk_create(
                [RatingChange(**dict(zip(_CHANGE_COLUMNS, row, strict=True))) for row in self.rows], batch_size=2000
            )
        self.rows = []
        self.phases["write changes"] += time.perf_counter() - started

    def _save_ratings(self) -> None:
        specs = {LEAGUE_LIST: None} | {key: club_id for key, (club_id, _) in self.clubs.items()}
        systems = {LEAGUE_LIST: LEAGUE_SYSTEM} | {key: system for key, (_, system) in self.clubs.items()}
        rows = []
        for (list_key, variant), states in self.states.items():
            for user_id, state in states.items():
                row = Rating(user_id=user_id, variant=variant, list_key=list_key, club_id=specs[list_key])
                copy_state(row, state, systems[list_key])
                rows.append(row)
        Rating.objects.bulk_create(rows, batch_size=5000)


def run_recompute(run_id: int) -> RecomputeRun:
    """Run a queued RecomputeRun, keeping its progress on the row for the admin page."""
    run = RecomputeRun.objects.get(pk=run_id)
    if run.status not in (RecomputeRun.Status.QUEUED, RecomputeRun.Status.RUNNING):
        return run
    RecomputeRun.objects.filter(pk=run_id).update(status=RecomputeRun.Status.RUNNING)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        # The recompute's transaction is not visible to the admin: progress is written
        # on a second connection (see _progress_writer) at most a few times a second.
        now = time.monotonic()
        if now - last[0] > 0.3 or done == total:
            last[0] = now
            _write_progress(run_id, done, total)

    try:
        result = recompute_all(progress=progress)
    except Exception as err:
        RecomputeRun.objects.filter(pk=run_id).update(
            status=RecomputeRun.Status.FAILED, error=repr(err), finished_at=timezone.now())
        raise
    finally:
        cache.delete(progress_cache_key(run_id))  # the row has the final figures
    RecomputeRun.objects.filter(pk=run_id).update(
        status=RecomputeRun.Status.DONE, total=result.games, done=result.games, changes_written=result.changes,
        seconds=result.seconds, finished_at=timezone.now())
    return RecomputeRun.objects.get(pk=run_id)


def _junior_in(birth_years: dict[int, int], year: int, user_id: int) -> bool:
    """Whether FIDE's junior K applies to ``user_id`` in ``year`` (18 or younger that year)."""
    return birth_years.get(user_id, -99) + 18 >= year


def _sqlite_datetime(value: Any) -> datetime:
    parsed = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


PROGRESS_ALIAS = "league_progress"


def _write_progress(run_id: int, done: int, total: int) -> None:
    """Progress that others can see while the recompute's transaction is still open:
    on PostgreSQL a second connection commits it to the run row; SQLite allows one
    writer, so there it goes to the cache (the embedded runtime is one process)."""
    cache.set(progress_cache_key(run_id), (done, total), 3600)
    if connection.vendor != "postgresql":
        return
    if PROGRESS_ALIAS not in connections.settings:
        connections.settings[PROGRESS_ALIAS] = dict(connection.settings_dict)
    try:
        with connections[PROGRESS_ALIAS].cursor() as cursor:
            cursor.execute("UPDATE league_recomputerun SET done = %s, total = %s WHERE id = %s", [done, total, run_id])
    except Exception:
        logger.warning("recompute %s: progress not written to the run row", run_id, exc_info=True)
