"""Games in the Django admin: to look, not to play.

Services are the only writers of games, seats, moves and rule sets (a hand-edited
move would break the rule that the cached state equals the log replayed), so those
pages are read-only. Private notes show only their length: only the author reads them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Game, Match, Move, Observer, PrivateNote, RuleSet, Seat


class ReadOnlyMixin:
    """View only: no add, change or delete from the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RuleSet)
class RuleSetAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "name",
        "version",
        "variant",
        "decider",
        "seconds_per_move",
        "seconds_per_game",
        "is_current",
    )
    list_filter = ("variant", "is_current", "decider")
    search_fields = ("name",)


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "ai_level", "clock_ms")
    readonly_fields = fields


class MoveInline(ReadOnlyMixin, admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "move", "commitment", "revealed", "created_at")
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "variant", "status", "ply", "result", "winner_seat", "created_at", "finished_at")
    list_filter = ("status", "variant", "rated")
    search_fields = ("seats__user__username",)
    date_hierarchy = "created_at"
    # The seed stays secret until the game ends, even here.
    exclude = ("seed",)
    inlines = [SeatInline, MoveInline]
    list_select_related = ("rule_set",)


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "rule_set", "kind", "status", "created_at")
    list_filter = ("status", "kind")


@admin.register(Observer)
class ObserverAdmin(admin.ModelAdmin):
    """Delete is allowed: it clears a row left by a socket that died without closing."""

    list_display = ("game", "user", "joined_at")
    readonly_fields = ("game", "user", "channel_name", "joined_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(PrivateNote)
class PrivateNoteAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "author", "length", "updated_at")
    fields = ("game", "author", "length", "updated_at")
    readonly_fields = ("game", "author", "length", "updated_at")
    search_fields = ("author__username",)

    @admin.display(description="characters")
    def length(self, note: PrivateNote) -> int:
        return len(note.text)
