"""Ratings (docs/ratings.md): the stored ratings, their change log and audit log, and
tournament rating periods. Written only by league/ratings/services.py and
league/ratings/recompute.py; the pure mathematics is league/ratings/."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from league.ratings import periods

#: The key of the league's own list; a club's list is club_list_key(its id).
LEAGUE_LIST = "league"


def club_list_key(club_id: int) -> str:
    """The key of a club's own rating list."""
    return f"club-{club_id}"


class RatingSystem(models.TextChoices):
    # The keys are the pure engine's (league/ratings/periods.py).
    ELO = periods.ELO, "FIDE Elo"
    GLICKO2 = periods.GLICKO2, "Glicko-2"


class Rating(models.Model):
    """A player's current rating in one list (the league's or a club's) for one variant.

    Written only by league/ratings/services.py and recompute.py; every change has a
    RatingChange or a RatingAdjustment row behind it, so a recompute from the game log
    rebuilds it.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=32)
    list_key = models.CharField(max_length=32, default=LEAGUE_LIST)
    club = models.ForeignKey("Club", null=True, blank=True, on_delete=models.CASCADE, related_name="ratings")
    system = models.CharField(max_length=8, choices=RatingSystem.choices, default=RatingSystem.ELO)
    rating = models.FloatField()
    rd = models.FloatField(null=True, blank=True, help_text="Glicko-2 rating deviation.")
    volatility = models.FloatField(null=True, blank=True, help_text="Glicko-2 volatility.")
    games = models.PositiveIntegerField(default=0)
    established = models.BooleanField(default=False, help_text="Elo: the §8.2 first rating is set.")
    reached_2400 = models.BooleanField(default=False, help_text="Elo: K is 10 for good once this is set.")
    provisional = models.BooleanField(default=True)
    # Elo: the (opponent rating, score) pairs of an unrated player's first games (§8.2).
    initial_results = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant", "list_key"], name="one_rating_per_player_list_variant")
        ]
        indexes = [models.Index(fields=["list_key", "variant", "-rating"])]
        ordering = ["list_key", "variant", "-rating"]

    def __str__(self) -> str:
        return f"{self.user} {self.variant} ({self.list_key}): {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rating period did to one player's rating in one list.

    The unique (game, user, list) constraint makes applying a game idempotent: a task
    delivered twice, retried or redelivered after its worker died can never count a
    game twice, whatever happens to the locks.
    """

    # A derived log that recompute_all rebuilds with COPY: no database-level foreign keys
    # (millions of deferred checks at commit) and no indexes the unique one covers.
    # Django still cascades deletes of games and users here.
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes",
                             db_constraint=False, db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes",
                             db_constraint=False, db_index=False)
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                 db_constraint=False, db_index=False)
    variant = models.CharField(max_length=32)
    list_key = models.CharField(max_length=32, default=LEAGUE_LIST)
    system = models.CharField(max_length=8, choices=RatingSystem.choices)
    period = models.CharField(max_length=64, help_text='"game-<id>" or the tournament\'s period key.')
    opponent_rating = models.FloatField()
    score = models.FloatField()
    k = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    rd_before = models.FloatField(null=True, blank=True)
    rd_after = models.FloatField(null=True, blank=True)
    volatility_before = models.FloatField(null=True, blank=True)
    volatility_after = models.FloatField(null=True, blank=True)
    provisional = models.BooleanField(default=False)
    finished_at = models.DateTimeField(help_text="When the game ended: ratings follow this order.")
    sequence = models.PositiveBigIntegerField(default=0, help_text="Order of application within the log.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "list_key"], name="rating_change_once_per_game_player")
        ]
        indexes = [models.Index(fields=["user", "list_key", "variant", "sequence"])]
        ordering = ["sequence"]

    def __str__(self) -> str:
        return f"{self.user} game {self.game_id}: {self.rating_before:.0f} -> {self.rating_after:.0f}"


class RatingAdjustment(models.Model):
    """A manual change by staff: the audit log (never edited; a reason is required)."""

    # No link to the Rating row: a recompute rebuilds those, the audit log stays.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32)
    list_key = models.CharField(max_length=32)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    reason = models.TextField()
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=~models.Q(reason=""), name="adjustment_needs_reason")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} {self.variant}: {self.rating_before:.0f} -> {self.rating_after:.0f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class RatingLedger(models.Model):
    """One row, locked (SELECT ... FOR UPDATE) while ratings are written, so games are
    rated one at a time in the order they ended and a recompute never races a game."""

    last_sequence = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"Rating ledger at {self.last_sequence}"


class RecomputeRun(models.Model):
    """A full recompute from the game log, run as a Celery task; the admin polls it."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    changes_written = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Recompute {self.pk} ({self.status})"

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else (100 if self.status == self.Status.DONE else 0)


class RatingPeriod(models.Model):
    """A tournament's rating period: its games are rated together, with the ratings of
    before the period, when the tournament calls ``league.ratings.services.rate_period``."""

    key = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name or self.key


class PeriodGame(models.Model):
    """A game kept out of live rating because its tournament rates by period."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rating_period_link")
    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="period_games")

    def __str__(self) -> str:
        return f"Game {self.game_id} in {self.period_id}"
