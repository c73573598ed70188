from __future__ import annotations

from django import forms
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField  # type: ignore[attr-defined]  # missing from its .pyi

from . import services
from .models import Notice


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
