"""A club's organisers make and change its leagues and seasons (docs/competitions.md,
"Leagues and seasons"), from the club's page and a season's page; mounted at /clubs/ by
config/urls.py (league.urls.competition_urlpatterns). Writes through
league.competitions.seasons; a refusal is shown beside its field and changes nothing."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from accounts.errors import ServiceError
from accounts.http import PlayerRequest
from league.competitions import seasons as season_services
from league.competitions.season_forms import FIELD_OF, LeagueForm, SeasonForm
from league.models import Club, League, Season


def _organised_club(request: HttpRequest, club_slug: str) -> Club:
    the_club = get_object_or_404(Club, slug=club_slug)
    if not request.user.has_perm("league.organise_club", the_club):
        raise PermissionDenied("Only the club's owners and organisers run its leagues.")
    return the_club


def _refused(form: forms.Form, err: ServiceError) -> None:
    """The refusal beside the field it is about (above the form when it is about none)."""
    field = FIELD_OF.get(err.code)
    form.add_error(field if field in form.fields else None, err.message)


def _club_page(club: Club, league: League | None = None) -> str:
    """The league's own page; without one, the club's list of leagues."""
    if league is not None:
        return reverse("competitions:league", args=[club.slug, league.slug])
    return reverse("competitions:club", args=[club.slug]) + "#l-heading"


@login_required
def league_new(request: PlayerRequest, club_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = season_services.create_league(by=request.user, club=the_club, **form.cleaned_data)
        except ServiceError as err:
            _refused(form, err)
        else:
            messages.success(request, f"{league.name} is created: now add its first season.")
            return redirect("competitions:season-new", the_club.slug, league.slug)
    return render(request, "league/league_form.html", {"club": the_club, "form": form, "cancel": _club_page(the_club)})


@login_required
def league_edit(request: PlayerRequest, club_slug: str, league_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    the_league = get_object_or_404(League, club=the_club, slug=league_slug)
    form = LeagueForm(request.POST or None, initial=LeagueForm.initial_of(the_league))
    if request.method == "POST" and form.is_valid():
        try:
            season_services.edit_league(by=request.user, league=the_league, **form.cleaned_data)
        except ServiceError as err:
            _refused(form, err)
        else:
            messages.success(request, f"{form.cleaned_data['name'].strip()} is saved.")
            return redirect(_club_page(the_club, the_league))
    return render(request, "league/league_form.html", {
        "club": the_club, "league": the_league, "form": form, "cancel": _club_page(the_club, the_league)})


@login_required
def season_new(request: PlayerRequest, club_slug: str, league_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    the_league = get_object_or_404(League, club=the_club, slug=league_slug)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_services.create_season(by=request.user, league=the_league, **form.cleaned_data)
        except ServiceError as err:
            _refused(form, err)
        else:
            messages.success(request, f"{the_league.name}: {season.name} is created: now add its tournaments.")
            return redirect("competitions:season", the_club.slug, the_league.slug, season.slug)
    return render(request, "league/season_form.html", {
        "club": the_club, "league": the_league, "form": form, "cancel": _club_page(the_club, the_league),
        "seasons": the_league.seasons.order_by("-starts_on", "-year", "name"),
    })


@login_required
def season_edit(request: PlayerRequest, club_slug: str, league_slug: str, season_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    the_season = get_object_or_404(Season.objects.select_related("league__club"), league__club=the_club,
                                   league__slug=league_slug, slug=season_slug)
    the_league = the_season.league
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_of(the_season))
    if request.method == "POST" and form.is_valid():
        try:
            season_services.edit_season(by=request.user, season=the_season, **form.cleaned_data)
        except ServiceError as err:
            _refused(form, err)
        else:
            messages.success(request, f"{the_league.name}: {form.cleaned_data['name'].strip()} is saved.")
            return redirect("competitions:season", the_club.slug, the_league.slug, the_season.slug)
    return render(request, "league/season_form.html", {
        "club": the_club, "league": the_league, "season": the_season, "form": form,
        "cancel": reverse("competitions:season", args=[the_club.slug, the_league.slug, the_season.slug]),
        "seasons": the_league.seasons.exclude(pk=the_season.pk).order_by("-starts_on", "-year", "name"),
    })
