"""Admin for competitions (docs/competitions.md).

Read-only lists: tournaments, sections, entries, rounds and pairings change only
through the competition services (which schedule rounds and create games); the
organiser pages and the moderation console call those. Leagues, seasons and prizes
are plain data an admin may edit.

The admins of tournaments, sections, entries, rounds and pairings are registered by
moderation/admin.py, on subclasses that scope them to the user's clubs and add the
tournament operations; the others register here."""

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.errors import ServiceError
from games.admin import VariantListFilter, VariantNameColumn
from league import competitions
from league.competitions import audit
from league.competitions import seasons as season_services
from league.competitions.formats import FORMAT_SETTINGS, format_of
from league.competitions.season_forms import FIELD_OF as SEASON_FIELD_OF
from league.models import (
    League,
    Prize,
    Season,
    Standing,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeasonAdminForm(forms.ModelForm):
    """A season as the console edits it is held to the site's checks (check_season: a
    year of 1900-2999, days in order and apart from the league's other seasons, a
    place-points table that falls): the console saved a year of 5, which the site's
    form refuses (a walkthrough). The refusal reads beside its field."""

    class Meta:
        model = Season
        fields = ["league", "name", "slug", "year", "starts_on", "ends_on", "scoring", "place_points"]
        widgets = {"place_points": forms.Textarea(attrs={"rows": 2})}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        league = data.get("league") or getattr(self.instance, "league", None)
        if self.errors or league is None:
            return data
        try:
            kept = season_services.check_season(
                league=league, name=data.get("name", ""), starts_on=data.get("starts_on"),
                ends_on=data.get("ends_on"), year=data.get("year"), scoring=data.get("scoring", ""),
                place_points=data.get("place_points") or [], season=self.instance if self.instance.pk else None)
        except ServiceError as err:
            raise ValidationError({SEASON_FIELD_OF.get(err.code, "name"): err.message}, code=err.code) from None
        data.update(kept)  # as the site keeps them (the name trimmed, the points as numbers)
        return data


class SeasonInline(admin.StackedInline):  # stacked: a table's row of eight fields was 2,000 px wide
    model = Season
    form = SeasonAdminForm
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
    form = SeasonAdminForm
    list_display = ("name", "league", "year", "scoring", "starts_on", "ends_on")
    list_filter = ("scoring", "year")
    prepopulated_fields = {"slug": ("name",)}


class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "season", "status", "rating_period", "starts_at", "finished_at")
    list_filter = ("status", "rating_period", "club")
    search_fields = ("name", "club__name")
    date_hierarchy = "starts_at"


class SectionAdmin(VariantNameColumn, ReadOnlyAdmin):
    list_display = ("name", "tournament", "format", "variant_name", "status", "current_round", "total_rounds",
                    "rated", "capacity", "observer_policy", "starts_at")
    list_filter = ("format", "swiss_system", "acceleration", "status", VariantListFilter, "rated", "observer_policy")
    search_fields = ("name", "tournament__name")

    def get_fields(self, request, obj=None):
        """A section's page shows its own format's settings (as declared), not the other formats'."""
        fields = super().get_fields(request, obj)
        if obj is None:
            return fields
        others = {s.name for s in FORMAT_SETTINGS} - {s.name for s in format_of(obj).settings}
        return [name for name in fields if name not in others]


class EntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "section", "status", "seed", "rating", "late", "eliminated", "paused_at", "registered_at")
    list_filter = ("status", "late", "eliminated")
    search_fields = ("user__username", "section__name", "section__tournament__name")


class RoundAdmin(ReadOnlyAdmin):
    list_display = ("section", "number", "status", "starts_at", "started_at", "finished_at")
    list_filter = ("status",)


class RoundNumberListFilter(admin.AllValuesFieldListFilter):
    """A pairing's round number, titled "By round" (the field's own name says "number")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = "round"


class PairingAdmin(ReadOnlyAdmin):
    list_display = ("round", "board", "first", "second", "result", "first_points", "second_points", "status",
                    "game", "match")
    # By event (the choices only those of the pairings the list may show: the console
    # narrows it to the organiser's clubs), round and player, by username or name. The
    # section page's "Correct a result in the console" opens it filtered to one round.
    list_filter = (("section__tournament", admin.RelatedOnlyFieldListFilter),
                   ("section", admin.RelatedOnlyFieldListFilter), ("round__number", RoundNumberListFilter),
                   "status", "result")
    search_fields = ("first__username", "second__username", "first__profile__display_name",
                     "second__profile__display_name")
    list_select_related = ("round__section__tournament", "first", "second")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ("section", "rank", "user", "points", "played", "wins", "draws", "losses", "final")
    list_filter = ("final",)


class _Trial(Exception):
    """Undoes a trial run of a service (its savepoint rolls back)."""


class PrizeForm(forms.ModelForm):
    """A new prize is judged by the service (add_prize) in a trial undone at once, so a
    refusal reads as its sentence beside the form; save_model then makes it for real."""

    class Meta:
        model = Prize
        fields = ["section", "label", "kind", "place", "value", "age_under", "age_over", "rating_below"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.pk is None and not self.errors:
            try:
                with transaction.atomic():
                    competitions.add_prize(**_prize_fields(data))
                    raise _Trial
            except _Trial:
                pass
            except ServiceError as err:
                raise ValidationError(err.message, code=err.code) from None
        return data


def _prize_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {name: data.get(name) for name in ("section", "label", "kind", "place", "age_under", "age_over",
                                              "rating_below")} | {"value": data.get("value") or ""}


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    form = PrizeForm
    list_display = ("section", "label", "kind", "place", "age_under", "age_over", "rating_below", "winner")
    list_filter = ("kind",)
    readonly_fields = ("winner", "awarded_at")

    def save_model(self, request, obj: Prize, form, change: bool) -> None:
        """A new prize goes through the service (its checks, and the audit log); an edit
        is audited too."""
        if change:
            super().save_model(request, obj, form, change)
            audit.record(actor=request.user, action="prize.change", target=obj, club=obj.section.tournament.club,
                         details={"section": obj.section_id, "changed": sorted(form.changed_data)})
            return
        made = competitions.add_prize(**_prize_fields(form.cleaned_data), by=request.user)
        obj.pk = made.pk
