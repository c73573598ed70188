"""The site's own pages: the home page (every app's front door) and the health check."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from league.clubs.selectors import clubs_for_home


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"clubs": clubs_for_home()})


def healthz(request: HttpRequest) -> JsonResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
