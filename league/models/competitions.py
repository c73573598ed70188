"""Competitions (docs/competitions.md): leagues and seasons, tournaments, sections,
entries, rounds, pairings, standings, prizes, and a player's private calendar link.

Written through the league's services; the pure pairing engines are in league/formats/.
A section's state is always rebuilt from its rows (rounds, pairings, results), never
kept in a pickled engine object."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .clubs import Club


class League(models.Model):
    """A club's running series (for instance "Junior league"), split into seasons."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="league_slug_unique_in_club")]
        ordering = ["club", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class Season(models.Model):
    """One season of a league: its tournaments add up to cumulative standings."""

    class Scoring(models.TextChoices):
        GAME_POINTS = "game-points", "Sum of game points over the season's tournaments"
        PLACE_POINTS = "place-points", "Points for each final place (the table in place_points)"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    year = models.PositiveSmallIntegerField(help_text="The season's year: birth-year age groups count from it.")
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.GAME_POINTS)
    place_points = models.JSONField(
        default=list, blank=True, help_text="Place-points scoring: points for 1st, 2nd, ... (e.g. [25, 18, 15])."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "slug"], name="season_slug_unique_in_league")]
        ordering = ["league", "-year", "name"]

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft (not yet published)"
        REGISTRATION = "registration", "Open for registration"
        RUNNING = "running", "In play"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class RatingPeriod(models.TextChoices):
        GAME = "game", "Live: every game is rated as it ends"
        TOURNAMENT = "tournament", "One rating period: the games are rated together at the end"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200)
    description = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    rating_period = models.CharField(max_length=12, choices=RatingPeriod.choices, default=RatingPeriod.GAME)
    starts_at = models.DateTimeField(help_text="When play begins (a section may start later).")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_unique_in_club")]
        ordering = ["-starts_at", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def rating_period_key(self) -> str:
        """The key of this tournament's rating period (league.ratings.services.rate_period)."""
        return f"tournament-{self.pk}"


class Section(models.Model):
    """A tournament's section: its own field, format, rules, schedule and eligibility."""

    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single-elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double-elimination", "Double elimination"
        ROUND_ROBIN = "round-robin", "Round robin"
        SWISS = "swiss", "Swiss"
        ARENA = "arena", "Arena"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "In play"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class GrandFinal(models.TextChoices):
        RESET = "reset", "With a reset (the losers' champion must win twice)"
        SINGLE = "single", "A single match"

    class Placements(models.TextChoices):
        NONE = "none", "None"
        THIRD = "third", "A third-place match"
        ALL = "all", "Every place (3rd-4th, 5th-8th, ...)"

    class SwissSystem(models.TextChoices):
        DUTCH = "dutch", "FIDE Dutch"
        FAST = "fast", "Fast score groups"

    class Acceleration(models.TextChoices):
        NONE = "none", "None"
        BAKU = "baku", "Baku (FIDE C.04.5.1)"

    class ObserverPolicy(models.TextChoices):
        ANYONE = "anyone", "Anyone, signed in or not"
        SIGNED_IN = "signed-in", "Signed-in users"
        MEMBERS = "members", "Members of the club"
        INVITED = "invited", "Invited observers only"
        NONE = "none", "Nobody"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    variant = models.CharField(max_length=32, help_text="Always the rule set's variant.")
    rule_set = models.ForeignKey("games.RuleSet", on_delete=models.PROTECT, related_name="sections",
                                 help_text="House rules, match format and time control.")
    format = models.CharField(max_length=24, choices=Format.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    rated = models.BooleanField(default=True)
    capacity = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no limit.")
    observer_policy = models.CharField(max_length=12, choices=ObserverPolicy.choices,
                                       default=ObserverPolicy.ANYONE)
    invited_observers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")

    # Format settings (each format reads its own; docs/competitions.md).
    placements = models.CharField(max_length=8, choices=Placements.choices, default=Placements.NONE,
                                  help_text="Single elimination: the placement matches played.")
    consolation = models.BooleanField(default=False,
                                      help_text="Single elimination: a bracket for the first match's losers.")
    grand_final = models.CharField(max_length=8, choices=GrandFinal.choices, default=GrandFinal.RESET,
                                   help_text="Double elimination.")
    cycles = models.PositiveSmallIntegerField(default=1, help_text="Round robin: 1 single, 2 double.")
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: empty for the recommended number for the field (set at the start)."
    )
    bye_points = models.DecimalField(max_digits=3, decimal_places=1, default=1,
                                     help_text="Points for a pairing-allocated bye (Swiss, round robin).")
    arena_duration = models.DurationField(null=True, blank=True, help_text="Arena: how long it runs.")
    streak_bonus = models.BooleanField(default=True, help_text="Arena: double points on a winning streak.")
    tiebreaks = models.JSONField(default=list, blank=True,
                                 help_text="Tie-break names in the organiser's order (league.formats.tiebreaks).")
    # Null, not "": the other formats have no pairing system at all (the API shows null).
    swiss_system = models.CharField(  # noqa: DJ001
        max_length=8, choices=SwissSystem.choices, null=True, blank=True, default=None,
        help_text="Swiss: paired by the FIDE Dutch system (C.04.3) or by fast score groups (for very large fields). "
                  "Empty for the other formats.",
    )
    # Virtual points enter only the Dutch pairer's input (trf_state's XXA lines), never a score.
    acceleration = models.CharField(
        max_length=8, choices=Acceleration.choices, default=Acceleration.NONE,
        help_text="FIDE Dutch Swiss: accelerated pairings (Baku: virtual points for the top half in the first "
                  "rounds). None for the other formats and systems.",
    )
    late_entry_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss: late entries are taken before rounds 2..N+1 (0: none). Arena: until the end."
    )

    # Schedule: explicit round start times, or the first start and an interval.
    starts_at = models.DateTimeField(help_text="Round 1 (or the arena) starts.")
    round_interval = models.DurationField(
        null=True, blank=True,
        help_text="Time between round starts; the next round never starts before the last one ends.",
    )
    round_starts = models.JSONField(default=list, blank=True,
                                    help_text="Explicit ISO start times of rounds 2, 3, ... (overrides the interval).")
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True, help_text="Empty: when round 1 starts.")
    check_in_opens_at = models.DateTimeField(null=True, blank=True, help_text="Empty: no check-in needed.")
    check_in_closes_at = models.DateTimeField(null=True, blank=True, help_text="Empty: when round 1 starts.")

    # Eligibility (accounts.age.age_group_refusal): birth-year groups or age on a date.
    age_under = models.PositiveSmallIntegerField(null=True, blank=True, choices=[(n, f"U{n}") for n in (8, 10, 12, 14, 16, 18)])
    age_over = models.PositiveSmallIntegerField(null=True, blank=True, choices=[(50, "50+"), (65, "65+")])
    age_year = models.PositiveSmallIntegerField(null=True, blank=True,
                                                help_text="Year birth-year groups count from (empty: the start's year).")
    age_cutoff = models.DateField(null=True, blank=True)
    min_age = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Inclusive, on the cutoff date.")
    max_age = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Inclusive, on the cutoff date.")
    rating_min = models.PositiveIntegerField(null=True, blank=True, help_text="Inclusive; rating at registration.")
    rating_max = models.PositiveIntegerField(null=True, blank=True, help_text="Inclusive; rating at registration.")
    members_only = models.BooleanField(default=False)

    # Progress, written by the services.
    current_round = models.PositiveSmallIntegerField(default=0)
    total_rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Known once the field is set.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A paused section starts no round, pairs no arena wave and forfeits no no-show;
    # games in play go on (docs/competitions.md, "Pause and resume").
    paused_at = models.DateTimeField(null=True, blank=True, help_text="Set while the section is paused.")
    resumed_at = models.DateTimeField(null=True, blank=True,
                                      help_text="Last resume: the no-show grace counts from here.")
    # Set when the organisers end a section early (a Swiss whose next round cannot be
    # paired): what the finished section's page and notices say about it.
    ended_early = models.CharField(max_length=300, blank=True,
                                   help_text="Why the section ended before its last round, in words.")
    # Multi-stage events (docs/competitions.md, "Multi-stage events"): a later stage names
    # the earlier one and takes its top players when it finishes; it takes no registrations.
    previous_stage = models.ForeignKey("self", null=True, blank=True, on_delete=models.RESTRICT,
                                       related_name="next_stages", help_text="The stage whose top players play here.")
    advance = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How many go through from the previous stage (per group from groups).")
    groups = models.PositiveSmallIntegerField(default=1, help_text="Round robin: groups, snake-seeded (1: one table).")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slug"], name="section_slug_unique_in_tournament"),
            models.CheckConstraint(condition=models.Q(cycles__in=[1, 2]), name="section_cycles_1_or_2"),
            models.CheckConstraint(
                condition=models.Q(acceleration="none") | models.Q(format="swiss", swiss_system="dutch"),
                name="section_acceleration_only_for_dutch_swiss",
            ),
        ]
        ordering = ["tournament", "name"]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.name}"


class Entry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked-in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="1 = top seed; set at the start.")
    rating = models.FloatField(null=True, blank=True, help_text="Rating frozen at registration (empty: unrated).")
    late = models.BooleanField(default=False, help_text="Entered after round 1 started.")
    joined_round = models.PositiveSmallIntegerField(default=1, help_text="First round the player can be paired in.")
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.CharField(max_length=200, blank=True)
    eliminated = models.BooleanField(default=False, help_text="Knocked out (elimination formats).")
    # An arena pairs nobody who is away: a player who lost a game without a move, or who
    # paused, waits here until they say they are back (league/competitions/arena_pause.py).
    paused_at = models.DateTimeField(null=True, blank=True, help_text="Arena: not paired since then (empty: paired).")
    paused_reason = models.CharField(max_length=200, blank=True, help_text="Arena: why the player is paused, in words.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["section", "user"], name="one_entry_per_player_per_section")]
        ordering = ["section", "seed", "registered_at"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.user} in {self.section}"


class Round(models.Model):
    """A round of a section. In an arena a round is the games paired at one moment."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PAIRING = "pairing", "Being paired"
        IN_PLAY = "in-play", "In play"
        FINISHED = "finished", "Finished"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    starts_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # django-celery-beat's one-off task that starts the round (a ClockedSchedule).
    start_task = models.OneToOneField("django_celery_beat.PeriodicTask", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    pairing_override = models.JSONField(
        null=True, blank=True,
        help_text="The arbiter's pairings (from a TRF), used instead of the computed ones when the round starts: "
                  "a list of {board, first, second} user ids, second null for a bye.")
    # Set when the round fell due and no pairing met the format's absolute rules: the
    # scheduler leaves it to the organisers (end the section, or pair it by hand).
    unpairable = models.CharField(max_length=400, blank=True,
                                  help_text="Why the round could not be paired when it was due, in words.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["section", "number"], name="one_round_per_number")]
        ordering = ["section", "number"]

    def __str__(self) -> str:
        return f"{self.section} round {self.number}"


class Pairing(models.Model):
    """Two players (or one with a bye) on a board of a round, and what they scored."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the game"
        IN_PLAY = "in-play", "In play"
        FINISHED = "finished", "Finished"

    class Result(models.TextChoices):
        NONE = "", "Not yet"
        FIRST_WON = "1-0", "First player won"
        SECOND_WON = "0-1", "Second player won"
        DRAW = "draw", "Draw"
        BYE = "bye", "Bye"
        FIRST_FORFEIT_WIN = "+-", "First player won by forfeit"
        SECOND_FORFEIT_WIN = "-+", "Second player won by forfeit"
        DOUBLE_FORFEIT = "--", "Both forfeited"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveIntegerField()
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                              help_text="Moves first (seat 0; the first player of a match).")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="+", help_text="Empty: the first player has a bye.")
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="pairing")
    match = models.OneToOneField("games.Match", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="pairing")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    result = models.CharField(max_length=4, choices=Result.choices, blank=True, default=Result.NONE)
    first_points = models.FloatField(null=True, blank=True)
    second_points = models.FloatField(null=True, blank=True)
    bracket_match = models.PositiveIntegerField(null=True, blank=True,
                                                help_text="Elimination: the match id in the pure bracket.")
    bracket = models.CharField(max_length=12, blank=True, help_text='Elimination: "winners", "losers", "final"...')
    bracket_round = models.PositiveSmallIntegerField(null=True, blank=True)
    flags = models.JSONField(default=list, blank=True, help_text="Why this pairing, in words.")
    reasons = models.JSONField(default=list, blank=True,
                               help_text="Why this pairing: league.formats.explain reasons (code, players, data).")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="one_pairing_per_board"),
            models.UniqueConstraint(fields=["section", "bracket_match"], name="one_pairing_per_bracket_match",
                                    condition=models.Q(bracket_match__isnull=False)),
        ]
        ordering = ["round", "board"]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"

    @property
    def is_bye(self) -> bool:
        return self.second_id is None

    #: The end of a flag "<username> resigned before any move: forfeit": a game resigned
    #: before its first move is an unplayed game, scored as a forfeit (competitions.results),
    #: and the pages say why in plain words ("won by forfeit: resigned before any move").
    RESIGNED_UNPLAYED = "resigned before any move: forfeit"
    #: The end of a flag "<username> did not show up: forfeit": a player who never made a
    #: move in the no-show grace, forfeited by the league's sweep or the games' own clock.
    NO_SHOW = "did not show up: forfeit"

    @property
    def resigned_before_any_move(self) -> bool:
        return any(flag.endswith(self.RESIGNED_UNPLAYED) for flag in self.flags)


class PairingPlayer(models.Model):
    """One player's side of a pairing. unique (round, user): one pairing per player per
    round, enforced by the database whatever a twice-delivered task does. It is also
    the per-player result row that standings and tie-breaks read."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="players")
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pairing_players")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="+")
    moves_first = models.BooleanField()
    points = models.FloatField(null=True, blank=True, help_text="Empty until the result is in.")
    played = models.BooleanField(default=True, help_text="False for a bye or a forfeit (FIDE: unplayed).")
    won = models.BooleanField(default=False, help_text="Won over the board (not by forfeit).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "user"], name="one_pairing_per_player_per_round")]
        ordering = ["round", "pairing"]

    def __str__(self) -> str:
        return f"{self.user} in {self.pairing}"


class Standing(models.Model):
    """A section's table, rebuilt after every round (and final when the section ends)."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    points = models.FloatField(default=0)
    tiebreaks = models.JSONField(default=dict, blank=True, help_text="Tie-break name -> value, in order.")
    played = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    draws = models.PositiveSmallIntegerField(default=0)
    losses = models.PositiveSmallIntegerField(default=0)
    final = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["section", "user"], name="one_standing_per_player")]
        ordering = ["section", "rank", "user__username"]

    def __str__(self) -> str:
        return f"{self.rank}. {self.user} ({self.points})"


class Prize(models.Model):
    """A prize of a section: for a final place, or for the best of an age or rating group."""

    class Kind(models.TextChoices):
        PLACE = "place", "Place in the final standings"
        AGE = "age", "Best in an age group"
        RATING = "rating", "Best under a rating"

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="prizes")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLACE)
    place = models.PositiveSmallIntegerField(default=1, help_text="1 = the best of the group, 2 = the next...")
    label = models.CharField(max_length=120, help_text='For instance "1st", "Best U10", "Best under 1400".')
    value = models.CharField(max_length=120, blank=True, help_text="What is won (free text).")
    age_under = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Age prize: birth-year group U<n>.")
    age_over = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Age prize: seniors <n>+.")
    rating_below = models.PositiveIntegerField(null=True, blank=True,
                                               help_text="Rating prize: rating at registration below this.")
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="prizes_won")
    awarded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["section", "kind", "place"]

    def __str__(self) -> str:
        return f"{self.section}: {self.label}"


class CalendarFeed(models.Model):
    """A player's private calendar link (/clubs/calendar/<token>.ics). A calendar app
    can send nothing but the URL, so the secret in it is the only key; the player makes
    a new one to revoke the old (docs/security.md, "Private links and exports")."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user}'s calendar link"
