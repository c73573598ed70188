from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth import forms as auth_forms
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest
from django_countries import countries
from django_countries.fields import LazyTypedChoiceField  # type: ignore[attr-defined]  # missing from its .pyi

from . import age, dispatch, notices, passwords, services
from .backends import AwaitingConsent, ask_about_consent
from .errors import ServiceError
from .models import Notice, User


class BirthDateField(forms.DateField):
    """A date of birth as the page's date box sends it, ``YYYY-MM-DD``, and in no other
    spelling (accounts.age.parse_plain_date): Django's own DateField also took
    ``01/02/2013`` (read month first), ``2013-1-1``, ``Jan 1 2013`` and digits other than
    ASCII ones. Spaces around it are dropped, as every form field drops them."""

    default_error_messages = {"invalid": "Enter the date as year-month-day, YYYY-MM-DD.",
                              "no-such-day": "There is no such day in the calendar."}

    def to_python(self, value: Any) -> date | None:
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value.date()
        if isinstance(value, date):
            return value
        text = str(value).strip()
        parsed = age.parse_plain_date(text)
        if parsed is None:
            code = "no-such-day" if age.PLAIN_DATE.fullmatch(text) else "invalid"
            raise forms.ValidationError(self.error_messages[code], code=code)
        return parsed


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
    email = forms.EmailField(label="E-mail", required=False,  # the site's spelling, as on the profile
                             error_messages={"invalid": "Enter a valid e-mail address."})
    password = forms.CharField(
        widget=forms.PasswordInput, min_length=8, strip=False,
        help_text="8 characters or more. Never sent back to the page: type it again after any error.",
    )
    # A page sent back after a post (an error, or the guardian's details asked for) shows
    # the password box empty, and says so beside it (templates/accounts/_field.html).
    # Decision: not PasswordInput(render_value=True), which would write the password
    # into the page's HTML (cached, visible in "view source" on a family's shared device).
    # Asked neutrally: no hint of any cut-off age. The help says what may come next
    # without naming an age, so a child is not surprised by the guardian step and is not
    # told which year to type to skip it (docs/accounts.md).
    date_of_birth = BirthDateField(
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="If your age and country need a parent's or guardian's consent, the next step asks for "
                  "their name and e-mail, and your account opens when they confirm.",
    )
    country = country_field()

    # The names are checked with the other fields, so every field's problem is told at
    # once, beside it; accounts.services.register_player checks them again.
    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        try:
            services.refuse_taken_username(username)
        except ServiceError as err:
            raise forms.ValidationError(err.message, code=err.code) from None
        return username

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        name = cleaned.get("display_name") or cleaned.get("username")  # none given: the username
        if name and not self.has_error("display_name"):
            try:
                services.checked_display_name(name, user=None)
            except ServiceError as err:
                self.add_error("display_name", err.message)
        return cleaned


class LoginForm(auth_forms.AuthenticationForm):
    """Django's log-in form, which also says when the username and password are right
    but the account is waiting for its guardian's consent (accounts.backends). A wrong
    password, or a deactivated account, gets Django's one message: nothing revealed."""

    def clean(self) -> dict[str, Any]:
        if self.request is not None:
            ask_about_consent(self.request)
        try:
            return super().clean()
        except AwaitingConsent as waiting:
            raise forms.ValidationError(
                services.awaiting_consent_message(waiting.consent), code="awaiting-consent"
            ) from None


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

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only the kinds that can concern this player (accounts.notices.email_choices).
        self.fields["email_notices"].choices = notices.email_choices(user)  # type: ignore[attr-defined]


class PasswordResetRequestForm(forms.Form):
    """Asks for a username or an e-mail address (the player's, or a consenting guardian's).
    ``save`` only queues the task that looks the accounts up and mails them
    (accounts/passwords.py): the page answers alike, and as fast, whatever matched."""

    email = forms.CharField(
        label="Username or e-mail", max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )

    def save(self, *, domain_override: str | None = None, use_https: bool = False, request: Any = None,
             **_templates: Any) -> None:
        """Called by Django's PasswordResetView with its keyword arguments; the templates
        it names are ours, in accounts/passwords.py."""
        domain = domain_override or get_current_site(request).domain
        identifier = self.cleaned_data["email"]
        if not dispatch.enqueue(passwords.SEND_TASK, identifier, domain, use_https):
            passwords.send_reset_links(identifier=identifier, domain=domain, use_https=use_https)


def _check_current_password(request: HttpRequest, user: User, password: str) -> None:
    """Through the authentication backends, so a wrong guess counts towards the log-in
    lock-out as a failed log-in does (django-axes; docs/security.md, "Abuse limits")."""
    if authenticate(request, username=user.get_username(), password=password) is None:
        raise forms.ValidationError("That is not your current password.", code="wrong-password")


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's, with the old password checked as a log-in (counted by the lock-out)."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        _check_current_password(self.request, self.user, old_password)
        return old_password


class EmailForm(forms.Form):
    email = forms.EmailField(
        label="E-mail", required=False,
        help_text="Where notices you choose and password-reset links go. Leave empty to remove it.",
    )
    password = forms.CharField(
        label="Current password", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.request = user, request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        _check_current_password(self.request, self.user, password)
        return password
