"""The site's own finish (issue #18, item 4; docs/site.md): its 400, 403, 404 and 500
pages, the favicon, page titles, the country field, checkboxes on one line with their
labels, navigation names that say where they go, quiet logs at INFO, and the demo
running with DEBUG off."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from tests.processes import ROOT

SITE = "Tic Tac Toe League"


def title(response) -> str:
    found = re.search(r"<title>(.*?)</title>", response.content.decode(), re.S)
    assert found is not None
    return found.group(1).strip()


# -- 404 and 500 ----------------------------------------------------------------------


@pytest.mark.django_db
def test_an_unknown_page_answers_with_the_sites_own_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert title(response) == f"Page not found · {SITE}"
    page = response.content.decode()
    assert 'class="site-header"' in page and "/static/css/site.css" in page  # the site's look, its menu
    assert "Page not found" in page and 'href="/"' in page


@pytest.mark.django_db
def test_a_404_raised_by_a_view_uses_the_same_page(client):
    response = client.get("/clubs/no-such-club/")
    assert response.status_code == 404 and title(response) == f"Page not found · {SITE}"


@pytest.mark.django_db
def test_under_the_api_a_404_stays_json(client):
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_500_page_renders_without_a_database():
    from config.api import handler500

    response = handler500(RequestFactory().get("/play/"))  # no database here: a query would raise
    page = response.content.decode()
    assert response.status_code == 500
    assert f"<title>Server error · {SITE}</title>" in page and "Something went wrong" in page
    assert "/static/css/site.css" in page


@pytest.mark.django_db
def test_a_page_a_player_may_not_open_answers_with_the_sites_own_403(client, api_world):
    url = reverse("competitions:tournament-new", args=[api_world["club"].slug])
    client.force_login(api_world["member"])  # a member, not an organiser
    response = client.get(url)
    assert response.status_code == 403
    assert title(response) == f"Not allowed · {SITE}"
    page = response.content.decode()
    assert 'class="site-header"' in page and "is not allowed here" in page and "(member)" in page


@pytest.mark.django_db
def test_under_the_api_a_403_stays_json(rf):
    from django.core.exceptions import PermissionDenied

    from config.api import handler403

    response = handler403(rf.get("/api/v1/games/"), PermissionDenied())
    assert response.status_code == 403 and response["Content-Type"] == "application/json"


@pytest.mark.django_db
def test_a_form_sent_without_its_csrf_token_gets_the_sites_own_page(make_player):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_player(username="stale"))
    response = client.post(reverse("accounts:profile"), {"display_name": "Stale", "country": "FR"})
    assert response.status_code == 403
    assert title(response) == f"Form expired · {SITE}"
    assert "Nothing was changed" in response.content.decode()


def test_the_400_page_renders_without_a_request_or_a_database():
    from django.core.exceptions import SuspiciousOperation

    from config.api import handler400

    response = handler400(RequestFactory().get("/play/"), SuspiciousOperation("bad"))
    page = response.content.decode()
    assert response.status_code == 400
    assert f"<title>Bad request · {SITE}</title>" in page and "nothing was changed" in page
    assert 'class="site-header"' in page


# -- the favicon ------------------------------------------------------------------------------


def test_the_favicon_is_linked_and_answers_at_the_sites_root(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/img/favicon.ico"
    assert client.post("/favicon.ico").status_code == 405
    static = ROOT / "static" / "img"
    assert (static / "favicon.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"  # an ICO's header
    assert (static / "favicon-180.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (static / "favicon.svg").read_text().startswith("<svg")


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/no-such-page/", "/admin/login/", "/api/docs/"])
def test_every_kind_of_page_links_the_favicon(client, url):
    page = client.get(url).content.decode()
    assert 'href="/static/img/favicon.svg" type="image/svg+xml"' in page, url
    assert 'href="/static/img/favicon.ico"' in page and 'rel="apple-touch-icon"' in page, url


def test_the_500_page_links_the_favicon():
    from config.api import handler500

    page = handler500(RequestFactory().get("/")).content.decode()
    assert 'href="/static/img/favicon.svg"' in page and 'href="/static/img/favicon.ico"' in page


# -- titles -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_main_page_has_a_title_of_its_own(client, api_world):
    club, tournament, section, game = (api_world[k] for k in ("club", "tournament", "section", "game"))
    players = " v ".join(seat.user.name for seat in game.seats.select_related("user").order_by("number"))
    pages = {
        "/": f"{SITE}: tournaments and leagues for clubs",
        "/play/": f"Play · {SITE}",
        f"/play/{game.pk}/": f"Game {game.pk}: {players} · Classic Tic Tac Toe · {SITE}",
        "/clubs/": f"Clubs &amp; events · {SITE}",
        "/api/docs/": f"API documentation · {SITE}",
        "/admin/login/": "Log in | Tic Tac Toe League admin",
        f"/clubs/{club.slug}/": f"Harbour club · {SITE}",
        f"/clubs/{club.slug}/{tournament.slug}/": f"Open · Harbour club · {SITE}",
        f"/clubs/{club.slug}/{tournament.slug}/{section.slug}/": f"Main · Open · {SITE}",
        "/accounts/signup/": f"Sign up · {SITE}",
        "/accounts/login/": f"Log in · {SITE}",
    }
    for url, expected in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert title(response) == expected, url
    client.force_login(api_world["owner"])
    for url in ("/ratings/", "/ratings/player/owner/", "/accounts/profile/", "/clubs/calendar/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert title(response).endswith(f" · {SITE}"), (url, title(response))


# -- the country field --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True], ids=["sign-up", "profile"])
def test_the_country_field_starts_on_an_empty_choice_and_is_required(client, make_player, signed_in):
    if signed_in:
        user = make_player(username="nocountry", country="")
        client.force_login(user)
    response = client.get("/accounts/profile/" if signed_in else "/accounts/signup/")
    select = re.search(r'<select name="country"[^>]*>\s*<option value="([^"]*)"( selected)?>([^<]*)<',
                       response.content.decode())
    assert select is not None
    assert select.group(1) == "" and select.group(3) == "Choose your country"
    assert "required" in select.group(0)


def test_a_form_without_a_country_is_refused():
    from accounts.forms import ProfileForm

    form = ProfileForm({"display_name": "Mei", "country": ""})
    assert not form.is_valid() and "country" in form.errors
    assert ProfileForm({"display_name": "Mei", "country": "FR"}).is_valid()


# -- checkboxes -------------------------------------------------------------------------------


def test_a_checkbox_sits_inside_its_label_on_one_line():
    from django import forms

    class Form(forms.Form):
        third_place = forms.BooleanField(required=False, label="A third-place match")

    html = render_to_string("accounts/_field.html", {"field": Form()["third_place"]})
    assert 'class="field field-check"' in html
    assert re.search(r'<label for="id_third_place"><input type="checkbox"[^>]*> A third-place match</label>', html)
    assert "(optional)" not in html
    css = (ROOT / "static" / "css" / "site.css").read_text()
    assert ".field.field-check { align-items: flex-start; }" in css


# -- navigation ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_home_page_points_a_newcomer_to_the_rules_and_the_lessons(client, make_player):
    """The newcomer walkthrough's find: only the menu led to /rules/ and /learn/. A
    visitor, and a player who has finished no lesson, is pointed to both; a player who
    has finished one is not."""
    from django.utils import timezone

    from games.models import LessonProgress

    pointer = re.compile(r'New here\? <a href="/rules/">Read the rules</a>, or\s+'
                         r'<a href="/learn/">learn a variant in a guided game</a>')
    assert pointer.search(client.get("/").content.decode())
    player = make_player()
    client.force_login(player)
    LessonProgress.objects.create(user=player, lesson="classic", steps_done=1)  # begun, not finished
    assert pointer.search(client.get("/").content.decode())
    LessonProgress.objects.filter(user=player).update(completed_at=timezone.now())
    assert "New here?" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_menu_names_say_where_they_go(client, api_world):
    page = client.get("/").content.decode()
    nav = re.search(r'<nav class="nav" aria-label="Main">(.*?)</nav>', page, re.S).group(1)
    links = dict((text.strip(), href) for href, text in re.findall(r'<a[^>]*href="([^"]+)"[^>]*>(.*?)</a>', nav))
    assert links["Clubs &amp; events"] == reverse("competitions:clubs")
    assert links["Play"] == "/play/" and links["Ratings"] == "/ratings/"
    assert "Clubs" not in links and "Events" not in links
    home_links = [text for text, href in links.items() if href == "/"]
    assert len(home_links) == 1 and "Tic Tac Toe League" in home_links[0]  # the site's name, nothing else


@pytest.mark.django_db
def test_every_menu_link_answers_and_its_page_is_named_like_it(client, api_world):
    """Each label names the page it opens: that page's heading says it (the player's own
    name opens their profile)."""
    client.force_login(api_world["member"])
    page = client.get("/").content.decode()
    nav = re.search(r'<ul id="nav-menu">(.*?)</ul>', page, re.S).group(1)
    links = re.findall(r'<a[^>]*href="([^"]+)"[^>]*>\s*([^<]*?)\s*<', nav)
    assert [label for href, label in links] == ["Play", "Learn", "Rules", "Players", "Clubs &amp; events", "Ratings", "API", "Notices", "member"]
    headings = {"Play": "Play", "Learn": "Learn", "Rules": "Rules", "Players": "Players", "Clubs &amp; events": "Clubs &amp; events", "Ratings": "Ratings",
                "Notices": "Notices", "member": "Your profile"}
    for href, label in links:
        response = client.get(href)
        assert response.status_code == 200, href
        if label in headings:
            h1 = re.search(r"<h1[^>]*>(.*?)</h1>", response.content.decode(), re.S).group(1)
            assert headings[label].lower() in re.sub(r"<[^>]+>", "", h1).lower(), (href, h1)


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "current"), [
    ("/play/", ('href="/play/" aria-current="page"',)),
    ("/learn/", ('href="/learn/" aria-current="page"',)),
    ("/clubs/", ('href="/clubs/" aria-current="page"',)),
    ("/rules/nine-square/", ('href="/rules/" aria-current="true"',)),  # a rule set's page
    ("/clubs/harbour/", ('href="/clubs/" aria-current="true"',)),  # a page in that section
    ("/ratings/player/owner/", ('href="/ratings/" aria-current="true"',)),
    ("/accounts/notices/", ('href="/accounts/notices/" aria-current="page"',)),
    ("/", ('href="/" aria-current="page"',)),
])
def test_the_menu_marks_where_you_are(client, api_world, url, current):
    client.force_login(api_world["owner"])
    page = client.get(url).content.decode()
    nav = re.search(r'<nav class="nav" aria-label="Main">(.*?)</nav>', page, re.S).group(1)
    for mark in current:
        assert mark in nav, url
    assert nav.count("aria-current") == len(current), url


@pytest.mark.django_db
def test_the_home_pages_club_card_links_to_the_club(client, api_world):
    page = client.get("/").content.decode()
    assert '<h3><a href="/clubs/harbour/">Harbour club</a></h3>' in page


# -- logs ---------------------------------------------------------------------------------------


def _record(name: str, level: int, msg: str, *args) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_the_periodic_sweeps_are_quiet_at_info_and_other_tasks_are_not():
    beat = logging.getLogger("celery.beat")
    received = logging.getLogger("celery.worker.strategy")
    trace = logging.getLogger("celery.app.trace")
    quiet = [
        (beat, _record("celery.beat", logging.INFO, "Scheduler: Sending due task %s (%s)",
                       "flag-expired-clocks", "games.flag_expired_clocks")),
        (received, _record("celery.worker.strategy", logging.INFO, "Task %(name)s[%(id)s] received",
                           {"name": "games.flag_expired_clocks", "id": "1"})),
        (trace, _record("celery.app.trace", logging.INFO, "Task %(name)s[%(id)s] succeeded in %(runtime)ss",
                        {"name": "config.tasks.heartbeat", "id": "2", "runtime": 0.01})),
    ]
    for logger, record in quiet:
        assert not logger.filter(record), record.getMessage()
    kept = [
        (received, _record("celery.worker.strategy", logging.INFO, "Task %(name)s[%(id)s] received",
                           {"name": "league.rate_game", "id": "3"})),
        (trace, _record("celery.app.trace", logging.ERROR, "Task %(name)s[%(id)s] raised unexpected: %(exc)s",
                        {"name": "games.flag_expired_clocks", "id": "4", "exc": "boom"})),
        (beat, _record("celery.beat", logging.INFO, "beat: Starting...")),
    ]
    for logger, record in kept:
        assert logger.filter(record), record.getMessage()


# -- the demo's DEBUG -----------------------------------------------------------------------------


def _demo_debug(**env_vars: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DJANGO_SETTINGS_MODULE")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.dev", **env_vars)
    show = ["manage.py", "shell", "-c", "from django.conf import settings; print(settings.DEBUG)"]
    result = subprocess.run([sys.executable, *show], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_the_demo_runs_with_debug_off_unless_asked():
    assert _demo_debug() == "False"
    assert _demo_debug(DJANGO_DEBUG="1") == "True"


def test_every_form_that_htmx_posts_also_posts_without_script():
    """A form with ``hx-post`` and no ``method="post"`` is sent as a GET when htmx is not
    there (script off, still loading, blocked): nothing is saved, and the CSRF token goes
    into the address bar and the server's log. The profile's name form did this (an
    outside probe, 2026-12-01)."""
    forms = [(path.relative_to(ROOT), tag) for path in sorted((ROOT / "templates").rglob("*.html"))
             for tag in re.findall(r"<form\b[^>]*>", path.read_text()) if "hx-post" in tag]
    assert forms
    assert [(str(path), tag) for path, tag in forms if 'method="post"' not in tag] == []
