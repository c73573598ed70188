"""Competition pages (docs/competitions.md, "Pages"), mounted at /clubs/ by
config/urls.py (league.urls.competition_urlpatterns): seasons, tournaments, sections,
entries, exports, the player's calendar, and the organiser pages. Reads come from
event_selectors, writes from competition_services / event_services."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from accounts import players
from accounts.errors import ServiceError
from accounts.http import PlayerRequest, Request
from accounts.models import User
from games.models import RuleSet
from league import competitions as competition_services
from league import exports
from league.competitions import event_selectors, event_services, refusals
from league.competitions import selectors as competition_selectors
from league.competitions.formats import format_of
from league.competitions.forms import ELIGIBILITY_FIELDS, SectionForm, TournamentEditForm, TournamentForm
from league.models import Club, Entry, League, Season, Section, Tournament

#: Seconds between refreshes of a section's live part while its socket is down (the
#: fallback: the socket tells the page when to refresh, static/js/section-live.js).
LIVE_REFRESH_SECONDS = 5
#: A message's tag for "shown by the page beside the form that was sent, not at its top"
#: (templates/base.html leaves such messages to the page; templates/league/section.html).
IN_PLACE = "in-place"


def _tournament(club_slug: str, slug: str, user) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club", "season__league"),
                                   club__slug=club_slug, slug=slug)
    if refusals.view_refusal(tournament, user) is not None:  # a draft, to all but its organisers
        raise Http404("No such tournament.")
    return tournament


def _section(club_slug: str, tournament_slug: str, slug: str, user) -> Section:
    tournament = _tournament(club_slug, tournament_slug, user)
    section = get_object_or_404(Section.objects.select_related("rule_set"), tournament=tournament, slug=slug)
    section.tournament = tournament
    return section


def league(request: HttpRequest, club_slug: str, league_slug: str) -> HttpResponse:
    the_league = get_object_or_404(League.objects.select_related("club"), club__slug=club_slug, slug=league_slug)
    return render(request, "league/league.html", {
        "league": the_league, "club": the_league.club, "today": timezone.localdate(),
        "seasons": competition_selectors.league_seasons(the_league, today=timezone.localdate()),
    })


def season(request: HttpRequest, club_slug: str, league_slug: str, season_slug: str) -> HttpResponse:
    the_season = get_object_or_404(Season.objects.select_related("league__club"), league__club__slug=club_slug,
                                   league__slug=league_slug, slug=season_slug)
    return render(request, "league/season.html", {
        "season": the_season, "league": the_season.league, "club": the_season.league.club,
        "rows": competition_selectors.season_standings(the_season),
        # Its organisers see their drafts too, as on the club page.
        "tournaments": event_selectors.season_tournaments(the_season, include_drafts=request.user.has_perm(
            "league.organise_club", the_season.league.club)),
    })


def tournament(request: HttpRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    the_tournament = _tournament(club_slug, tournament_slug, request.user)
    sections = event_selectors.in_stage_order(list(event_selectors.tournament_sections(the_tournament)))
    for each in sections:  # the same words as its page's "Who may enter"
        each.who_may_enter = event_selectors.who_may_enter(each)  # type: ignore[attr-defined]  # shown on the page
        each.editable = refusals.edit_section_refusal(each, request.user) is None  # type: ignore[attr-defined]  # its Edit link
        # The signed-in player's entry: Register / Check in on the card, or that they are entered.
        each.entry = event_selectors.entry_state(section=each, user=request.user)  # type: ignore[attr-defined]
        each.takes_entries = refusals.takes_entries(each, timezone.now())  # type: ignore[attr-defined]  # a visitor's "Log in"
    return render(request, "league/tournament.html", {
        "club": the_tournament.club, "tournament": the_tournament, "sections": sections,
        # When play really began (its first section's round 1), said instead of the planned start.
        "started_at": event_selectors.tournament_started_at(the_tournament),
        # How its games are rated, unless none of its sections is (then it said "Live: every
        # game is rated as it ends" above unrated sections).
        "unrated": bool(sections) and not any(s.rated for s in sections),
        "organiser": request.user.has_perm("league.organise_club", the_tournament.club),
        "actions": event_selectors.tournament_actions(the_tournament, request.user),
        "add_section_refusal": refusals.add_section_refusal(the_tournament, request.user),
        "edit_refusal": refusals.edit_tournament_refusal(the_tournament, request.user),
        "delete_refusal": refusals.delete_tournament_refusal(the_tournament, request.user),
        # "Open for registration" only while some section takes entries (the organiser may close it early).
        "registration_closed": the_tournament.status == Tournament.Status.REGISTRATION and not any(
            refusals.takes_entries(s, timezone.now()) for s in sections),
        "next_games": [g for g in (event_selectors.next_game_view(section=s, user=request.user) for s in sections)
                       if g],
    })


def _section_context(request: HttpRequest, section: Section) -> dict:
    # Followed live (its socket, polling as the fallback) until it is over.
    live = section.status in (Section.Status.REGISTRATION, Section.Status.RUNNING)
    fmt = format_of(section)
    all_rounds = request.GET.get("rounds") == "all"
    standings = event_selectors.standings(section)
    tiebreak_columns = event_selectors.tiebreak_columns(section)
    crosstable = event_selectors.crosstable(section) if fmt.has_crosstable else []
    section_actions = event_selectors.section_actions(section, request.user)
    section_admin = event_selectors.section_admin(section, request.user)
    context = {
        "club": section.tournament.club, "tournament": section.tournament, "section": section,
        "section_format": fmt, "format_description": fmt.describe(section),
        "pairing_system": event_selectors.pairing_system(section),
        "bracket": event_selectors.bracket(section),
        "crosstable": crosstable, "crosstable_byes": event_selectors.crosstable_has_byes(crosstable),
        "crosstable_withdrawn": any(r.withdrawn for r in crosstable),
        # Said before the console's form asks for a reason: a knockout's played results stand.
        "correction_refused": fmt.correction_refusal[1] if fmt.correction_refusal else "",
        "round_crosstable": event_selectors.round_crosstable(section),  # a Swiss's, by round
        "standings": standings,
        "tiebreak_columns": tiebreak_columns, "standings_key": event_selectors.standings_key(
            tiebreak_columns, streaks=any(row.on_fire for row in standings), knockout=fmt.has_bracket,
            rows=standings, tie_order=fmt.tie_order, points=fmt.points_meaning(section)),
        "who_may_enter": event_selectors.who_may_enter(section),
        "stage": event_selectors.stage_info(section),
        # The latest rounds only, unless asked for all (?rounds=all): an arena's rounds run to hundreds.
        "rounds": event_selectors.rounds(section, latest=None if all_rounds else event_selectors.ROUNDS_SHOWN),
        "all_rounds": all_rounds,
        "earlier_rounds": 0 if all_rounds else max(0, section.round_set.count() - event_selectors.ROUNDS_SHOWN),
        "next_round": event_selectors.next_scheduled_round(section),
        "my_game": event_selectors.next_game_view(section=section, user=request.user),
        "live": live, "refresh": LIVE_REFRESH_SECONDS,
        # The facts and the players list are sent with each live refresh too (out of band).
        "players": event_selectors.section_players(section),
        # A running arena's players away until they are back: marked in the players list.
        "paused": event_selectors.paused_players(section),
        # The entry box and the organiser's buttons follow the state with the rest.
        "entry": event_selectors.entry_state(section=section, user=request.user),
        # A visitor is asked to log in wherever a player could enter now (an arena's late entries too).
        "takes_entries": refusals.takes_entries(section, timezone.now()),
        "organiser": request.user.has_perm("league.organise_club", section.tournament.club),
        "section_actions": section_actions,
        # The organiser's edit, delete and players (enter a member, withdraw an entrant).
        "section_admin": section_admin,
        # A Swiss's pairing system and acceleration may change until round 1 (set_swiss_pairing).
        "swiss_choices": {"systems": Section.SwissSystem.choices, "accelerations": Section.Acceleration.choices}
        if section.format == Section.Format.SWISS and section.status == Section.Status.REGISTRATION
        and not section.current_round else None,
    }
    context["organiser_card"] = context["organiser"] and event_selectors.organiser_card(
        section_actions, section_admin, swiss_choices=context["swiss_choices"] is not None)
    # Groups: each group's table instead of one crosstable with mostly empty cells.
    context["group_tables"] = event_selectors.group_tables(section, standings)
    if section.groups > 1:
        context["crosstable"] = []
    return context


def section(request: Request, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    the_section = _section(club_slug, tournament_slug, section_slug, request.user)
    context = _section_context(request, the_section)
    if request.htmx:  # the live part, refreshed when the section's socket says so
        return render(request, "league/_section_live.html", context)
    context.update(
        moderator=request.user.has_perm("league.moderate_club", the_section.tournament.club),  # the TRF export
        # Who plays here pairs nothing here (docs/moderation.md, "Recusal"): no TRF link.
        plays_here=context["entry"].entry is not None and context["entry"].entry.status != Entry.Status.WITHDRAWN,
        prizes=competition_selectors.prizes_in_order(the_section),
    )
    return render(request, "league/section.html", context)


@login_required
@require_POST
def section_entry(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """Register, check in or withdraw the signed-in player, or pause them in an arena and
    bring them back; a refusal is shown in words."""
    the_section = _section(club_slug, tournament_slug, section_slug, request.user)
    action = request.POST.get("action")
    try:
        if action == "register":
            competition_services.register(section=the_section, user=request.user)
            messages.success(request, f"You are entered in {the_section.name}.")
        elif action == "check-in":
            competition_services.check_in(section=the_section, user=request.user)
            messages.success(request, "You are checked in.")
        elif action == "withdraw":
            competition_services.withdraw(section=the_section, user=request.user,
                                          reason=request.POST.get("reason", "")[:200])
            messages.success(request, f"You have withdrawn from {the_section.name}.")
        elif action == "pause":
            competition_services.pause_player(section=the_section, user=request.user)
            messages.success(request, "You are paused: the arena pairs you again once you press “I'm back”.")
        elif action == "back":
            competition_services.player_back(section=the_section, user=request.user)
            messages.success(request, "Welcome back: the arena pairs you with the next player who is free.")
        else:
            messages.error(request, "Unknown action.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("competitions:section", club_slug, tournament_slug, section_slug)


def section_standings_csv(request: HttpRequest, club_slug: str, tournament_slug: str,
                          section_slug: str) -> HttpResponse:
    the_section = _section(club_slug, tournament_slug, section_slug, request.user)
    response = HttpResponse(exports.standings_csv(the_section), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{exports.standings_filename(the_section)}"'
    return response


def section_json(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str,
                 kind: str) -> HttpResponse:
    the_section = _section(club_slug, tournament_slug, section_slug, request.user)
    if kind == "bracket":
        if not format_of(the_section).has_bracket:
            raise Http404("This section has no bracket.")
        data = event_selectors.bracket_json(the_section)
    else:
        if not format_of(the_section).has_crosstable:
            raise Http404("This section has no crosstable.")
        data = event_selectors.crosstable_json(the_section)
    return HttpResponse(exports.to_json(data), content_type="application/json")


def player_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """A player's rounds for calendar apps, by the private link's secret alone (an app
    sends no cookie); a wrong or replaced link is 404, as an unknown page would be."""
    person = event_selectors.calendar_owner(token)
    if person is None:
        raise Http404("No such calendar.")
    response = HttpResponse(exports.player_calendar(person, site=request.build_absolute_uri("/")[:-1]),
                            content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{exports.calendar_filename(person)}"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def my_calendar(request: PlayerRequest) -> HttpResponse:
    """The player's private calendar link; POST makes it, or a new one that revokes the old."""
    if request.method == "POST":
        replaced = event_selectors.calendar_feed(request.user) is not None
        event_services.new_calendar_link(user=request.user)
        messages.success(request, "Here is your new calendar link; the old one no longer works." if replaced
                         else "Here is your calendar link.")
        return redirect("competitions:my-calendar")
    return render(request, "league/my_calendar.html", {"calendar": event_selectors.calendar_feed(request.user)})


# -- organiser pages -----------------------------------------------------------------------


def _organised_club(request: HttpRequest, club_slug: str) -> Club:
    the_club = get_object_or_404(Club, slug=club_slug)
    if not request.user.has_perm("league.organise_club", the_club):
        raise PermissionDenied("Only the club's owners and organisers run its events.")
    return the_club


@login_required
def tournament_new(request: PlayerRequest, club_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    form = TournamentForm(request.POST or None, club=the_club, initial={"season": request.GET.get("season")})
    if request.method == "POST" and form.is_valid():
        try:
            created = event_services.create_tournament(by=request.user, club=the_club, **form.cleaned_data)
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, f"{created.name} is created: now add its sections.")
            return redirect("competitions:section-new", the_club.slug, created.slug)
    return render(request, "league/tournament_form.html", {"club": the_club, "form": form})


def _format_select(form: SectionForm, club: Club, tournament: Tournament) -> None:
    """Choosing another format fetches its settings' fieldset (static/js/section-form.js, htmx)."""
    form.fields["format"].widget.attrs["data-settings-url"] = reverse(
        "competitions:section-format-settings", args=[club.slug, tournament.slug])


@login_required
def section_new(request: PlayerRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    the_tournament = get_object_or_404(Tournament, club=the_club, slug=tournament_slug)
    if "show-format" in request.POST:  # without script: the page again, with the chosen format's settings
        form = SectionForm(initial=request.POST.dict(), tournament=the_tournament)
    else:
        form = SectionForm(request.POST or None, tournament=the_tournament)
    _format_select(form, the_club, the_tournament)
    if request.method == "POST" and form.is_bound and form.is_valid():
        try:
            created = event_services.create_section(by=request.user, tournament=the_tournament,
                                                    **form.service_arguments())
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, f"Section {created.name} is created.")
            return redirect("competitions:tournament", the_club.slug, the_tournament.slug)
    return render(request, "league/section_form.html", {
        "club": the_club, "tournament": the_tournament, "form": form,
        "sections": event_selectors.tournament_sections(the_tournament),
        "add_section_refusal": refusals.add_section_refusal(the_tournament, request.user),
    })


@login_required
@require_http_methods(["GET", "HEAD"])
def section_format_settings(request: PlayerRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    """The section form's fieldset of one format's settings (``?format=swiss``), for htmx."""
    the_club = _organised_club(request, club_slug)
    get_object_or_404(Tournament, club=the_club, slug=tournament_slug)
    if request.GET.get("format") not in Section.Format.values:
        return HttpResponse("Unknown format.", status=400, content_type="text/plain")
    return render(request, "league/_section_format_settings.html",
                  {"form": SectionForm(initial={"format": request.GET["format"]})})


ORGANISER_ACTIONS = {
    "open": (event_services.open_registration, "Registration is open."),
    "close": (event_services.close_registration, "Registration is closed."),
    "start": (event_services.start_tournament, "The tournament has started: round 1 is paired."),
}


@login_required
@require_POST
def tournament_action(request: PlayerRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    the_tournament = get_object_or_404(Tournament, club=the_club, slug=tournament_slug)
    action = ORGANISER_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, "Unknown action.")
    else:
        service, done = action
        if service is event_services.open_registration and the_tournament.status == Tournament.Status.DRAFT:
            done = "Published: each section takes entries as its schedule says."
        try:
            service(by=request.user, tournament=the_tournament)
            messages.success(request, done)
        except ServiceError as err:
            messages.error(request, err.message)
    return redirect("competitions:tournament", the_club.slug, the_tournament.slug)


@login_required
@require_POST
def section_swiss_pairing(request: PlayerRequest, club_slug: str, tournament_slug: str,
                          section_slug: str) -> HttpResponse:
    """The organiser's pairing system and accelerated rounds of a Swiss, before round 1."""
    the_club = _organised_club(request, club_slug)
    the_section = get_object_or_404(Section, tournament__club=the_club, tournament__slug=tournament_slug,
                                    slug=section_slug)
    try:
        competition_services.set_swiss_pairing(
            by=request.user, section_id=the_section.pk,
            swiss_system=request.POST.get("swiss_system") or None, acceleration=request.POST.get("acceleration") or None)
        messages.success(request, "Pairing saved.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("competitions:section", club_slug, tournament_slug, section_slug)


@login_required
@require_POST
def section_start(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    the_club = _organised_club(request, club_slug)
    the_section = get_object_or_404(Section, tournament__club=the_club, tournament__slug=tournament_slug,
                                    slug=section_slug)
    try:
        event_services.start_section(by=request.user, section=the_section)
        messages.success(request, f"{the_section.name} has started: round 1 is paired.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("competitions:section", club_slug, tournament_slug, section_slug)


@login_required
@require_POST
def section_end(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """End a section whose next round cannot be paired after its last completed round."""
    the_club = _organised_club(request, club_slug)
    the_section = get_object_or_404(Section.objects.select_related("tournament__club"), tournament__club=the_club,
                                    tournament__slug=tournament_slug, slug=section_slug)
    try:
        ended = event_services.end_section_early(by=request.user, section=the_section)
        messages.success(request, f"{ended.name} has ended after round {ended.current_round}: its standings are "
                                  "final and every player has been told.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("competitions:section", club_slug, tournament_slug, section_slug)


# -- organisers correct what they made: edit, delete, enter and withdraw players -------------


def _organised_tournament(request: HttpRequest, club_slug: str, tournament_slug: str) -> Tournament:
    """The tournament, for its club's organisers (403 for anyone else, as the other organiser pages)."""
    the_club = _organised_club(request, club_slug)
    the_tournament = get_object_or_404(Tournament.objects.select_related("club", "season"), club=the_club,
                                       slug=tournament_slug)
    the_tournament.club = the_club
    return the_tournament


def _organised_section(request: HttpRequest, club_slug: str, tournament_slug: str, section_slug: str) -> Section:
    the_tournament = _organised_tournament(request, club_slug, tournament_slug)
    the_section = get_object_or_404(Section.objects.select_related("rule_set", "previous_stage"),
                                    tournament=the_tournament, slug=section_slug)
    the_section.tournament = the_tournament
    return the_section


@login_required
def tournament_edit(request: PlayerRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    """The creation form, filled in; refused (the reason instead of the form) once any of it has started."""
    the_tournament = _organised_tournament(request, club_slug, tournament_slug)
    refusal = refusals.edit_tournament_refusal(the_tournament, request.user)
    form = TournamentEditForm(request.POST or None, tournament=the_tournament)
    if request.method == "POST" and refusal is None and form.is_valid():
        try:
            saved = event_services.edit_tournament(by=request.user, tournament=the_tournament,
                                                   **_kept_to_the_minute(form.cleaned_data, the_tournament))
        except ServiceError as err:
            form.add_error(None, err.message)
        else:
            messages.success(request, f"{saved.name} is saved.")
            return redirect("competitions:tournament", club_slug, the_tournament.slug)
    return render(request, "league/tournament_form.html", {
        "club": the_tournament.club, "tournament": the_tournament, "form": form, "refusal": refusal,
    })


@login_required
@require_POST
def tournament_delete(request: PlayerRequest, club_slug: str, tournament_slug: str) -> HttpResponse:
    the_tournament = _organised_tournament(request, club_slug, tournament_slug)
    try:
        event_services.delete_tournament(by=request.user, tournament=the_tournament)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("competitions:tournament", club_slug, tournament_slug)
    messages.success(request, f"{the_tournament.name} is deleted.")
    return redirect("competitions:club", club_slug)


@login_required
def section_edit(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """The creation form, filled in with the section's settings, until its round 1."""
    the_section = _organised_section(request, club_slug, tournament_slug, section_slug)
    the_tournament = the_section.tournament
    refusal = refusals.edit_section_refusal(the_section, request.user)
    initial = SectionForm.initial_of(the_section)
    if "show-format" in request.POST:  # without script: the page again, with the chosen format's settings
        form = SectionForm(initial={**initial, **request.POST.dict()}, tournament=the_tournament)
    else:
        form = SectionForm(request.POST or None, initial=initial, tournament=the_tournament)
    _edit_choices(form, the_section)
    _format_select(form, the_tournament.club, the_tournament)
    if request.method == "POST" and refusal is None and form.is_bound and form.is_valid():
        changes = form.service_arguments()
        changes.setdefault("starts_at", the_tournament.starts_at)  # empty: when the tournament starts
        try:
            saved = event_services.edit_section(by=request.user, section=the_section,
                                                **_kept_to_the_minute(changes, the_section))
        except ServiceError as err:
            form.add_error(None, err.message)
            if err.code == "would-exclude-entrants":  # point at the limits set or changed, in their (unfolded) group
                for name in form.changed_data:
                    if name in ELIGIBILITY_FIELDS and form.cleaned_data.get(name) not in (None, "", False):
                        form.add_error(name, "This would leave out players already entered (see above).")
        else:
            messages.success(request, f"Section {saved.name} is saved.")
            return redirect("competitions:section", club_slug, tournament_slug, the_section.slug)
    return render(request, "league/section_form.html", {
        "club": the_tournament.club, "tournament": the_tournament, "form": form, "section": the_section,
        "refusal": refusal, "sections": event_selectors.tournament_sections(the_tournament).exclude(pk=the_section.pk),
    })


def _kept_to_the_minute(changes: dict, obj: Tournament | Section) -> dict:
    """The form shows times to the minute: one sent back as shown is the stored time (to
    the second), not a change (a round 1 that has passed would be refused as moved)."""
    kept = dict(changes)
    for name, value in changes.items():
        stored = getattr(obj, name, None)
        if isinstance(value, datetime) and isinstance(stored, datetime) and value == stored.replace(
                second=0, microsecond=0):
            kept[name] = stored
    return kept


def _edit_choices(form: SectionForm, section: Section) -> None:
    """A section follows another stage, never itself; it keeps its own rule set even if that
    set has been revised since (the form offers the current versions)."""
    previous = cast(forms.ModelChoiceField, form.fields["previous_stage"])
    previous.queryset = section.tournament.sections.exclude(pk=section.pk).order_by("starts_at", "pk")
    rule_set = cast(forms.ModelChoiceField, form.fields["rule_set"])
    offered = RuleSet.objects.filter(is_current=True, for_lessons=False) | RuleSet.objects.filter(pk=section.rule_set_id)
    rule_set.queryset = offered.order_by("variant", "name")


@login_required
@require_POST
def section_delete(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    the_section = _organised_section(request, club_slug, tournament_slug, section_slug)
    try:
        event_services.delete_section(by=request.user, section=the_section)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("competitions:section", club_slug, tournament_slug, section_slug)
    messages.success(request, f"Section {the_section.name} is deleted.")
    return redirect("competitions:tournament", club_slug, tournament_slug)


@login_required
@require_POST
def section_players(request: PlayerRequest, club_slug: str, tournament_slug: str, section_slug: str) -> HttpResponse:
    """The organiser enters a member of the club (``action=enter``) or withdraws an entrant
    (``action=withdraw``), by username; a refusal is shown in words, nothing changed. The
    answer is shown beside the form, where the organiser is looking (the section page's
    "Enter a player" card, just above the players list, is where the page opens), not in
    the messages at the top of the page."""
    the_section = _organised_section(request, club_slug, tournament_slug, section_slug)
    action, username = request.POST.get("action"), request.POST.get("username", "").strip()
    beside = f"{IN_PLACE} {'withdraw-player' if action == 'withdraw' else 'enter-player'}"
    try:
        if not username:
            raise ServiceError("no-player", "Give the player's username.")
        players.refuse_overlong(username)  # before the lookup: SQLite refuses a LIKE that long
        player = User.objects.filter(username__iexact=username).first()
        if action == "enter":
            if player is None:  # the same words as a player of another club: no name is confirmed
                raise ServiceError("not-member", f"{username} is not a member of {the_section.tournament.club.name}: "
                                                 "an organiser enters the club's members; others register themselves.")
            entry = event_services.enter_player(by=request.user, section=the_section, user=player)
            checked = " and checked in" if entry.status == Entry.Status.CHECKED_IN else ""
            messages.success(request, f"{player.name} is entered{checked}.", extra_tags=beside)
        elif action == "withdraw":
            if player is None:
                raise ServiceError("not-entered", f"{username} is not entered in this section.")
            event_services.withdraw_player(by=request.user, section=the_section, user=player,
                                           reason=request.POST.get("reason", "")[:200])
            messages.success(request, f"{player.name} is withdrawn.", extra_tags=beside)
        else:
            messages.error(request, "Unknown action.", extra_tags=beside)
    except ServiceError as err:
        messages.error(request, err.message, extra_tags=beside)
    return redirect(reverse("competitions:section", args=[club_slug, tournament_slug, section_slug]) + "#enter-player")
