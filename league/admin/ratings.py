"""Admin for ratings (docs/ratings.md): manual adjustments with a reason, the audit log,
and full recomputes with their live progress."""

from django import forms
from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from games.admin import VariantListFilter
from league.models import Rating, RatingAdjustment, RecomputeRun
from league.ratings import services as rating_services

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
    list_filter = (VariantListFilter, "list_key", "system", "provisional")
    search_fields = ("user__username",)
    readonly_fields = ("user", "variant", "list_key", "club", "system", "rating", "rd", "volatility", "games",
                       "established", "reached_2400", "provisional", "updated_at")
    fields = readonly_fields + ("new_rating", "reason")
    actions = [recompute_all_ratings]

    def has_recompute_permission(self, request) -> bool:
        # A recompute rewrites every rating of every club: superusers only (moderation/permissions.py).
        return request.user.has_perm("league.recompute_ratings")

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
    list_filter = (VariantListFilter, "list_key")
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
        return request.user.has_perm("league.recompute_ratings")

    def has_add_permission(self, request) -> bool:
        return request.user.has_perm("league.recompute_ratings")  # adding one queues a recompute

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None and request.user.has_perm("league.recompute_ratings")

    def save_model(self, request, obj, form, change) -> None:
        if not change:
            queued = rating_services.queue_recompute(requested_by=request.user)
            obj.pk = queued.pk

    def response_add(self, request, obj, post_url_continue=None):
        return HttpResponseRedirect(reverse("admin:league_recomputerun_change", args=[obj.pk]))
