from django.contrib import admin

from .models import Club, ClubMembership


class MembershipInline(admin.TabularInline):
    model = ClubMembership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "country", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name",)
    inlines = [MembershipInline]


# -- ratings (docs/ratings.md) ---------------------------------------------------------

from django import forms  # noqa: E402
from django.contrib import messages  # noqa: E402
from django.http import HttpResponseRedirect  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils.html import format_html  # noqa: E402

from .ratings import services as rating_services  # noqa: E402
from .models import Rating, RatingAdjustment, RecomputeRun  # noqa: E402

HTMX = ("vendor/htmx-2.0.11.min.js",)


class RatingAdjustForm(forms.ModelForm):
    """A manual adjustment: the new rating and a reason, which is required."""

    new_rating = forms.FloatField(required=False, help_text="Leave empty to change nothing.")
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}),
                             help_text="Required with a new rating; kept in the audit log.")

    class Meta:
        model = Rating
        fields: list[str] = []

    def clean(self) -> dict:
        data = super().clean() or {}
        if data.get("new_rating") is not None and not (data.get("reason") or "").strip():
            self.add_error("reason", "A manual adjustment needs a reason.")
        return data


def _is_superuser(request) -> bool:
    # A recompute rewrites every rating of every club: no club role reaches it.
    return request.user.is_active and request.user.is_superuser


@admin.action(description="Recompute every rating from the game log (Celery task)", permissions=["recompute"])
def recompute_all_ratings(modeladmin, request, queryset) -> HttpResponseRedirect:
    """Run the full recompute as a Celery task and show its progress live (superusers)."""
    run = rating_services.queue_recompute(requested_by=request.user)
    modeladmin.message_user(request, f"Recompute {run.pk} queued.", messages.SUCCESS)
    return HttpResponseRedirect(reverse("admin:league_recomputerun_change", args=[run.pk]))


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    form = RatingAdjustForm
    list_display = ("user", "variant", "list_key", "system", "rating", "rd", "games", "provisional")
    list_filter = ("variant", "list_key", "system", "provisional")
    search_fields = ("user__username",)
    readonly_fields = ("user", "variant", "list_key", "club", "system", "rating", "rd", "volatility", "games",
                       "established", "reached_2400", "provisional", "updated_at")
    fields = readonly_fields + ("new_rating", "reason")
    actions = [recompute_all_ratings]

    def has_recompute_permission(self, request) -> bool:
        return _is_superuser(request)

    def has_add_permission(self, request) -> bool:
        return False  # ratings come from games; adjust an existing one instead

    def save_model(self, request, obj, form, change) -> None:
        new = form.cleaned_data.get("new_rating")
        if new is not None:
            rating_services.adjust_rating(rating=obj, new_rating=new, reason=form.cleaned_data["reason"],
                                          made_by=request.user)


@admin.register(RatingAdjustment)
class RatingAdjustmentAdmin(admin.ModelAdmin):
    """The audit log: read only."""

    list_display = ("created_at", "user", "variant", "list_key", "rating_before", "rating_after", "made_by", "reason")
    list_filter = ("variant", "list_key")
    search_fields = ("user__username", "reason")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RecomputeRun)
class RecomputeRunAdmin(admin.ModelAdmin):
    """Add one to queue a recompute; its page polls the progress (htmx, every second)."""

    list_display = ("pk", "status", "done", "total", "seconds", "requested_by", "created_at")
    readonly_fields = ("progress", "status", "changes_written", "seconds", "error", "requested_by", "created_at",
                       "finished_at")
    fields = readonly_fields  # nothing to fill in: saving queues the run
    actions = [recompute_all_ratings]

    class Media:
        js = HTMX

    @admin.display(description="Progress")
    def progress(self, obj: RecomputeRun) -> str:
        if obj.pk is None:
            return "Save to queue a recompute of every rating."
        url = reverse("league:recompute-progress", args=[obj.pk])
        return format_html('<div hx-get="{}" hx-trigger="load" hx-swap="outerHTML">…</div>', url)

    def has_recompute_permission(self, request) -> bool:
        return _is_superuser(request)

    def has_add_permission(self, request) -> bool:
        return _is_superuser(request)  # adding one queues a recompute

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None and _is_superuser(request)

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            queued = rating_services.queue_recompute(requested_by=request.user)
            obj.pk = queued.pk

    def response_add(self, request, obj, post_url_continue=None):
        return HttpResponseRedirect(reverse("admin:league_recomputerun_change", args=[obj.pk]))


# -- competitions (docs/competitions.md) ------------------------------------------------
# Read-only lists: tournaments, sections, entries, rounds and pairings change only
# through league/competition_services.py (which schedules rounds and creates games);
# the organiser pages and the moderation console call those. Leagues, seasons and
# prizes are plain data an admin may edit.

from .models import (  # noqa: E402
    Entry,
    League,
    Pairing,
    Prize,
    Round,
    Season,
    Section,
    Standing,
    Tournament,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    prepopulated_fields = {"slug": ("name",)}


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "created_at")
    list_filter = ("club",)
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name", "club__name")
    inlines = [SeasonInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "year", "scoring", "starts_on", "ends_on")
    list_filter = ("scoring", "year")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "season", "status", "rating_period", "starts_at", "finished_at")
    list_filter = ("status", "rating_period", "club")
    search_fields = ("name", "club__name")
    date_hierarchy = "starts_at"


@admin.register(Section)
class SectionAdmin(ReadOnlyAdmin):
    list_display = ("name", "tournament", "format", "variant", "status", "current_round", "total_rounds",
                    "rated", "capacity", "observer_policy", "starts_at")
    list_filter = ("format", "status", "variant", "rated", "observer_policy")
    search_fields = ("name", "tournament__name")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "section", "status", "seed", "rating", "late", "eliminated", "registered_at")
    list_filter = ("status", "late", "eliminated")
    search_fields = ("user__username", "section__name", "section__tournament__name")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("section", "number", "status", "starts_at", "started_at", "finished_at")
    list_filter = ("status",)


@admin.register(Pairing)
class PairingAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "first", "second", "result", "first_points", "second_points", "status",
                    "game", "match")
    list_filter = ("status", "result")
    search_fields = ("first__username", "second__username")
    list_select_related = ("round__section__tournament", "first", "second")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ("section", "rank", "user", "points", "played", "wins", "draws", "losses", "final")
    list_filter = ("final",)


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    list_display = ("section", "label", "kind", "place", "age_under", "age_over", "rating_below", "winner")
    list_filter = ("kind",)
    readonly_fields = ("winner", "awarded_at")
