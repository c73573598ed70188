"""What moderation keeps: which club owns a house-rule set, observer policies, bans,
who was given the console, and the audit log. Written only by moderation/services.py."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from league.models import Section


class ClubRuleSet(models.Model):
    """A house-rule set (every version of one RuleSet family) owned by a club: the
    club's organisers edit it, and games played under it are the club's games."""

    family = models.UUIDField(unique=True, help_text="games.RuleSet.family")
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="house_rule_sets")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "club house-rule set"

    def __str__(self) -> str:
        return f"{self.family} of {self.club}"


# One vocabulary of observer policies: a section's own field and the console's
# overrides (per club, section or game) take the same values.
WatchPolicy = Section.ObserverPolicy

#: An observer cap's range. Decision: at least 1 (a cap of 0 is the policy "none", said
#: so), at most 100,000 (more than any club's crowd, well inside the integer column).
OBSERVER_CAP_LEAST, OBSERVER_CAP_MOST = 1, 100_000
OBSERVER_CAP_REFUSAL = f"The observer cap is a whole number from 1 to {OBSERVER_CAP_MOST:,}, or empty for no cap."
#: What a policy or a ban without exactly one scope is told (not the constraint's name).
POLICY_SCOPE_REFUSAL = "Choose what the policy is for: a club, a tournament section or one game (exactly one)."
BAN_SCOPE_REFUSAL = "Choose what the ban is from: a club, a tournament or one game (exactly one)."


def _exactly_one_scope(*fields: str) -> Q:
    """A check that exactly one of ``fields`` (foreign keys) is set."""
    options = Q()
    for chosen in fields:
        clause = Q(**{f"{chosen}__isnull": False})
        for other in fields:
            if other != chosen:
                clause &= Q(**{f"{other}__isnull": True})
        options |= clause
    return options


class ObserverPolicy(models.Model):
    """Who may watch, and how many at once, for a club's games, a tournament section's
    or one game's. The most specific row set wins as a whole (docs/moderation.md)."""

    club = models.OneToOneField("league.Club", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="observer_policy")
    section = models.OneToOneField("league.Section", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="observer_policy_override")
    game = models.OneToOneField("games.Game", null=True, blank=True, on_delete=models.CASCADE,
                                related_name="observer_policy")
    policy = models.CharField(max_length=12, choices=WatchPolicy.choices, default=WatchPolicy.ANYONE)
    cap = models.PositiveIntegerField(
        null=True, blank=True, help_text=f"Most observers at once, 1 to {OBSERVER_CAP_MOST:,}; empty: no cap.",
        validators=[MinValueValidator(OBSERVER_CAP_LEAST, OBSERVER_CAP_REFUSAL),
                    MaxValueValidator(OBSERVER_CAP_MOST, OBSERVER_CAP_REFUSAL)])
    invited = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+",
                                     help_text="Who may watch under the 'invited' policy.")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "observer policies"
        constraints = [
            models.CheckConstraint(condition=_exactly_one_scope("club", "section", "game"),
                                   name="observer_policy_has_one_scope",
                                   violation_error_message=POLICY_SCOPE_REFUSAL),
        ]

    def __str__(self) -> str:
        cap = f", at most {self.cap}" if self.cap is not None else ""
        return f"{self.get_policy_display()}{cap} ({self.scope_label})"

    @property
    def scope_label(self) -> str:
        if self.game_id:
            return f"game {self.game_id}"
        if self.section_id:
            return f"section {self.section}"
        return f"club {self.club}"


class ObserverBan(models.Model):
    """A user kept from watching a game, a tournament or every game of a club. Never
    deleted on its own: lifting sets ``lifted_at`` so the record stays. It goes only with
    its scope (a tournament deleted before play), and the audit log keeps it then
    (``signals.on_tournament_deleted``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="observer_bans")
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey("league.Tournament", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="+")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    reason = models.TextField()
    banned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=_exactly_one_scope("club", "tournament", "game"),
                                   name="observer_ban_has_one_scope",
                                   violation_error_message=BAN_SCOPE_REFUSAL),
        ]
        indexes = [models.Index(fields=["user", "lifted_at"])]

    def __str__(self) -> str:
        return f"{self.user} banned from {self.scope_label}"

    @property
    def scope_label(self) -> str:
        if self.game_id:
            return f"game {self.game_id}"
        if self.tournament_id:
            return f"tournament {self.tournament}"
        return f"club {self.club}"

    @property
    def is_active(self) -> bool:
        return self.lifted_at is None


class ConsoleAccess(models.Model):
    """Staff status this app gave for a club role, so it takes back only what it gave."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="console_access")
    granted_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"console access of {self.user}"


class AuditEntry(models.Model):
    """One moderation action or tournament operation: who, what, when, why, on what,
    in which club. Append-only: the admin shows it and nothing edits or deletes it."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    # Kept as text too, so the log still says who after an account is deleted.
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=48, db_index=True)
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    target_type = models.CharField(max_length=64, help_text="app_label.model of the target")
    target_id = models.CharField(max_length=64, blank=True)
    target_repr = models.CharField(max_length=200)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit log"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name or 'system'}: {self.action} {self.target_repr}"
