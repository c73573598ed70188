"""Account pages (htmx): sign-up with the age gate, guardian consent, profile."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import services
from .errors import ServiceError
from .forms import GuardianForm, ProfileForm, SignUpForm

#: Once a date of birth below the consent age was entered, this browser keeps it:
#: a refused person cannot go back and type another date.
AGE_GATE_COOKIE = "ttt_age_gate"
AGE_GATE_SALT = "accounts.age-gate"
AGE_GATE_MAX_AGE = 60 * 60 * 24 * 365


def home(request: HttpRequest) -> HttpResponse:
    from league.selectors import clubs_for_home  # league stands on accounts, not the reverse

    return render(request, "home.html", {"clubs": clubs_for_home()})


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


def _remembered_birth(request: HttpRequest) -> tuple[date, str] | None:
    raw = request.get_signed_cookie(AGE_GATE_COOKIE, default=None, salt=AGE_GATE_SALT, max_age=AGE_GATE_MAX_AGE)
    if not raw:
        return None
    try:
        born, country = raw.split("|", 1)
        return date.fromisoformat(born), country
    except ValueError:
        return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    remembered = _remembered_birth(request)
    form = SignUpForm(request.POST or None)
    guardian_form = GuardianForm(request.POST or None) if "guardian_name" in request.POST else GuardianForm()
    context = {"form": form, "guardian_form": guardian_form, "needs_guardian": False, "reason": ""}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        born, country = (data["date_of_birth"], data["country"])
        if remembered:
            born, country = remembered  # the first date entered in this browser stands
        guardian = guardian_form.cleaned_data if guardian_form.is_bound and guardian_form.is_valid() else {}
        try:
            registration = services.register_player(
                username=data["username"],
                password=data["password"],
                email=data["email"],
                display_name=data["display_name"],
                date_of_birth=born,
                country=country,
                guardian_name=guardian.get("guardian_name", ""),
                guardian_email=guardian.get("guardian_email", ""),
                consent_url_base=request.build_absolute_uri("/"),
            )
        except ServiceError as err:
            if err.code == "guardian-consent-required":
                context.update(needs_guardian=True, reason=err.message)
                response = render(request, "accounts/signup.html", context, status=200)
                response.set_signed_cookie(
                    AGE_GATE_COOKIE,
                    f"{born.isoformat()}|{country}",
                    salt=AGE_GATE_SALT,
                    max_age=AGE_GATE_MAX_AGE,
                    httponly=True,
                    samesite="Lax",
                )
                return response
            form.add_error(None, err.message)
        else:
            if registration.needs_guardian_consent:
                return render(request, "accounts/consent_requested.html", {"registration": registration})
            login(request, registration.user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {registration.user.name}!")
            return redirect("home")
    if remembered and not context["needs_guardian"]:
        context["remembered"] = True
    return render(request, "accounts/signup.html", context)


@require_http_methods(["GET", "POST"])
def guardian_consent(request: HttpRequest, token: str) -> HttpResponse:
    try:
        consent = services.consent_for_token(token=token)
    except ServiceError as err:
        return render(request, "accounts/consent.html", {"error": err.message}, status=400)
    if request.method == "POST":
        try:
            consent = services.grant_guardian_consent(token=token)
        except ServiceError as err:
            return render(request, "accounts/consent.html", {"error": err.message}, status=400)
        return render(request, "accounts/consent.html", {"consent": consent, "granted": True})
    return render(request, "accounts/consent.html", {"consent": consent})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    profile = getattr(request.user, "profile", None)
    initial = {"display_name": profile.display_name if profile else request.user.username,
               "country": profile.country.code if profile and profile.country else ""}
    form = ProfileForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            profile = services.update_profile(user=request.user, **form.cleaned_data)
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, "Profile saved.")
    template = "accounts/profile.html#profile-card" if request.htmx else "accounts/profile.html"
    return render(request, template, {"form": form, "profile": profile,
                                      "play": services.play_eligibility(user=request.user)})
