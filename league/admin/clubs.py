"""Admin for clubs and their members."""

from django.contrib import admin

from league.models import Club, ClubMembership


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
