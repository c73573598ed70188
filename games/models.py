"""Games as stored: house-rule sets, games and their seats, the append-only move log,
matches, observers and private notes.

The rules engine (games/rules/) decides everything about play; these rows only keep
what happened. ``Game.state`` is a cache of the move log replayed from the seed, kept
beside it in the same transaction.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class RuleSet(models.Model):
    """A house-rule set: a variant, its options, who moves first and the clock.

    Versioned: editing creates a new row with the same ``family`` and the next
    ``version``, so every game keeps the exact rules it started with.
    """

    class Decider(models.TextChoices):
        SEED = "seed", "Drawn from the game's seed"
        COIN = "coin", "Coin toss"
        ROCK_PAPER_SCISSORS = "rock-paper-scissors", "Rock-paper-scissors, played live"
        CHALLENGER = "challenger", "The challenger chooses"

    family = models.UUIDField(default=uuid.uuid4, editable=False, db_index=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    name = models.CharField(max_length=120)
    variant = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    decider = models.CharField(max_length=24, choices=Decider.choices, default=Decider.CHALLENGER)
    class MatchFormat(models.TextChoices):
        SINGLE = "single", "A single game"
        BEST_OF = "best-of", "Best of N games"
        ALL = "all", "All N games played"
        OFFICIAL = "official", "The official T-Tic-T-Tac-Toe match (preliminaries and five games)"

    class NextFirst(models.TextChoices):
        LOSER = "loser", "The loser of the previous game"
        WINNER = "winner", "The winner of the previous game"
        ALTERNATE = "alternate", "Players take turns"

    match_format = models.CharField(max_length=12, choices=MatchFormat.choices, default=MatchFormat.SINGLE)
    match_games = models.PositiveSmallIntegerField(default=1, help_text="N for best-of and all-played matches.")
    next_first = models.CharField(max_length=12, choices=NextFirst.choices, default=NextFirst.LOSER)
    seconds_per_move = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no per-move limit.")
    seconds_per_game = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no game clock.")
    no_show_seconds = models.PositiveIntegerField(default=300, help_text="Grace period before a no-show forfeits.")
    is_current = models.BooleanField(default=True, editable=False)
    # The platform's own rules for the variant (games/ownership.py): set only by
    # rule_sets.standard_rule_set, never by a name a player can choose.
    is_standard = models.BooleanField(default=False, editable=False)
    #: A guided lesson's own rules (games/lesson_service.py): never offered for a real game.
    for_lessons = models.BooleanField(default=False, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["family", "version"], name="one_row_per_rule_version"),
            models.UniqueConstraint(
                fields=["variant"], condition=models.Q(is_standard=True, is_current=True),
                name="one_current_standard_rule_set_per_variant",
            ),
        ]
        ordering = ["name", "-version"]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})"


class Match(models.Model):
    """A series of games between two players (games/rules/match.py keeps the score)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class Kind(models.TextChoices):
        SERIES = "series", "A series of games (games.rules.match)"
        OFFICIAL = "official", "Official T-Tic-T-Tac-Toe (games.rules.variants.t_tic_t_tac_toe.match)"

    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="matches")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SERIES)
    players = models.JSONField(default=list, help_text="[{user id or null, ai level or null}, ...] for players 0 and 1.")
    state = models.JSONField(default=dict, help_text="The pure match value's dump (MatchState or TTTMatch).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"Match {self.pk}"


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open challenge"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="games")
    variant = models.CharField(max_length=32)
    options = models.JSONField(default=dict, help_text="The options the engine validated, defaults filled in.")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="games")
    number_in_match = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    # The seed stays secret until the game ends; its hash is published at the start.
    seed = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)
    ply = models.PositiveIntegerField(default=0, help_text="Moves stored so far.")
    state = models.JSONField(default=dict, help_text="Cache of the move log replayed (engine dump).")
    to_move = models.JSONField(default=list)
    result = models.CharField(max_length=8, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    end_reason = models.CharField(max_length=200, blank=True)
    rated = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: Who called the game off after it was accepted (``services.abort``): counted, so
    #: nobody re-rolls a drawn first move by aborting game after game.
    aborted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # The finished game this one is the rematch of; one-to-one, so two players pressing
    # "Rematch" at once make one game (games/rematches.py).
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    #: The slug of the guided lesson this game is (games/lessons/), "" for a real game:
    #: a lesson is unrated and listed nowhere; its script checks the learner's moves.
    lesson = models.CharField(max_length=40, blank=True, default="")

    #: The game's seats in seat order, read with it by games/sql.py (or created with it):
    #: what the services and selectors read, so the seats cost no query of their own.
    seats_in_hand: list[Seat]

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.variant})"

    @property
    def on_first_step(self) -> bool:
        """Whether no turn has begun since the game started: its first step, both halves of
        a simultaneous one. Its time is the no-show grace's, charged to no clock ("The first
        move may take up to 5 min ...; after it, the clock is 3 min per game")."""
        return self.turn_started_at is not None and self.turn_started_at == self.started_at

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def player_one_by_chance(self) -> bool:
        """Whether chance (a coin, or the game's seed) decides who is Player One of this
        game: a lone game's, or a match's first (its series draws it,
        games/matches.py); never a rematch's, whose seats are the last game's swapped.
        Drawn as the game starts (``draw_at_start`` there and in games/starting.py)."""
        if self.rule_set.decider not in (RuleSet.Decider.SEED, RuleSet.Decider.COIN):
            return False
        if self.match_id is None:
            return self.rematch_of_id is None
        assert self.match is not None
        return self.number_in_match == 1 and self.match.kind == Match.Kind.SERIES


class Seat(models.Model):
    """Seat 0 (Player One) or 1 (Player Two) of a game: a person or an AI."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    ai_level = models.CharField(max_length=8, blank=True)
    clock_ms = models.BigIntegerField(null=True, blank=True, help_text="Game clock left, when the rules set one.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_row_per_seat"),
            models.CheckConstraint(condition=models.Q(number__in=[0, 1]), name="seat_is_0_or_1"),
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        who = self.user.username if self.user is not None else f"AI ({self.ai_level})" if self.ai_level else "empty"
        return f"Seat {self.number} of game {self.game_id}: {who}"

    @property
    def is_ai(self) -> bool:
        return bool(self.ai_level)


class Move(models.Model):
    """One stored move. Append-only: a row is never changed or deleted in play."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(help_text="1 for the first move of the game.")
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    # Secret moves (plans, throws): everyone gets sha256(canonical move + nonce) at
    # once and the nonce at the reveal, so anyone can check nothing was changed.
    commitment = models.CharField(max_length=64, blank=True)
    nonce = models.CharField(max_length=32, blank=True)
    # The move itself never changes; this flag flips once, when the step is revealed.
    revealed = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="one_move_per_ply")]
        ordering = ["game", "ply"]

    def __str__(self) -> str:
        return f"Game {self.game_id} ply {self.ply}"


class Observer(models.Model):
    """Someone watching a game now (one row per open socket; a viewer with several tabs
    has several rows, counted once: ``viewer``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="observers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    channel_name = models.CharField(max_length=200, unique=True)
    #: Who is watching, as counted against a cap and in the live count: "user:<id>" signed
    #: in, else "address:<client address>", else (no address known) "socket:<channel>".
    viewer = models.CharField(max_length=240, default="")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["game", "viewer"], name="observer_game_viewer")]

    def __str__(self) -> str:
        return f"{self.user or 'guest'} watching game {self.game_id}"


class PrivateNote(models.Model):
    """A player's own notes on a game (the FAQ lets players take notes). Only the
    author ever sees them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes")
    text = models.TextField(blank=True, max_length=10_000)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "author"], name="one_note_per_player_per_game")]

    def __str__(self) -> str:
        return f"Note by {self.author} on game {self.game_id}"


class LessonProgress(models.Model):
    """How far a player got in one guided lesson (games/lesson_service.py writes it)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_progress")
    lesson = models.CharField(max_length=40)
    #: Steps done in the furthest attempt (the lesson's steps are numbered from 1).
    steps_done = models.PositiveSmallIntegerField(default=0)
    completed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "lesson"], name="one_progress_per_player_per_lesson")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.lesson}: {self.steps_done}"
