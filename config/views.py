"""The site's own pages: the home page (every app's front door) and the health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from games.lesson_service import finished_lessons
from league.clubs.selectors import clubs_for_home, clubs_with_members

from . import health


def home(request: HttpRequest) -> HttpResponse:
    # A newcomer (a visitor, or a player who has finished no lesson) is pointed to the
    # rules and the guided lessons.
    newcomer = not request.user.is_authenticated or not finished_lessons(request.user.pk)
    return render(request, "home.html", {"clubs": clubs_with_members(clubs_for_home(), request.user),
                                         "newcomer": newcomer})


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """/favicon.ico, which browsers and feed readers ask for whatever the page links:
    the static icon (templates/base.html links the SVG and this ICO)."""
    return HttpResponsePermanentRedirect(static("img/favicon.ico"))


@csrf_exempt  # a probe's POST is told 405, not shown the sign-in form's "expired" page
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database, the channel layer, the broker and (where a server runs
    them) its database workers all answer, else 503; each component's status either way
    (config/health.py)."""
    components = health.report()
    ok = all(component["status"] == "ok" for component in components.values())
    response = JsonResponse({"status": "ok" if ok else "error", "components": components}, status=200 if ok else 503)
    response["Cache-Control"] = "no-store"
    return response
