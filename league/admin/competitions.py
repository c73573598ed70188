"""Admin for competitions (docs/competitions.md).

Read-only lists: tournaments, sections, entries, rounds and pairings change only
through the competition services (which schedule rounds and create games); the
organiser pages and the moderation console call those. Leagues, seasons and prizes
are plain data an admin may edit.

The admins of tournaments, sections, entries, rounds and pairings are registered by
moderation/admin.py, on subclasses that scope them to the user's clubs and add the
tournament operations; the others register here."""

from django.contrib import admin

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


class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "season", "status", "rating_period", "starts_at", "finished_at")
    list_filter = ("status", "rating_period", "club")
    search_fields = ("name", "club__name")
    date_hierarchy = "starts_at"


class SectionAdmin(ReadOnlyAdmin):
    list_display = ("name", "tournament", "format", "variant", "status", "current_round", "total_rounds",
                    "rated", "capacity", "observer_policy", "starts_at")
    list_filter = ("format", "status", "variant", "rated", "observer_policy")
    search_fields = ("name", "tournament__name")


class EntryAdmin(ReadOnlyAdmin):
    list_display = ("user", "section", "status", "seed", "rating", "late", "eliminated", "registered_at")
    list_filter = ("status", "late", "eliminated")
    search_fields = ("user__username", "section__name", "section__tournament__name")


class RoundAdmin(ReadOnlyAdmin):
    list_display = ("section", "number", "status", "starts_at", "started_at", "finished_at")
    list_filter = ("status",)


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
