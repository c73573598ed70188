from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from . import services
from .errors import ServiceError
from .models import GuardianConsent, Notice, Profile, User


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [ProfileInline]
    list_display = ("username", "email", "is_active", "is_staff", "date_joined")

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            services.close_account_sockets(user_id=obj.pk)  # "Active" unticked: the sockets go too


@admin.register(GuardianConsent)
class GuardianConsentAdmin(admin.ModelAdmin):
    list_display = ("user", "guardian_name", "guardian_email", "requested_at", "granted_at", "revoked_at")
    search_fields = ("user__username", "guardian_name", "guardian_email")
    readonly_fields = ("requested_at",)
    actions = ["withdraw_consent", "send_again"]

    @admin.action(description="Withdraw consent (close the account)")
    def withdraw_consent(self, request, queryset):
        """A guardian wrote to withdraw their consent (the consent page says to)."""
        for consent in queryset:
            services.withdraw_guardian_consent(consent=consent)
        self.message_user(request, f"{queryset.count()} consent(s) withdrawn; those accounts are closed.")

    @admin.action(description="Send the consent link again (14 more days)")
    def send_again(self, request, queryset):
        sent = 0
        for consent in queryset.select_related("user__profile"):
            try:
                services.send_consent_request_again(consent=consent, url_base=settings.SITE_URL)
            except ServiceError as err:
                self.message_user(request, f"{consent}: {err.message}", level=messages.WARNING)
            else:
                sent += 1
        self.message_user(request, f"{sent} link(s) sent again.")


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
