"""Rating pages, mounted at /ratings/ by config/urls.py: leaderboards per variant (the
league's list and each club's own), a player's ratings with history charts, and the
recompute progress the admin polls with htmx. Thin: reads come from the rating selectors."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts.models import User
from games.rules import RuleError, get_variant
from league.competitions import event_selectors
from league.models import LEAGUE_LIST, Club, RecomputeRun
from league.ratings import selectors

DEFAULT_VARIANT = "classic"


def _check_variant(variant: str) -> None:
    try:
        get_variant(variant)
    except RuleError as err:
        raise Http404("No such variant.") from err


def leaderboard(request: HttpRequest, variant: str | None = None, club_slug: str | None = None) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug, own_rating_list=True) if club_slug else None
    variants = selectors.rated_variants(club=club)
    if variant is None:
        variant = variants[0] if variants else DEFAULT_VARIANT
    _check_variant(variant)
    return render(request, "league/leaderboard.html", {
        "club": club, "variant": variant, "variants": variants, "ratings": selectors.leaderboard(variant=variant, club=club),
        "clubs": selectors.clubs_with_lists(),
    })


def leaderboard_redirect(request: HttpRequest) -> HttpResponse:
    variant = request.GET.get("variant")
    if not variant:
        return redirect("league:index")
    _check_variant(variant)  # an unknown one ("a/b") is a 404, not a NoReverseMatch (500)
    return redirect("league:leaderboard", variant=variant)


def player(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(User, username=username)
    sections = []
    for rating in selectors.player_ratings(person):
        history = list(selectors.rating_history(person, variant=rating.variant, list_key=rating.list_key))
        sections.append({"rating": rating, "chart": selectors.history_chart(history)})
    return render(request, "league/player.html", {
        "person": person, "sections": sections, "games": selectors.recent_rated_games(person),
        "performances": selectors.performances(person, list_key=LEAGUE_LIST),
        # Only on the player's own page: the private link is theirs alone.
        "calendar": event_selectors.calendar_feed(person) if request.user == person else None,
    })


@staff_member_required
def recompute_progress(request: HttpRequest, run_id: int) -> HttpResponse:
    run = get_object_or_404(RecomputeRun, pk=run_id)
    return render(request, "league/recompute_progress.html", {"run": run, "progress": selectors.recompute_progress(run)})
