"""The moderation console in the admin (docs/moderation.md).

A club's organisers and arbiters see only their clubs' objects: every admin here
narrows its queryset to the clubs the user moderates (superusers see everything), and
every write goes through moderation.services (or moderation.operations), which checks
the club again and writes the audit log.

The site is moderation.admin_site.ConsoleSite, the project's default admin site, so
``@admin.register`` registers on it, and each model once. games declares the admins of
rule sets, games and observers, and league those of tournaments, sections, rounds,
pairings and entries, without registering them: they are registered here, as
subclasses that add the club scoping and the operations (games keeps knowing nothing
of clubs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from accounts.errors import ServiceError
from accounts.http import signed_in_user
from accounts.number_fields import hold_to
from games import ownership
from games.admin import GameAdmin, ObserverAdmin, RuleSetAdmin, RuleSetForm, refusal_on_form
from games.models import Game, Observer, RuleSet
from league.admin.competitions import (
    EntryAdmin,
    GameEventListFilter,
    PairingAdmin,
    RoundAdmin,
    SectionAdmin,
    TournamentAdmin,
)
from league.competitions import corrections, refusals
from league.competitions.refusals import Refusal
from league.models import ORGANISER_ROLES, Club, Entry, Pairing, Round, Section, Tournament

from . import operations, permissions, selectors, services
from .models import (
    OBSERVER_CAP_LEAST,
    OBSERVER_CAP_MOST,
    OBSERVER_CAP_REFUSAL,
    AuditEntry,
    ObserverBan,
    ObserverPolicy,
)

if TYPE_CHECKING:
    from games.admin import Fieldsets

    # The mixins below are combined with a ModelAdmin in each admin's bases; mypy checks them as one.
    AdminMixinBase = admin.ModelAdmin[Any]
else:
    AdminMixinBase = object


class ClubScopedMixin(AdminMixinBase):
    """Narrows the changelist, change view and actions to the user's clubs."""

    #: selectors function: clubs -> the queryset of this model they may see
    scope_to: Callable[[QuerySet[Club]], QuerySet[Any]]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        clubs = permissions.moderated_clubs(request.user)
        if clubs is None:
            return queryset
        return queryset.filter(pk__in=type(self).scope_to(clubs).values("pk"))


def confirm_with_reason(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    title: str,
    button: str,
    run: Callable[[Any, str], Any],
    reason_required: bool = True,
    note: Callable[[Any], str] | None = None,
    refusal: Callable[[Any], Refusal | None] | None = None,
) -> HttpResponse | None:
    """An admin action's confirmation step: list what is selected, ask for a reason,
    and run ``run(obj, reason)`` for each once confirmed. A refusal (ServiceError) of
    one object is reported and the others still go through. ``note(obj)``: what the
    action does to ``obj`` beyond itself, said under it before the confirmation.
    ``refusal(obj)``: why the service would refuse ``obj``, said at once, before any
    reason is asked; such objects are left out (none left: back to the list)."""
    if refusal is not None:
        refused = [(obj, found) for obj in queryset if (found := refusal(obj)) is not None]
        if refused:
            if request.POST.get("confirm") != "yes":
                for obj, found in refused:
                    modeladmin.message_user(request, f"{obj}: {found.reason}", messages.ERROR)
            queryset = queryset.exclude(pk__in=[obj.pk for obj, _ in refused])
            if not queryset.exists():
                return None
    form = ReasonForm(request.POST if request.POST.get("confirm") == "yes" else None, required=reason_required)
    if form.is_bound and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                run(obj, form.cleaned_data["reason"])
                done += 1
            except ServiceError as err:
                modeladmin.message_user(request, f"{obj}: {err.message}", messages.ERROR)
        if done:
            modeladmin.message_user(request, f"{title}: done for {done}.", messages.SUCCESS)
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "button": button,
        "objects": [(obj, note(obj) if note else "") for obj in queryset],
        "form": form,
        "action": request.POST.get("action", ""),
        "selected": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME),
        "select_across": "1" if request.POST.get("select_across") == "1" else "0",
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/moderation/confirm_action.html", context)


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), help_text="Kept in the audit log.")

    def __init__(self, *args: Any, required: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required


# -- house-rule sets -----------------------------------------------------------------------


class ClubRuleSetForm(RuleSetForm):
    """The rule-set form with the club that will own a new set."""

    club_choices: QuerySet[Club] = Club.objects.none()
    club_required = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:
            self.fields["club"] = forms.ModelChoiceField(
                queryset=self.club_choices, required=self.club_required,
                help_text="The club whose organisers keep this set; empty: the platform's own (superusers).",
            )


@admin.register(RuleSet)
class ModeratedRuleSetAdmin(ClubScopedMixin, RuleSetAdmin):
    scope_to = staticmethod(selectors.rule_sets_of)
    list_display = (*RuleSetAdmin.list_display, "club")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        base = super().get_form(request, obj, change, **kwargs)
        clubs = permissions.moderated_clubs(request.user, roles=ORGANISER_ROLES)
        return type(base.__name__, (ClubRuleSetForm, base), {
            "club_choices": Club.objects.all() if clubs is None else clubs,
            "club_required": clubs is not None,
        })

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Fieldsets:
        fieldsets = super().get_fieldsets(request, obj)
        first = fieldsets[0][1]
        first["fields"] = (*first["fields"], "club") if obj is None else (*first["fields"], "owner")
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return (*super().get_readonly_fields(request, obj), "owner")

    @admin.display(description="club")
    def club(self, rule_set: RuleSet) -> str:
        owner = selectors.club_of_rule_set(rule_set)
        return str(owner) if owner else "—"

    @admin.display(description="Kept by")
    def owner(self, rule_set: RuleSet) -> str:
        keeper = ownership.keeper_of(rule_set)
        if keeper.kind == ownership.CLUB:
            return str(keeper.club)
        if keeper.kind == ownership.PLAYER:
            return "Its author (a player's own set)"
        return "The platform (its standard set)" if rule_set.is_standard else "The platform"

    def save_rule_set(self, request: HttpRequest, form: Any, rule_set: RuleSet | None) -> RuleSet:
        club = form.cleaned_data.get("club") if rule_set is None else None
        return services.save_house_rules(actor=signed_in_user(request), fields=form.service_fields(), rule_set=rule_set,
                                         club=club)


# -- games and their observers ---------------------------------------------------------------


@admin.register(Game)
class ModeratedGameAdmin(ClubScopedMixin, GameAdmin):
    scope_to = staticmethod(selectors.games_of)
    # By tournament and by its name (games knows nothing of tournaments: league's filter, added here).
    search_help_text = "A player's username, or a tournament's name (older events are found here)."

    def get_list_filter(self, request: HttpRequest) -> Any:
        return (GameEventListFilter, *super().get_list_filter(request))

    def get_search_fields(self, request: HttpRequest) -> Any:
        return (*super().get_search_fields(request), "pairing__section__tournament__name",
                "match__pairing__section__tournament__name")


@admin.register(Observer)
class ModeratedObserverAdmin(ClubScopedMixin, ObserverAdmin):
    """Who is watching now; kick and ban from here (each with a reason, confirmed)."""

    scope_to = staticmethod(selectors.observers_of)
    actions = ["kick", "ban_from_game", "ban_from_tournament", "ban_from_club"]

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # a kick removes the row and closes the socket
        return actions

    @admin.action(description="Kick: close their sockets now", permissions=["change"])
    def kick(self, request: HttpRequest, queryset: QuerySet[Observer]) -> HttpResponse | None:
        return confirm_with_reason(
            self, request, queryset, title="Kick observers", button="Kick",
            run=lambda observer, reason: services.kick_observer(actor=signed_in_user(request), observer=observer, reason=reason),
        )

    def _ban(self, request: HttpRequest, queryset: QuerySet[Observer], scope: str) -> HttpResponse | None:
        banned: set[int | None] = set()  # users this action banned

        def ban(observer: Observer, reason: str) -> None:
            try:
                services.ban_observer(actor=signed_in_user(request), user=observer.user, game=observer.game,
                                      scope=scope, reason=reason)
            except ServiceError as err:
                # A viewer's several tabs are several rows: the first one's ban covers the rest.
                if err.code == "already-banned" and observer.user_id in banned:
                    return
                raise
            banned.add(observer.user_id)

        return confirm_with_reason(self, request, queryset, title=f"Ban observers from the {scope}", button="Ban",
                                   run=ban)

    @admin.action(description="Ban from this game (and kick)", permissions=["change"])
    def ban_from_game(self, request: HttpRequest, queryset: QuerySet[Observer]) -> HttpResponse | None:
        return self._ban(request, queryset, "game")

    @admin.action(description="Ban from this tournament (and kick)", permissions=["change"])
    def ban_from_tournament(self, request: HttpRequest, queryset: QuerySet[Observer]) -> HttpResponse | None:
        return self._ban(request, queryset, "tournament")

    @admin.action(description="Ban from the club's games (and kick)", permissions=["change"])
    def ban_from_club(self, request: HttpRequest, queryset: QuerySet[Observer]) -> HttpResponse | None:
        return self._ban(request, queryset, "club")


# -- observer policies and bans ----------------------------------------------------------------


def _one_scope(form: forms.ModelForm, names: tuple[str, ...]) -> bool:
    """Whether exactly one scope is chosen. If not, the model's check constraint says so
    in words when the form validates the model (adding ours too would say it twice)."""
    return sum(form.cleaned_data.get(name) is not None for name in names) == 1


class ActorForm(forms.ModelForm):
    """An add form whose save is a service's, tried in ``clean`` as the signed-in user
    (``actor``, set by ``ActorFormMixin.get_form``): a refusal shows on the form."""

    actor: Any = None


class ActorFormMixin(AdminMixinBase):
    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        base = super().get_form(request, obj, change, **kwargs)  # type: ignore[misc]
        return type(base.__name__, (base,), {"actor": signed_in_user(request)})


class ObserverPolicyForm(ActorForm):
    class Meta:
        model = ObserverPolicy
        fields = ("club", "section", "game", "policy", "cap", "invited")
        help_texts = {"club": "Choose exactly one of club, section or game."}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "cap" in self.fields:  # not on a page the user may only view
            hold_to(self.fields["cap"], OBSERVER_CAP_LEAST, OBSERVER_CAP_MOST, OBSERVER_CAP_REFUSAL)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if _one_scope(self, ("club", "section", "game")) and not self.errors:
            refusal_on_form(self, lambda: set_policy(self.actor, data),
                            fields={"bad-cap": "cap", "bad-invited": "invited"})
        return data


def set_policy(actor: Any, data: dict[str, Any]) -> ObserverPolicy:
    return services.set_observer_policy(
        actor=actor, policy=data["policy"], cap=data.get("cap"), invited=data.get("invited") or [],
        club=data.get("club"), section=data.get("section"), game=data.get("game"),
    )


@admin.register(ObserverPolicy)
class ObserverPolicyAdmin(ActorFormMixin, ClubScopedMixin, admin.ModelAdmin):
    scope_to = staticmethod(selectors.policies_of)
    form = ObserverPolicyForm
    list_display = ("scope_label", "policy", "cap", "updated_by", "updated_at")
    list_filter = ("policy",)
    raw_id_fields = ("section", "game", "invited")
    actions = ["remove_policies"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "club":
            clubs = permissions.moderated_clubs(request.user, roles=ORGANISER_ROLES)
            kwargs["queryset"] = Club.objects.all() if clubs is None else clubs
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def save_model(self, request: HttpRequest, obj: ObserverPolicy, form: Any, change: bool) -> None:
        obj.pk = set_policy(signed_in_user(request), form.cleaned_data).pk  # tried in the form's clean

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """The service saved the invited list with the policy."""

    def delete_model(self, request: HttpRequest, obj: ObserverPolicy) -> None:
        services.remove_observer_policy(actor=signed_in_user(request), policy=obj)

    @admin.action(description="Remove: the less specific policy applies again", permissions=["delete"])
    def remove_policies(self, request: HttpRequest, queryset: QuerySet[ObserverPolicy]) -> HttpResponse | None:
        return confirm_with_reason(
            self, request, queryset, title="Remove observer policies", button="Remove", reason_required=False,
            run=lambda policy, reason: services.remove_observer_policy(actor=signed_in_user(request), policy=policy),
        )


class ObserverBanForm(ActorForm):
    class Meta:
        model = ObserverBan
        fields = ("user", "club", "tournament", "game", "reason")
        help_texts = {"club": "Choose exactly one of club, tournament or game."}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if _one_scope(self, ("club", "tournament", "game")) and not self.errors and self.instance.pk is None:
            refusal_on_form(self, lambda: ban(self.actor, data))
        return data


def ban(actor: Any, data: dict[str, Any]) -> ObserverBan:
    return services.ban_user(actor=actor, user=data["user"], reason=data["reason"], club=data.get("club"),
                             tournament=data.get("tournament"), game=data.get("game"))


@admin.register(ObserverBan)
class ObserverBanAdmin(ActorFormMixin, ClubScopedMixin, admin.ModelAdmin):
    """Bans are added here or from the observers' list, lifted by an action, never
    edited or deleted: the record stays."""

    scope_to = staticmethod(selectors.bans_of)
    form = ObserverBanForm
    list_display = ("user", "scope_label", "reason", "banned_by", "created_at", "lifted_at")
    list_filter = (("lifted_at", admin.EmptyFieldListFilter), "created_at")
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user", "tournament", "game")
    actions = ["lift"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "club":
            clubs = permissions.moderated_clubs(request.user)
            kwargs["queryset"] = Club.objects.all() if clubs is None else clubs
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        return ("user", "club", "tournament", "game", "reason", "banned_by", "created_at", "lifted_at", "lifted_by")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_readonly_fields(request, obj) or super().get_fields(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ObserverBan, form: Any, change: bool) -> None:
        if change:
            return  # nothing is editable on a ban
        obj.pk = ban(signed_in_user(request), form.cleaned_data).pk  # tried in the form's clean

    @admin.action(description="Lift the selected bans", permissions=["change"])
    def lift(self, request: HttpRequest, queryset: QuerySet[ObserverBan]) -> HttpResponse | None:
        return confirm_with_reason(
            self, request, queryset.filter(lifted_at__isnull=True), title="Lift bans", button="Lift",
            reason_required=False,
            run=lambda ban, reason: services.lift_ban(actor=signed_in_user(request), ban=ban, reason=reason),
        )


# -- the audit log -----------------------------------------------------------------------------


@admin.register(AuditEntry)
class AuditEntryAdmin(ClubScopedMixin, admin.ModelAdmin):
    """Read only: nobody edits or deletes the trail, superusers included."""

    scope_to = staticmethod(selectors.audit_of)
    list_display = ("created_at", "actor_name", "action", "target_repr", "club", "reason")
    list_filter = ("action", "club", "created_at")
    search_fields = ("actor_name", "target_repr", "reason", "target_id")
    date_hierarchy = "created_at"
    readonly_fields = ("created_at", "actor", "actor_name", "action", "club", "target_type", "target_id",
                       "target_repr", "reason", "details")
    fields = readonly_fields

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# ClubRuleSet rows are shown as the rule sets' "club" column; nothing to edit by hand, so
# no admin. The Celery schedules are django-celery-beat's own admins, for superusers
# only: moderation/permissions.py (SuperusersOnlyAppsBackend) refuses their permissions to
# everyone else.


# -- tournament operations (moderation/operations.py) ------------------------------------------
# league's competition rows, shown per club and read-only; the operations are actions
# with a confirmation step. league/admin/competitions.py declares the admins of these models
# (columns, filters, search): they are extended here.


class ReadOnlyFieldsMixin(AdminMixinBase):
    """Every field shown, none edited: the operations are the actions."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The model permission (league's own admin may say read-only): it opens the
        # actions; the fields stay read-only.
        return admin.ModelAdmin.has_change_permission(self, request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(Tournament)
class ModeratedTournamentAdmin(ClubScopedMixin, ReadOnlyFieldsMixin, TournamentAdmin):
    scope_to = staticmethod(lambda clubs: Tournament.objects.filter(club__in=clubs))


@admin.register(Section)
class ModeratedSectionAdmin(ClubScopedMixin, ReadOnlyFieldsMixin, SectionAdmin):
    scope_to = staticmethod(lambda clubs: Section.objects.filter(tournament__club__in=clubs))
    actions = ["pause", "resume"]

    def get_list_display(self, request: HttpRequest) -> Any:
        return (*super().get_list_display(request), "paused_at")

    def _unchanged(self, request: HttpRequest, queryset: QuerySet[Section], left: QuerySet[Section],
                   words: str) -> bool:
        """Say of each selected section the action leaves as it is that nothing changed (on
        the confirmed step, or at once when none is left to act on); True when none is left."""
        if request.POST.get("confirm") == "yes" or not left.exists():
            for section in queryset.exclude(pk__in=left.values("pk")):
                self.message_user(request, f"{section.name} {words}: nothing changed.", messages.WARNING)
        return not left.exists()

    @admin.action(description="Pause (start nothing, forfeit nobody)", permissions=["change"])
    def pause(self, request: HttpRequest, queryset: QuerySet[Section]) -> HttpResponse | None:
        if self._unchanged(request, queryset, queryset.filter(paused_at__isnull=True), "is already paused"):
            return None
        return confirm_with_reason(
            self, request, queryset.filter(paused_at__isnull=True), title="Pause sections", button="Pause",
            run=lambda section, reason: operations.pause_section(actor=signed_in_user(request), section_id=section.pk,
                                                                 reason=reason),
        )

    @admin.action(description="Resume (start what fell due)", permissions=["change"])
    def resume(self, request: HttpRequest, queryset: QuerySet[Section]) -> HttpResponse | None:
        if self._unchanged(request, queryset, queryset.filter(paused_at__isnull=False), "is not paused"):
            return None
        return confirm_with_reason(
            self, request, queryset.filter(paused_at__isnull=False), title="Resume sections", button="Resume",
            reason_required=False,
            run=lambda section, reason: operations.resume_section(actor=signed_in_user(request), section_id=section.pk,
                                                                  reason=reason),
        )


@admin.register(Round)
class ModeratedRoundAdmin(ClubScopedMixin, ReadOnlyFieldsMixin, RoundAdmin):
    scope_to = staticmethod(lambda clubs: Round.objects.filter(section__tournament__club__in=clubs))
    actions = ["start_now", "re_pair"]

    @admin.action(description="Start now (pair and create the games)", permissions=["change"])
    def start_now(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        return confirm_with_reason(
            self, request, queryset, title="Start rounds now", button="Start now", reason_required=False,
            run=lambda round_, reason: operations.start_round_now(actor=signed_in_user(request), round_id=round_.pk,
                                                                   reason=reason),
        )

    @admin.action(description="Pair again (the current round, before any move)", permissions=["change"])
    def re_pair(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        return confirm_with_reason(
            self, request, queryset, title="Pair rounds again", button="Pair again",
            run=lambda round_, reason: operations.repair_round(actor=signed_in_user(request), round_id=round_.pk, reason=reason),
        )


def _pairing_action(name: str, description: str, call: Callable[..., Any],
                    refusal: Callable[[Pairing], Refusal | None] | None = None, **kwargs: Any) -> Any:
    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Pairing]) -> Any:
        return confirm_with_reason(
            modeladmin, request, queryset.select_related("section"), title=description, button="Confirm",
            run=lambda pairing, reason: call(actor=signed_in_user(request), pairing_id=pairing.pk, reason=reason, **kwargs),
            refusal=refusal,
        )

    action.__name__ = name
    return admin.action(description=description, permissions=["change"])(action)


def _correction_action(name: str, description: str, result: str) -> Any:
    """A correction says, under each pairing before the confirmation and in a message
    once done, what it leaves as it is: the rounds paired since on the old scores are
    not paired again (corrections.correction_note; an organiser walkthrough corrected a
    round-2 result with round 3 paired, and nothing said so)."""

    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Pairing]) -> Any:
        def run(pairing: Pairing, reason: str) -> None:
            corrected = operations.correct_result(actor=signed_in_user(request), pairing_id=pairing.pk,
                                                  result=result, reason=reason)
            after = corrections.correction_note(corrected, done=True)
            level = messages.WARNING if corrections.later_rounds_paired(corrected) else messages.INFO
            now = {"1-0": f"{corrected.first} won (1-0)", "0-1": f"{corrected.second} won (0-1)"}.get(
                corrected.result, "a draw")
            modeladmin.message_user(request, f"{corrected}: corrected, now {now}. {after}", level)

        def note(pairing: Pairing) -> str:  # who played, and the result being replaced
            return f"{pairing.first} v {pairing.second}, scored {pairing.result or 'nothing yet'}. " + \
                corrections.correction_note(pairing)

        return confirm_with_reason(
            modeladmin, request, queryset.select_related("round", "section", "game", "first", "second"),
            title=description, button="Confirm", run=run, note=note, refusal=refusals.correction_refusal,
        )

    action.__name__ = name
    return admin.action(description=description, permissions=["change"])(action)


@admin.register(Pairing)
class ModeratedPairingAdmin(ClubScopedMixin, ReadOnlyFieldsMixin, PairingAdmin):
    scope_to = staticmethod(lambda clubs: Pairing.objects.filter(section__tournament__club__in=clubs))
    actions = [
        _pairing_action("forfeit_first", "Forfeit: the first player loses", operations.forfeit, loser="first"),
        _pairing_action("forfeit_second", "Forfeit: the second player loses", operations.forfeit, loser="second"),
        _pairing_action("forfeit_both", "Forfeit: both lose", operations.forfeit, loser="both",
                        refusal=refusals.tie_refusal),
        _pairing_action("adjudicate_first", "Adjudicate: the first player wins (1-0)", operations.adjudicate,
                        result="1-0"),
        _pairing_action("adjudicate_second", "Adjudicate: the second player wins (0-1)", operations.adjudicate,
                        result="0-1"),
        _pairing_action("adjudicate_draw", "Adjudicate: a draw", operations.adjudicate, result="draw",
                        refusal=refusals.tie_refusal),
        _correction_action("correct_first", "Correct the result: the first player won (1-0)", "1-0"),
        _correction_action("correct_second", "Correct the result: the second player won (0-1)", "0-1"),
        _correction_action("correct_draw", "Correct the result: a draw", "draw"),
    ]


@admin.register(Entry)
class ModeratedEntryAdmin(ClubScopedMixin, ReadOnlyFieldsMixin, EntryAdmin):
    scope_to = staticmethod(lambda clubs: Entry.objects.filter(section__tournament__club__in=clubs))
    actions = ["withdraw"]

    @admin.action(description="Withdraw from the section", permissions=["change"])
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
        return confirm_with_reason(
            self, request, queryset.exclude(status=Entry.Status.WITHDRAWN), title="Withdraw players",
            button="Withdraw",
            run=lambda entry, reason: operations.withdraw_player(actor=signed_in_user(request), entry_id=entry.pk, reason=reason),
        )
