"""Rating pages, mounted at /ratings/ by config/urls.py: leaderboards per variant (the
league's list and each club's own), a player's ratings with history charts, and the
recompute progress the admin polls with htmx. Thin: reads come from the rating selectors."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts import players
from accounts.models import User
from games import selectors as game_selectors
from games.rules import RuleError, get_variant
from league.clubs import selectors as club_selectors
from league.competitions import event_selectors
from league.models import LEAGUE_LIST, Club, RecomputeRun
from league.ratings import selectors

DEFAULT_VARIANT = "classic"


def _check_variant(variant: str) -> None:
    try:
        get_variant(variant)
    except RuleError as err:
        raise Http404("No such variant.") from err


#: Leaderboard rows per page.
PAGE_SIZE = 50
#: The player page explains a list's latest this many changes (the API has them all).
CHANGES_SHOWN = 50


def leaderboard(request: HttpRequest, variant: str | None = None, club_slug: str | None = None) -> HttpResponse:
    """A list's leaderboard with a tab per variant. A club without a list of its own
    shows its members' places in the league's list (docs/ratings.md)."""
    club = get_object_or_404(Club, slug=club_slug) if club_slug else None
    own_list = club if club is not None and club.own_rating_list else None
    rated = selectors.rated_variants(club=own_list)
    if variant is None:
        variant = next((v for v in selectors.MAIN_VARIANTS if v in rated), rated[0] if rated else DEFAULT_VARIANT)
    _check_variant(variant)
    rows = selectors.leaderboard(variant=variant, club=own_list, limit=None,
                                 members_of=club if club is not None and own_list is None else None)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "league/leaderboard.html", {
        "club": club, "own_list": own_list, "variant": variant, "variant_name": selectors.variant_name(variant),
        "tabs": selectors.variant_tabs(rated), "page": page, "clubs": selectors.clubs_for_picker(request.user),
    })


def leaderboard_redirect(request: HttpRequest) -> HttpResponse:
    variant = request.GET.get("variant")
    if not variant:
        return redirect("league:index")
    _check_variant(variant)  # an unknown one ("a/b") is a 404, not a NoReverseMatch (500)
    return redirect("league:leaderboard", variant=variant)


def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: their clubs, record and latest games (a child's only to whom may
    reach them: accounts.players.may_reach), then their ratings, a tab per variant they
    are rated in: per list, the history chart and every change explained."""
    person = get_object_or_404(User, username=username)
    ratings = list(selectors.player_ratings(person))
    rated = sorted({r.variant for r in ratings})
    variant = request.GET.get("variant") or next(
        (v for v in selectors.MAIN_VARIANTS if v in rated), rated[0] if rated else DEFAULT_VARIANT)
    _check_variant(variant)
    sections = []
    # The league's list first, then the clubs' lists by name.
    for rating in sorted(ratings, key=lambda r: (r.club is not None, r.club.name if r.club else "")):
        if rating.variant != variant:
            continue
        history = selectors.explained_history(person, variant=variant, list_key=rating.list_key)
        sections.append({"rating": rating, "chart": selectors.history_chart([c for c, _ in history]),
                         "changes": history[::-1][:CHANGES_SHOWN], "more": max(0, len(history) - CHANGES_SHOWN)})
    viewer = request.user
    reachable = players.may_reach(viewer, person)
    return render(request, "league/player.html", {
        "person": person,
        "clubs": club_selectors.clubs_of(person, viewer),
        "record": game_selectors.player_record(person) if reachable else None,
        "games": game_selectors.player_games(person) if reachable else None,
        "head_to_head": (game_selectors.player_record(viewer, against=person)
                         if reachable and viewer.is_authenticated and viewer.pk != person.pk else None), "sections": sections, "variant": variant, "variant_name": selectors.variant_name(variant),
        "tabs": [(slug, name) for slug, name in selectors.variant_tabs(rated) if slug in rated],
        "performances": selectors.performances(person, list_key=LEAGUE_LIST),
        # Only on the player's own page: the private link is theirs alone.
        "calendar": event_selectors.calendar_feed(person) if request.user == person else None,
    })


@staff_member_required
def recompute_progress(request: HttpRequest, run_id: int) -> HttpResponse:
    run = get_object_or_404(RecomputeRun, pk=run_id)
    return render(request, "league/recompute_progress.html", {"run": run, "progress": selectors.recompute_progress(run)})
