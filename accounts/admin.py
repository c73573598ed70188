from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import GuardianConsent, Profile, User


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
