from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import GuardianConsent, Notice, Profile, User


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "is_active", "is_staff", "date_joined")


@admin.register(GuardianConsent)
class GuardianConsentAdmin(admin.ModelAdmin):
    list_display = ("user", "guardian_name", "guardian_email", "requested_at", "granted_at", "revoked_at")
    search_fields = ("user__username", "guardian_name", "guardian_email")
    readonly_fields = ("requested_at",)


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """Read-only: notices are written by the services that cause them (accounts/notices.py)."""

    list_display = ("recipient", "kind", "message", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("recipient__username", "cause", "message")
    list_select_related = ("recipient",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
