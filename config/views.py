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
    """Whether this process can serve players, for a load balancer: 200 while the database
    and (where a server runs them) its database workers answer, ``"status": "degraded"``
    when Redis (the channel layer or the broker) does not: pages and play go on without it
    (docs/operations.md, "When Redis or a worker is down"), so taking every server out of
    rotation would turn a degraded platform into a dead one. 503 when the database or the
    workers do not answer. ``?strict=1``, for a monitor that reads only the status code:
    503 when any component is down. Each component's status either way (config/health.py)."""
    components = health.report()
    down = {name for name, component in components.items() if component["status"] != "ok"}
    serving = not down & health.SERVING
    status = "ok" if not down else "degraded" if serving else "error"
    strict = request.GET.get("strict") not in (None, "", "0")
    code = 200 if (not down if strict else serving) else 503
    response = JsonResponse({"status": status, "components": components}, status=code)
    response["Cache-Control"] = "no-store"
    return response
