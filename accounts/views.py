"""Account pages (htmx): sign-up with the age gate, guardian consent, profile, and the
player search."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import notices as notice_services
from . import players as player_search
from . import presence, services
from .errors import ServiceError
from .forms import (
    EmailForm,
    GuardianForm,
    NoticeEmailForm,
    PasswordChangeForm,
    PasswordResetRequestForm,
    ProfileForm,
    SignUpForm,
)
from .http import PlayerRequest
from .models import Profile, default_email_notices

#: A signed random id naming this browser to the age screen (accounts.services.screen_age):
#: one of its keys, beside the session. It holds no date; deleting it does not help.
AGE_GATE_COOKIE = "ttt_age_gate"
AGE_GATE_SALT = "accounts.age-gate"
AGE_GATE_MAX_AGE = 60 * 60 * 24 * 365

#: The guardian's section sent back with an error before the age could be read again.
GUARDIAN_REASON = "You need a parent's or guardian's consent to use the service."

#: The field a refusal of the services is about, so a page puts it beside that field, as
#: the form's own errors are (templates/accounts/_field.html); any other refusal goes at
#: the top of the form, with the form's errors that concern no one field.
FIELD_OF = {
    "invalid-username": "username",
    "username-taken": "username",
    "invalid-display-name": "display_name",
    "display-name-invisible": "display_name",
    "display-name-look-alike": "display_name",
    "display-name-taken": "display_name",
    "weak-password": "password",
    "invalid-date-of-birth": "date_of_birth",
    "country-needs-consent": "country",
    "guardian-email-is-players": "guardian_email",
}


def refused(err: ServiceError, *forms_shown: Any) -> None:
    """A service's refusal beside the field it is about, on whichever of the page's forms
    has that field; at the top of the first form otherwise."""
    field = FIELD_OF.get(err.code)
    form = next((form for form in forms_shown if form.is_bound and field in form.fields), None)
    if form is None:
        forms_shown[0].add_error(None, err.message)
    else:
        form.add_error(field, err.message)


def _browser_id(request: HttpRequest) -> tuple[str, bool]:
    """This browser's age-screen id, and whether it is new (to be set as a cookie)."""
    known = request.get_signed_cookie(AGE_GATE_COOKIE, default="", salt=AGE_GATE_SALT, max_age=AGE_GATE_MAX_AGE)
    return (known, False) if known else (secrets.token_urlsafe(24), True)


#: The session's note of a sign-up waiting for a guardian, for the page after the redirect.
CONSENT_REQUESTED = "consent_requested"


def _keep_session(request: HttpRequest) -> None:
    """Give the browser a session before the answer, so the answer is remembered under it."""
    request.session["signup_started"] = True
    if request.session.session_key is None:
        request.session.save()


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    # The guardian's section was on the page that was sent: its fields come back as typed.
    guardian_shown = "guardian_name" in request.POST
    guardian_form = GuardianForm(request.POST) if guardian_shown else GuardianForm()
    context = {"form": form, "guardian_form": guardian_form, "needs_guardian": guardian_shown,
               "reason": GUARDIAN_REASON if guardian_shown else "",
               # Sent back after a post: the password box is empty, and says so.
               "retype_password": request.method == "POST"}
    response: HttpResponse | None = None
    browser_id, new_browser = _browser_id(request)
    if request.method == "POST" and not form.is_valid():
        _show_guardian_if_needed(request, form, browser_id, context)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        guardian = guardian_form.cleaned_data if guardian_form.is_bound and guardian_form.is_valid() else {}
        _keep_session(request)
        try:
            registration = services.register_player(
                username=data["username"],
                password=data["password"],
                email=data["email"],
                display_name=data["display_name"],
                date_of_birth=data["date_of_birth"],
                country=data["country"],
                guardian_name=guardian.get("guardian_name", ""),
                guardian_email=guardian.get("guardian_email", ""),
                screen=services.age_screen_for(
                    request, username=data["username"], email=data["email"], browser_id=browser_id
                ),
                consent_url_base=request.build_absolute_uri("/"),
            )
        except ServiceError as err:
            if err.code == "guardian-consent-required":  # the next step, not an error
                screened = err.screened if isinstance(err, services.GuardianConsentRequired) else None
                context.update(needs_guardian=True, reason=err.message,
                               device_only=screened is not None and screened.device_only)
            else:
                refused(err, form, guardian_form)
                _show_guardian_if_needed(request, form, browser_id, context)
        else:
            if registration.needs_guardian_consent:
                # Shown after a redirect: a refresh of "Almost there" asked to send the form again.
                consent = registration.consent
                request.session[CONSENT_REQUESTED] = {
                    "guardian_name": consent.guardian_name if consent else "",
                    "link_expires": services.consent_link_expires(consent).isoformat() if consent else None,
                }
                response = redirect("accounts:consent-requested")
            else:
                login(request, registration.user, backend="accounts.backends.ProfileModelBackend")
                messages.success(request, format_html(
                    'Welcome, {}! Where next: <a href="{}">Take a first lesson</a> or <a href="{}">Play a game</a>.',
                    registration.user.name, reverse("games:learn"), reverse("games:lobby")))
                response = redirect("home")
    if response is None:
        response = render(request, "accounts/signup.html", context)
    if new_browser and request.method == "POST":
        response.set_signed_cookie(
            AGE_GATE_COOKIE,
            browser_id,
            salt=AGE_GATE_SALT,
            max_age=AGE_GATE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
        )
    return response


@require_GET
def consent_requested(request: HttpRequest) -> HttpResponse:
    """"Almost there": the sign-up that waits for a guardian's consent, told once it is made."""
    told = request.session.get(CONSENT_REQUESTED)
    if told is None:
        return redirect("accounts:signup")
    expires = told["link_expires"]
    return render(request, "accounts/consent_requested.html", {
        "guardian_name": told["guardian_name"],
        "link_expires": datetime.fromisoformat(expires) if expires else None})


def _show_guardian_if_needed(request: HttpRequest, form: SignUpForm, browser_id: str,
                             context: dict[str, Any]) -> None:
    """A sign-up sent back with errors (a password left empty, a taken name) whose date of
    birth and country are readable: show the guardian's section now if they need it, rather than
    after the next post. The answer is screened, and so remembered, as a complete
    sign-up's would be (accounts.services.screen_age): otherwise a page that shows the
    section could be used to try dates until it goes away."""
    data = form.cleaned_data
    if "date_of_birth" not in data or not data.get("country"):
        return
    _keep_session(request)
    screen = services.age_screen_for(
        request, username=data.get("username", ""), email=data.get("email", ""), browser_id=browser_id
    )
    try:
        screened = services.screen_age(screen=screen, date_of_birth=data["date_of_birth"], country=data["country"])
    except ServiceError as err:
        form.add_error("date_of_birth", err.message)
        return
    if screened.decision.needs_guardian_consent:
        context.update(needs_guardian=True, reason=services.consent_reason(screened), device_only=screened.device_only)


@require_http_methods(["GET", "POST"])
def guardian_consent(request: HttpRequest, token: str) -> HttpResponse:
    try:
        consent = services.consent_for_token(token=token)
    except ServiceError as err:
        return render(request, "accounts/consent.html", {"error": err.message}, status=400)
    contact = services.contact_address()
    if request.method == "POST":
        answer = request.POST.get("answer")
        if answer not in ("consent", "decline"):
            # Consent is the button pressed, never an empty or unknown answer (a form
            # replayed by a script, a crawler's POST): nothing changes.
            return render(request, "accounts/consent.html",
                          {"consent": consent, "contact": contact,
                           "answer_error": "Choose one of the two buttons: I give my consent, or I do not consent."},
                          status=400)
        declined = answer == "decline"
        try:
            if declined:
                consent = services.decline_guardian_consent(token=token)
            else:
                consent = services.grant_guardian_consent(token=token)
        except ServiceError as err:
            return render(request, "accounts/consent.html", {"error": err.message, "contact": contact}, status=400)
        return render(request, "accounts/consent.html",
                      {"consent": consent, "declined": declined, "granted": not declined, "contact": contact})
    return render(request, "accounts/consent.html", {"consent": consent, "contact": contact})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: PlayerRequest) -> HttpResponse:
    profile = getattr(request.user, "profile", None)
    initial = {"display_name": profile.display_name if profile else request.user.username,
               "country": profile.country.code if profile and profile.country else ""}
    form = ProfileForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            profile = services.update_profile(user=request.user, **form.cleaned_data)
        except ServiceError as err:
            refused(err, form)
        else:
            messages.success(request, "Profile saved.")
    template = "accounts/profile.html#profile-card" if request.htmx else "accounts/profile.html"
    return render(request, template, {"form": form, "profile": profile, "email_form": _email_form(request.user, profile),
                                      "address_form": EmailForm(initial={"email": request.user.email},
                                                                user=request.user, request=request),
                                      "play": services.play_eligibility(user=request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def email_address(request: PlayerRequest) -> HttpResponse:
    """The account's e-mail address, changed with the current password (services.set_email)."""
    form = EmailForm(request.POST or None, initial={"email": request.user.email}, user=request.user,
                     request=request)
    if request.method == "POST" and form.is_valid():
        try:
            services.set_email(user=request.user, email=form.cleaned_data["email"])
        except ServiceError as err:
            form.add_error("email", err.message)  # each of its refusals is about the address
        else:
            messages.success(request, "E-mail address saved." if request.user.email else "E-mail address removed.")
            return redirect("accounts:profile")
    return render(request, "accounts/email_address.html", {"form": form}, status=400 if form.errors else 200)


# -- passwords: Django's own views, with our templates, and the tokens revoked after -----------


class PasswordChangeView(auth_views.PasswordChangeView):
    http_method_names = ["get", "head", "post"]  # a form: no PUT
    form_class = PasswordChangeForm
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:profile")

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)  # keeps this session signed in
        services.password_changed(user=form.user)
        messages.success(self.request, "Password changed. Other browsers and API tokens are signed out.")
        return response


class PasswordResetView(auth_views.PasswordResetView):
    http_method_names = ["get", "head", "post"]
    form_class = PasswordResetRequestForm  # its save() queues the mail (accounts/passwords.py)
    template_name = "accounts/password_reset.html"
    success_url = reverse_lazy("accounts:password-reset-sent")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    http_method_names = ["get", "head", "post"]
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password-reset-complete")

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        services.password_changed(user=form.user)
        return response


def _email_form(user: Any, profile: Profile | None, data: Any = None) -> NoticeEmailForm:
    chosen = profile.email_notices if profile is not None else default_email_notices()
    return NoticeEmailForm(data, initial={"email_notices": chosen}, user=user)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def notice_emails(request: PlayerRequest) -> HttpResponse:
    """Which notices the player also wants by e-mail (the profile page's second card). The
    form lives on the profile page: a GET (a bookmarked or typed address) goes there,
    rather than to a bare 405."""
    if request.method != "POST":
        return redirect(reverse("accounts:profile") + "#email-card")
    form = _email_form(request.user, None, request.POST)
    saved = False
    if form.is_valid():
        notice_services.set_email_notices(user=request.user, kinds=form.cleaned_data["email_notices"])
        saved = True
    if not request.htmx:
        if saved:
            messages.success(request, "E-mail choices saved.")
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html#email-card", {"email_form": form, "email_saved": saved})


@login_required
@require_http_methods(["GET", "HEAD"])
def notices(request: PlayerRequest) -> HttpResponse:
    """The inbox: newest first, 30 a page; ?unread=1 for the unread only."""
    unread_only = request.GET.get("unread") == "1"
    page = Paginator(notice_services.inbox(request.user, unread_only=unread_only), 30).get_page(request.GET.get("page"))
    return render(request, "accounts/notices.html", {
        "page": page, "unread_only": unread_only, "unread": notice_services.unread_count(request.user.pk),
        "newest_id": notice_services.newest_id(request.user.pk)})


@login_required
@require_POST
def notice_open(request: PlayerRequest, notice_id: int) -> HttpResponse:
    """Follow a notice's link, marking it read (another's notice: 404). A POST with the
    CSRF token: a GET would let any other site mark a player's notices read."""
    try:
        notice = notice_services.mark_read(user=request.user, notice_id=notice_id)
    except ServiceError as err:
        raise Http404(err.message) from err
    if notice.url and url_has_allowed_host_and_scheme(notice.url, allowed_hosts=None):
        return redirect(notice.url)
    return redirect("accounts:notices")


@login_required
@require_POST
def notices_read_all(request: PlayerRequest) -> HttpResponse:
    up_to = request.POST.get("up_to", "")
    marked = notice_services.mark_all_read(user=request.user, up_to=int(up_to) if up_to.isascii() and up_to.isdigit() else None)
    messages.success(request, f"{marked} notice{'' if marked == 1 else 's'} marked read." if marked
                     else "Nothing was unread.")
    return redirect("accounts:notices")


@require_GET
def players(request: HttpRequest) -> HttpResponse:
    """Find a player by name (``?q=``), with who is online; htmx swaps in the results."""
    query = request.GET.get("q", "")
    try:
        found = player_search.search_players(query)
        error = ""
    except ServiceError as err:
        found, error = [], err.message
    context = {
        "query": query.strip()[: player_search.MAX_QUERY_LENGTH],
        "found": found,
        "error": error,
        "online_ids": presence.online_ids(person.pk for person in found),
    }
    if getattr(request, "htmx", False):
        return render(request, "accounts/players.html#results", context)
    context["online"] = player_search.online_players(viewer=request.user)
    return render(request, "accounts/players.html", context)
