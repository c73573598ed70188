from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordResetForm
from django.db.models import Q
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField  # type: ignore[attr-defined]  # missing from its .pyi

from . import services
from .models import Notice, User


def country_field() -> forms.TypedChoiceField:
    """Required, and starting on an empty choice: no country is picked for anyone
    (the list would otherwise open on its first entry, Afghanistan)."""
    return LazyTypedChoiceField(choices=lambda: [("", "Choose your country"), *countries], required=True)


class SignUpForm(forms.Form):
    username = forms.CharField(
        max_length=150, validators=[services.validate_username],
        help_text="Letters, digits and @/./+/-/_ only.",
    )
    display_name = forms.CharField(max_length=60, required=False, help_text="The name others see. Optional.")
    email = forms.EmailField(required=False)
    password = forms.CharField(
        widget=forms.PasswordInput, min_length=8,
        help_text="8 characters or more. Never sent back to the page: type it again after any error.",
    )
    # Asked neutrally: no hint of any cut-off age.
    date_of_birth = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    country = country_field()


class GuardianForm(forms.Form):
    guardian_name = forms.CharField(max_length=120, label="Parent's or guardian's name")
    guardian_email = forms.EmailField(label="Parent's or guardian's e-mail")


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=60)
    country = country_field()


class NoticeEmailForm(forms.Form):
    email_notices = forms.MultipleChoiceField(
        choices=Notice.Kind.choices, required=False, widget=forms.CheckboxSelectMultiple,
        label="Also by e-mail",
        help_text="Every notice is in your inbox; these are also sent to your e-mail address.",
    )


class PasswordResetRequestForm(PasswordResetForm):
    """Asks for a username or an e-mail address (a child's account may have no e-mail of
    its own: the link then goes to the guardian). The answer is the same whether or not
    anything matched, so the form tells nobody which accounts exist."""

    email = forms.CharField(
        label="Username or e-mail", max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )

    def get_users(self, email: str) -> Iterator[User]:
        given = email.strip()
        found = User.objects.filter(Q(username__iexact=given) | Q(email__iexact=given), is_active=True)
        return (user for user in found if user.has_usable_password())

    def send_mail(self, subject_template_name: str, email_template_name: str, context: dict[str, Any],
                  from_email: str | None, to_email: str, html_email_template_name: str | None = None) -> None:
        # Django's save() names only the account's own address; ours adds the guardian's.
        user = context["user"]
        for recipient in services.password_reset_recipients(user):
            super().send_mail(subject_template_name, email_template_name,
                              {**context, "to_guardian": recipient != user.email}, from_email, recipient,
                              html_email_template_name=html_email_template_name)


class EmailForm(forms.Form):
    email = forms.EmailField(
        label="E-mail", required=False,
        help_text="Where notices you choose and password-reset links go. Leave empty to remove it.",
    )
    password = forms.CharField(
        label="Current password", widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
